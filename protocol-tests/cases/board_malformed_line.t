# One malformed body line: exactly one ERROR, at DONE, and the board stays as before BOARD.
> START 15
< OK
> INFO timeout_turn 300
> TURN 14,14
< {move}
> BOARD
> 2,12,1
> garbage
> 12,2,2
silence 300
> DONE
< ERROR *
silence 300
# Nothing from the refused body was placed, and the earlier stone is still there.
> TURN 2,12
< {move}
> TURN 12,2
< {move}
> TURN 14,14
< ERROR *
