# Both sides have a four: winning at once (7,10) beats blocking the opponent (12,6).
#   own row 10: x=3..6, blocked at x=2 by the opponent -> five point 7,10
#   opp column 12: y=2..5, blocked at y=1 by us       -> five point 12,6
> START 15
< OK
> INFO timeout_turn 1000
> BOARD
> 3,10,1
> 4,10,1
> 5,10,1
> 6,10,1
> 12,1,1
> 2,10,2
> 12,2,2
> 12,3,2
> 12,4,2
> 12,5,2
> DONE
< 7,10
