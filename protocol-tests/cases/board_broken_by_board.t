# A BOARD line inside an open body refuses that body and opens a new one, which is read as usual.
> INFO timeout_turn 300
> START 15
< OK
> BOARD
> 0,0,1
> board
> 7,7,1
> 8,8,2
> DONE
< ERROR *
< {move}
# The refused body's stone was never placed.
> TURN 0,0
< {move}
# Every kind of body breaks off every other.
> YXBOARD
> 1,1,1
> SWAP2BOARD
> DONE
< ERROR *
< {int},{int} {int},{int} {int},{int} @3000
