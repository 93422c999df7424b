# START n answers exactly OK (Piskvork compares the whole line) for every size in 5..=32.
> START 15
< OK
> START 20
< OK
> START 5
< OK
> START 32
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
