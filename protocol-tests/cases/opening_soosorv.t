# Soosõrv-8: a canonical opening, swap, white's fourth with the number of fifth moves, swap,
# black's offers, white's choice.
> INFO timeout_turn 300
> INFO rule 4
> START 15
< OK
# The opener places one of the 26 canonical openings: three stones.
> YXOPENINGMOVE SOOSORV8
> DONE
< {int},{int} {int},{int} {int},{int}
# Three stones: SWAP, or the fourth move and the number of fifth moves (1 to 8).
> YXOPENINGSWAP SOOSORV8
> 7,7
> 7,6
> 9,9
> DONE
< SWAP|{int},{int} {int}
> YXOPENINGMOVE soosorv-8
> 7,7
> 7,6
> 9,9
> DONE
< {int},{int} {int}
# Four stones and the declared count: SWAP, or that many offers.
> YXOPENINGSWAP SOOSORV8 3
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< SWAP|{int},{int} {int},{int} {int},{int}
> YXOPENINGMOVE SOOSORV8 3
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< {int},{int} {int},{int} {int},{int}
# White's choice among three offers, then the sixth move: the far corner is the worst for
# black.
> YXOPENINGCHOOSE SOOSORV8
> 7,7
> 7,6
> 9,9
> 8,8
> 6,8
> 14,14
> 8,10
> DONE
< 14,14 {int},{int}
# Refusals: no count, a count over 8, nine offers, a third stone outside the 5x5 square,
# a second stone not touching the first, a decision the rule does not have.
> YXOPENINGSWAP SOOSORV8
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< ERROR SOOSORV8 with 4 stones needs the declared number of fifth moves
> YXOPENINGSWAP SOOSORV8 9
> 7,7
> 7,6
> 9,9
> 8,8
> DONE
< ERROR SOOSORV8 with 4 stones: declared count 9 is not allowed
> YXOPENINGCHOOSE SOOSORV8
> 7,7
> 7,6
> 9,9
> 8,8
> 0,0
> 0,1
> 0,2
> 0,3
> 0,4
> 0,5
> 0,6
> 14,0
> 14,1
> DONE
< ERROR SOOSORV8 takes 1 to 8 offered fifth moves, not 9
> YXOPENINGMOVE SOOSORV8
> 7,7
> 7,6
> 10,10
> DONE
< ERROR opening stone 3 at 10,10 is outside the central 5x5 square
> YXOPENINGMOVE SOOSORV8
> 7,7
> 9,6
> 8,8
> DONE
< ERROR opening stone 2 at 9,6 is outside the central 3x3 square
> YXOPENINGSWAP SOOSORV8
> 7,7
> 7,6
> DONE
< ERROR YXOPENINGSWAP SOOSORV8: the rule has no such decision with 2 stones
> ABOUT
< name="gorin"*
