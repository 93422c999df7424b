# BEGIN answers a move on the empty board, on every board size.
> START 15
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
> START 20
< OK
> BEGIN
< {move}
> START 5
< OK
> BEGIN
< {move}
