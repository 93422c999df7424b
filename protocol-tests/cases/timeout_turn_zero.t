# timeout_turn 0 means as fast as possible: a move within 500 ms on a mid-game board.
> START 15
< OK
> INFO timeout_turn 0
> BOARD
> 7,7,1
> 8,8,1
> 6,9,1
> 9,6,1
> 8,7,2
> 7,8,2
> 6,6,2
> 9,9,2
> DONE
< {move} @500
> TURN 10,10
< {move} @500
