# GomocupJudge never sends BEGIN: BOARD + DONE with no stones must act like it.
> START 15
< OK
> INFO timeout_turn 300
> BOARD
> DONE
< {move}
> TURN 0,0
< {move}
