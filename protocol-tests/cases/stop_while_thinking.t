# STOP, like YXSTOP, makes a long search answer with its move at once.
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
> STOP
< {move} @1000
