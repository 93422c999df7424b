# END during a search: the search stops without printing its move, and the commands queued
# behind it that need no search are still answered before the exit.
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
> ABOUT
> TURN 0,0
> TAKEBACK 7,7
> END
< name="gorin", version="*", author="*"*
< OK
exit 500
