# Field 3 marks a winning line or forbidden point in continuous games: no stone for anybody.
# (The mark sits in a corner so our own move is not expected there.)
> START 15
< OK
> INFO timeout_turn 300
> BOARD
> 7,7,1
> 0,14,3
> 8,8,2
> DONE
< {move}
# No stone at 0,14, so TAKEBACK finds nothing to remove.
> TAKEBACK 0,14
< ERROR *
> TURN 0,14
< {move}
