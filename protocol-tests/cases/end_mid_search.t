# END while thinking: exit at once (well under 0.5 s) without printing the move.
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
sleep 300
> END
exit 500
