# INFO thread_num 2: the search runs on two threads, and stop, time limits and END still work.
# (A count above the machine's cores is clamped, with a MESSAGE before the next move.)
> START 15
< OK
> INFO thread_num 2
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
> INFO timeout_turn 500
> TURN 0,0
< {move} @1500
> INFO thread_num 64
> TURN 14,14
< MESSAGE INFO thread_num 64: more than the {int} cores here; using {int}
< {move} @1500
> INFO timeout_turn 30000
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
sleep 300
> END
exit 500
