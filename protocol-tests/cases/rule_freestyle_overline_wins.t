# The position of rule_standard_six_not_win.t under freestyle (INFO rule 0): the overline at
# 6,7 (row 7, x=2..7) wins, so we play it instead of blocking 11,7.
> START 15
< OK
> INFO rule 0
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
< 6,7
