# Commands sent while the engine thinks are queued, not lost: the INFO applies silently and the
# second TURN is answered after the first.
> START 15
< OK
> INFO timeout_turn 400
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
> INFO time_left 100000
< {move}
> TURN 0,0
> TURN 14,14
< {move}
< {move} @3000
