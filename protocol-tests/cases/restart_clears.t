# RESTART clears the stones but keeps the size (19,19 stays on the 20x20 board).
> START 20
< OK
> INFO timeout_turn 300
> TURN 19,19
< {move:a}
> RESTART
< OK
> TURN 19,19
< {move}
> RESTART
< OK
# Our earlier reply point is free again too.
> TURN {a}
< {move}
