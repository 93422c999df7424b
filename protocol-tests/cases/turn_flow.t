# A short game: every TURN gets a move on a free point (the harness tracks the stones).
> START 15
< OK
> INFO timeout_turn 300
> INFO timeout_match 100000
> BEGIN
< {move}
> INFO time_left 99000
> TURN 0,0
< {move}
> INFO time_left 98000
> TURN 14,0
< {move}
> INFO time_left 97000
> TURN 0,14
< {move}
> INFO time_left 96000
> TURN 14,14
< {move}
