# Opponent broken four X X _ X X on row 10 (x=3,4,_,6,7): the only block is the gap 5,10.
> START 15
< OK
> INFO timeout_turn 1000
> BOARD
> 3,10,2
> 4,10,2
> 6,10,2
> 7,10,2
> 12,12,1
> 12,1,1
> 1,1,1
> DONE
< 5,10
