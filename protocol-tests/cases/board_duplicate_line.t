# Two body stones on one point refuse the whole BOARD at DONE.
> START 15
< OK
> INFO timeout_turn 300
> BOARD
> 3,3,1
> 11,11,2
> 3,3,2
> DONE
< ERROR *
silence 300
> TURN 3,3
< {move}
> TURN 11,11
< {move}
