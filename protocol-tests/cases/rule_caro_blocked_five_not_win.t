# Caro (INFO rule 8): our four on row 7 (x=3..6) would become a five at 7,7 with opponent stones
# at both ends (2,7 and 8,7): blocked at both ends, no win. The opponent's column-11 four
# (y=3..6, our stone at 11,2, 11,8 empty) wins at 11,7, so we must block there.
> START 15
< OK
> INFO rule 8
> INFO timeout_turn 1000
> BOARD
> 3,7,1
> 4,7,1
> 5,7,1
> 6,7,1
> 11,2,1
> 2,7,2
> 8,7,2
> 11,3,2
> 11,4,2
> 11,5,2
> 11,6,2
> DONE
< 11,7
