# Malformed, off-board and occupied TURNs get ERROR (and no move), and the engine still waits
# for the opponent's move.
> START 15
< OK
> INFO timeout_turn 300
> TURN 7
< ERROR *
> TURN a,b
< ERROR *
> TURN 99,99
< ERROR *
> TURN -1,0
< ERROR *
> TURN 15,0
< ERROR *
> TURN 0,15
< ERROR *
silence 300
> TURN 7,7
< {move:m}
# Occupied by the opponent, then by ourselves.
> TURN 7,7
< ERROR *
> TURN {m}
< ERROR *
silence 300
> TURN 3,3
< {move}
