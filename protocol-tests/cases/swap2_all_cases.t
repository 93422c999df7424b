# SWAP2BOARD, as Gomocup runs swap2: points only, colours alternating from black.
> INFO timeout_turn 1000
> START 15
< OK
# Case 1: no stones -> three stones (black, white, black).
> SWAP2BOARD
> DONE
< {int},{int} {int},{int} {int},{int} @3000
# Case 2: three stones -> SWAP, one move (stay white) or two moves (white, black).
> SWAP2BOARD
> 7,7
> 8,7
> 7,9
> DONE
< SWAP|{int},{int}|{int},{int} {int},{int} @3000
# Case 3: five stones -> SWAP or one move (take white).
> SWAP2BOARD
> 7,7
> 8,7
> 7,9
> 8,8
> 6,8
> DONE
< SWAP|{int},{int} @3000
# A bad stone list is an error, and the engine keeps serving.
> SWAP2BOARD
> 7,7
> 7,7
> 8,8
> DONE
< ERROR *
> SWAP2BOARD
> 7,7
> DONE
< ERROR *
> START 15
< OK
