# Found by scripts/fuzz.py (seed 2, session 0): an INFO max_memory beyond what the machine can
# allocate made the first search abort the process ("memory allocation of ... bytes failed",
# exit by SIGABRT). A manager's silly value must not cost the game: the hash table should be
# capped (or fall back to a size that can be allocated) and the move made. (The opponent's moves
# are far from each other and from the first, so that no reply of ours can have taken them.)
> INFO timeout_turn 50
> INFO max_memory 1000000000000000
> START 15
< OK
> TURN 4,3
< {move} @2050
> INFO max_memory 18446744073709551615
> TURN 14,14
< {move} @2050
> INFO max_memory 0
> INFO hash_size 18446744073709551615
> TURN 0,14
< {move} @2050
