# Own four with one end blocked: the engine must complete the five at 7,7.
#   row 7:  x=2 opp, x=3..6 own, x=7 the winning point
> START 15
< OK
> INFO timeout_turn 1000
> BOARD
> 3,7,1
> 4,7,1
> 5,7,1
> 6,7,1
> 2,7,2
> 10,2,2
> 11,11,2
> 3,12,2
> DONE
< 7,7
