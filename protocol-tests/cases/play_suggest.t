# PLAY x,y (sent after our SUGGEST) makes the engine play exactly that move and echo it.
> START 15
< OK
> INFO timeout_turn 300
> PLAY 7,7
< 7,7
> TURN 8,8
< {move}
# Occupied points are refused like any other move-bearing command.
> PLAY 8,8
< ERROR *
> PLAY 7,7
< ERROR *
> PLAY 0,0
< 0,0
