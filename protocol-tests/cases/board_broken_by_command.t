# A manager that restarts in the middle of a BOARD body never sends DONE. A line inside the body
# whose first word is a command ends the body: one ERROR for it, then the command runs.
> INFO timeout_turn 300
> START 15
< OK
> BOARD
> 7,7,1
> RESTART
< ERROR *
< OK
> START 15
< OK
> BEGIN
< {move}
# The refused body leaves the board as it was: a TURN ends it, and is then answered.
> TURN 14,14
< {move}
> BOARD
> 2,12,1
> 12,2,2
> TURN 3,3
< ERROR *
< {move}
> TURN 2,12
< {move}
> TURN 12,2
< {move}
> TURN 14,14
< ERROR *
