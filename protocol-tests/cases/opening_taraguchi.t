# Taraguchi-10 through YXOPENINGSWAP / YXOPENINGMOVE / YXOPENINGCHOOSE (README "Opening rules"):
# points only, colours alternating from black; the reply is SWAP or what the side to move does.
> INFO timeout_turn 300
> INFO rule 4
> START 15
< OK
# The first stone: the centre, and no swap before it.
> YXOPENINGMOVE TARAGUCHI10
> DONE
< 7,7
> YXOPENINGSWAP TARAGUCHI10
> DONE
< ERROR YXOPENINGSWAP TARAGUCHI10: the rule has no such decision with 0 stones
# Stones 2 to 4: SWAP, or the next stone inside the 3x3, 5x5, 7x7 square (checked by the
# protocol-tests harness only as a point; the zone is checked in the engine's unit tests).
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> DONE
< SWAP|6,6|6,7|6,8|7,6|7,8|8,6|8,7|8,8
> YXOPENINGMOVE TARAGUCHI10
> 7,7
> 8,6
> DONE
< {int},{int}
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 8,6
> 9,8
> DONE
< SWAP|{int},{int}
# Four stones, black's choice: SWAP, one fifth inside 9x9, or ten fifth moves.
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> DONE
< SWAP|{int},{int}|{int},{int} {int},{int} {int},{int} {int},{int} {int},{int} {int},{int} {int},{int} {int},{int} {int},{int} {int},{int}
# After black's swap the new black places the single fifth.
> YXOPENINGMOVE TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> DONE
< {int},{int}
# Five stones (a single fifth): white may swap or plays the sixth.
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> 8,8
> DONE
< SWAP|{int},{int}
# White chooses one of the ten offers and plays the sixth: the corner offer is the worst
# for black, so white takes it. A node limit and a long turn make every offer's search finish
# (the corner is the last offer: at 300 ms on a loaded machine the shared deadline could end the
# command before it is judged).
> INFO timeout_turn 20000
> INFO max_node 3000
> YXOPENINGCHOOSE TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> 8,8
> 7,8
> 9,7
> 8,7
> 6,7
> 9,9
> 10,8
> 7,9
> 6,5
> 0,0
> DONE
< 0,0 {int},{int}
> INFO max_node 0
> INFO timeout_turn 300
# Refusals: a stone outside its square, a wrong number of offers, symmetric offers, a count.
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 9,6
> DONE
< ERROR opening stone 2 at 9,6 is outside the central 3x3 square
> YXOPENINGSWAP TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 11,6
> DONE
< ERROR opening stone 4 at 11,6 is outside the central 7x7 square
> YXOPENINGCHOOSE TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> 8,8
> 0,0
> DONE
< ERROR TARAGUCHI10 takes 10 offered fifth moves, not 2
> YXOPENINGSWAP TARAGUCHI10 3
> 7,7
> DONE
< ERROR TARAGUCHI10 with 1 stones: declared count 3 is not allowed
> YXOPENINGMOVE TARAGUCHI10
> 7,7
> 8,6
> 9,8
> 5,6
> 8,8
> 6,6
> DONE
< ERROR YXOPENINGMOVE TARAGUCHI10: the rule has no such decision with 6 stones
# The engine keeps serving, and a TURN goes on from the position the last decision left.
> ABOUT
< name="gorin"*
