# A refused command changes nothing: a point refused because it was occupied becomes playable
# once TAKEBACK frees it, and a BOARD refused for a bad line leaves its points free.
> START 15
< OK
> INFO timeout_turn 300
> TURN 7,7
< {move:m}
> TURN 7,7
< ERROR *
> TAKEBACK {m}
< OK
> TAKEBACK 7,7
< OK
> TURN 7,7
< {move}
> BOARD
> 1,13,2
> 13,1,1
> 2,3,bad
> DONE
< ERROR *
silence 300
> TURN 1,13
< {move}
> TURN 13,1
< {move}
