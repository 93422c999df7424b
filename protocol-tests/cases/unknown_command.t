# Unknown commands get UNKNOWN, and the engine keeps serving.
> FOO
< UNKNOWN *
> HELLO 1 2
< UNKNOWN *
> START 15
< OK
> YXNOSUCHTHING 3
< UNKNOWN *
> INFO timeout_turn 300
> BEGIN
< {move}
