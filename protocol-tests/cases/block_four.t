# Opponent four in column 5 (y=3..6), its top end blocked by us at 5,2: the only block is 5,7.
# We have no four of our own. Opponent has one stone more, so we are white.
> START 15
< OK
> INFO timeout_turn 1000
> BOARD
> 5,3,2
> 5,4,2
> 5,5,2
> 5,6,2
> 5,2,1
> 9,9,1
> 1,13,1
> DONE
< 5,7
