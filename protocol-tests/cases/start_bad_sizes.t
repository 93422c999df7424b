# Unsupported or malformed sizes get ERROR, and the engine keeps serving.
> START 4
< ERROR *
> START 33
< ERROR *
> START 0
< ERROR *
> START -1
< ERROR *
> START abc
< ERROR *
> START
< ERROR *
> START 15
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
