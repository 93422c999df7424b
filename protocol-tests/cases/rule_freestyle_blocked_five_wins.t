# The position of rule_caro_blocked_five_not_win.t under freestyle (INFO rule 0): a five blocked
# at both ends still wins, so we play 7,7.
> START 15
< OK
> INFO rule 0
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
< 7,7
