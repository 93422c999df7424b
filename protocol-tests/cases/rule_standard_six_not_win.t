# Standard (INFO rule 1, exactly five): 6,7 would give us six in row 7 (x=2..7), which is no
# win; x=1 is the opponent's. The opponent's column-11 four (y=3..6, our stone at 11,2) makes
# an exact five at 11,7, so we must block there.
> START 15
< OK
> INFO rule 1
> INFO timeout_turn 1000
> BOARD
> 2,7,1
> 3,7,1
> 4,7,1
> 5,7,1
> 7,7,1
> 11,2,1
> 1,7,2
> 11,3,2
> 11,4,2
> 11,5,2
> 11,6,2
> 13,13,2
> DONE
< 11,7
