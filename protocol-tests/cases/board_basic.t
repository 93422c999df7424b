# BOARD body lines get no reply; the move comes at DONE.
> START 15
< OK
> INFO timeout_turn 500
> BOARD
> 7,7,1
> 8,8,2
> 6,8,1
> 8,6,2
silence 300
> DONE
< {move}
> TURN 0,0
< {move}
