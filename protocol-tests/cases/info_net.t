# INFO net / net_file choose the evaluation; a file that cannot be used (missing, or a net the
# search cannot keep sums for: the trainer's fixture has D = 8) leaves the evaluation as it was,
# and each choice is reported as a MESSAGE before the next move.
> INFO timeout_turn 200
> START 15
< OK
> INFO net_file /nonexistent/net.gnn1
> INFO net_file scripts/train/fixture/net.gnn1
> INFO net 7
> BEGIN
< MESSAGE INFO net_file /nonexistent/net.gnn1: *; evaluation unchanged
< MESSAGE INFO net_file scripts/train/fixture/net.gnn1: D = 8 (the search needs 32 or 16); evaluation unchanged
< MESSAGE INFO net 7: needs 0 (classic evaluation) or 1 (built-in nets), ignored
< {move}
> INFO net 0
> TURN 8,8
< MESSAGE classic evaluation for Freestyle 15x15
< {move}
> INFO net 1
> TURN 10,10
< MESSAGE net evaluation (D = 32, 32 hidden) for Freestyle 15x15
< {move}
> INFO net_file src/eval/nets/renju15.gnn1
> TURN 4,10
< MESSAGE net evaluation (D = 32, 32 hidden) for Freestyle 15x15
< {move}
