# Search progress goes out as MESSAGE lines (the only chatter), before the move.
> START 15
< OK
> INFO timeout_turn 500
> BOARD
> 7,7,1
> 8,8,1
> 6,9,1
> 9,6,1
> 8,7,2
> 7,8,2
> 6,6,2
> 9,9,2
> DONE
< MESSAGE *depth*
< {move}
