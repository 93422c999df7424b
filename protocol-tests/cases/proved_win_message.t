# A win proved before any search is reported like an iteration: the proof's plies as the depth,
# its line as the PV, then the move.
> START 15
< OK
> INFO timeout_turn 1000
# Black (field 1) has an open three on row 8 (f8 g8 h8); white's stones are far away and
# threaten nothing: an open four, then a five (three plies).
> BOARD
> 5,7,1
> 0,14,2
> 6,7,1
> 14,14,2
> 7,7,1
> 14,0,2
> DONE
< MESSAGE depth 3-3 ev +M3 * pv ?8 ?8 ?8
< 4,7|8,7
# White ignores the open four: a five to make, one ply (either end, whichever four was made).
> TURN 0,0
< MESSAGE depth 1-1 ev +M1 * pv ?8
< 3,7|4,7|8,7|9,7
