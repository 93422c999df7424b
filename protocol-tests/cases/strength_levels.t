# INFO strength 0 (weakest level) still answers legally and quickly, and still takes a win.
> INFO strength 0
> INFO timeout_turn 1000
> START 15
< OK
> BOARD
> 3,3,1
> 4,3,1
> 5,3,1
> 6,3,1
> 10,10,2
> 11,10,2
> 12,10,2
> 1,12,2
> DONE
< 7,3|2,3 @1000
> INFO strength 55
> TURN 2,12
< {move} @1500
