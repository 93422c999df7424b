# BOARD replaces the whole position, whatever was played before it.
> START 15
< OK
> INFO timeout_turn 300
> TURN 1,1
< {move}
> BOARD
> 12,12,1
> 11,11,2
> DONE
< {move}
# 1,1 is free again.
> TURN 1,1
< {move}
