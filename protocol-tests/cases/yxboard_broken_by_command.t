# YXBOARD answers nothing at DONE, but a body cut off by a command still gets its one ERROR.
> INFO timeout_turn 300
> START 15
< OK
> YXBOARD
> 7,7,1
> RESTART
< ERROR *
< OK
> START 15
< OK
> BEGIN
< {move}
# Lower case (Yixin-Board) counts as well, and the cut-off stones are not placed.
> yxboard
> 0,0,1
> 1,1,2
> yxshowforbid
< ERROR *
< FORBID .
> TURN 0,0
< {move}
> TURN 1,1
< {move}
