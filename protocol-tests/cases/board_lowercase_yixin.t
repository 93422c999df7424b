# Yixin-Board sends lowercase board/done.
> start 15
< OK
> info timeout_turn 300
> board
> 7,7,2
> 8,7,1
> 8,8,2
> done
< {move}
