# Each side must be within 5..=32.
> RECTSTART 4,10
< ERROR *
> RECTSTART 10,33
< ERROR *
> RECTSTART 0,0
< ERROR *
> RECTSTART 20
< ERROR *
> RECTSTART 20,abc
< ERROR *
> RECTSTART 32,5
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
