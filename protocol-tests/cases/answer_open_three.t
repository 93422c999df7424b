# Opponent open three on row 7 (x=6,7,8) with row 7 empty from x=3 to x=11; we have no threat.
# Only the adjacent points 5,7 and 9,7 stop an open four (a far point such as 4,7 lets the
# opponent play 9,7 with 5,7 and 10,7 open).
> START 15
< OK
> INFO timeout_turn 1000
> BOARD
> 6,7,2
> 7,7,2
> 8,7,2
> 2,2,1
> 12,12,1
> DONE
< 5,7|9,7
