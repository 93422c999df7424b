# The five-move two-offer rule (RIF 1996), here under gomoku (freestyle) rules: the opening rules
# do not depend on the game rule.
> INFO timeout_turn 300
> INFO rule 0
> START 15
< OK
> YXOPENINGMOVE RIF
> DONE
< {int},{int} {int},{int} {int},{int}
# Three stones: SWAP, or white's fourth move.
> YXOPENINGSWAP RIF
> 7,7
> 7,6
> 9,9
> DONE
< SWAP|{int},{int}
# Four stones: black offers two different fifth moves (no swap here).
> YXOPENINGMOVE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< {int},{int} {int},{int}
> YXOPENINGSWAP RIF
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< ERROR YXOPENINGSWAP RIF: the rule has no such decision with 4 stones
# White chooses the offer worse for black (the corner) and plays the sixth.
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> 0,14
> 6,8
> DONE
< 0,14 {int},{int}
# Offers that a symmetry maps onto each other are refused: all four stones lie on column 7,
# so 6,8 and 8,8 are mirror images; so are a point and itself.
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 7,9
> 7,5
> 6,8
> 8,8
> DONE
< ERROR offered fifth moves 6,8 and 8,8 are symmetric
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> 6,8
> 6,8
> DONE
< ERROR offered fifth moves 6,8 and 6,8 are symmetric
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> 6,8
> DONE
< ERROR RIF takes 2 offered fifth moves, not 1
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> 7,6
> 6,8
> DONE
< ERROR opening stone 7,6 is off the board or on a stone
# The chosen fifth and the sixth are on the board: the game goes on with TURN.
> YXOPENINGCHOOSE RIF
> 7,7
> 7,6
> 9,9
> 8,8
> 0,14
> 6,8
> DONE
< 0,14 {int},{int}
> TURN 10,10
< {int},{int}
