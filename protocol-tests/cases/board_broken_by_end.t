# END inside a body: the body gets its ERROR, and the engine exits at once.
> START 15
< OK
> BOARD
> 7,7,1
> END
< ERROR *
exit 500
