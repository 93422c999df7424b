# Own diagonal four running into the corner of a 20x20 board: the five point is 19,19.
#   own 15,15 16,16 17,17 18,18; opp blocks the other end at 14,14
> START 20
< OK
> INFO timeout_turn 1000
> BOARD
> 15,15,1
> 16,16,1
> 17,17,1
> 18,18,1
> 14,14,2
> 2,2,2
> 3,17,2
> 10,1,2
> DONE
< 19,19
