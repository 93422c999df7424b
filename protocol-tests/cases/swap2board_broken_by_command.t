# A SWAP2BOARD body cut off by a command: one ERROR, then the command.
> INFO timeout_turn 300
> START 15
< OK
> SWAP2BOARD
> 7,7,1
> RESTART
< ERROR *
< OK
> START 15
< OK
> BEGIN
< {move}
> SWAP2BOARD
> 7,7
> 8,7
> about
< ERROR *
< name="gorin", version="*", author="*"*
