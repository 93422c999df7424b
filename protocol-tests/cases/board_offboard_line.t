# A body stone off the board refuses the whole BOARD at DONE.
> START 15
< OK
> INFO timeout_turn 300
> BOARD
> 7,7,1
> 15,3,2
> DONE
< ERROR *
silence 300
> BOARD
> 7,7,1
> -1,3,2
> DONE
< ERROR *
silence 300
> TURN 7,7
< {move}
