# RECTSTART w,h: w is the x extent. On 20x10 every move must satisfy x < 20 and y < 10
# ({move} checks the bounds).
> RECTSTART 20,10
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
> TURN 19,9
< {move}
> TURN 0,0
< {move}
> TURN 19,0
< {move}
# y = 10 is off this board even though x = 10 is fine.
> TURN 10,10
< ERROR *
> TURN 0,9
< {move}
