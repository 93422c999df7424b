# YXSTOP (c-gomoku-cli at its deadline) makes a long search answer with its move at once.
> START 15
< OK
> INFO timeout_turn 30000
> INFO timeout_match 1000000
> INFO time_left 1000000
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
sleep 500
> YXSTOP
< {move} @1000
# The stop must not stick: the next search runs and answers normally.
> INFO timeout_turn 500
> TURN 0,0
< {move}
