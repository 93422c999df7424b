# TAKEBACK of an empty, off-board or malformed point is refused and changes nothing.
> START 15
< OK
> INFO timeout_turn 300
> TAKEBACK 3,3
< ERROR *
> TAKEBACK 15,15
< ERROR *
> TAKEBACK x
< ERROR *
> TURN 3,3
< {move}
> TAKEBACK 3,3
< OK
> TAKEBACK 3,3
< ERROR *
> TURN 3,3
< {move}
