# Found by scripts/fuzz.py (seed 5, session 12), after the fix for fuzz_huge_max_memory.t:
# INFO max_memory 18446744073709551615 (u64::MAX) makes the table size overflow
# `Layout::array` (size over isize::MAX), which panics ("table size fits in memory"); the panic
# is caught and the move made without a search, so only RUST_LOG shows it. A real search prints
# a MESSAGE (a note or an iteration) before its move; the no-search fallback prints the move alone.
> INFO timeout_turn 50
> START 32
< OK
> INFO max_memory 18446744073709551615
> TURN 30,6
< MESSAGE *
< {move}
> INFO max_memory 0
> INFO hash_size 18446744073709551615
> TURN 20,20
< MESSAGE *
< {move}
