# Opening commands with unusable arguments or bodies: one ERROR each, at DONE or when a
# command cuts the body off, and the engine keeps serving.
> INFO timeout_turn 300
> START 15
< OK
> YXOPENINGSWAP
> 7,7
> DONE
< ERROR YXOPENINGSWAP needs a rule (TARAGUCHI10, SOOSORV8 or RIF) and at most a count
> YXOPENINGMOVE SWAP2
> DONE
< ERROR YXOPENINGMOVE: unknown opening rule 'SWAP2'
> YXOPENINGMOVE SOOSORV8 x
> DONE
< ERROR YXOPENINGMOVE count: 'x' is not a number
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 8;6
> DONE
< ERROR bad board line '8;6'*
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 7,7
> DONE
< ERROR opening stone 7,7 is off the board or on a stone
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 20,20
> DONE
< ERROR opening stone 20,20 is off the board or on a stone
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> DONE
< ERROR YXOPENINGCHOOSE RIF: the rule has no such decision with 3 stones
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> START 15
< ERROR YXOPENINGSWAP ended by START before DONE; position unchanged
< OK
> YXOPENINGMOVE TARAGUCHI10
> DONE
< 7,7
> ABOUT
< name="gorin"*
