# TAKEBACK removes a stone of either side; play then continues on the freed points.
> START 15
< OK
> INFO timeout_turn 300
> BEGIN
< {move:m}
> TURN 0,0
< {move:n}
> TAKEBACK {n}
< OK
> TAKEBACK 0,0
< OK
> TAKEBACK {m}
< OK
# Back to the empty board: the same flow works again on the same points.
> BEGIN
< {move}
> RESTART
< OK
> TURN {m}
< {move}
> TURN 0,0
< {move}
