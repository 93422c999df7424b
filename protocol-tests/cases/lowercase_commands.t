# Commands are case-insensitive.
> start 15
< OK
> info timeout_turn 300
silence 200
> begin
< {move}
> turn 0,0
< {move}
> Turn 14,14
< {move}
> takeback 14,14
< OK
> about
< name="gorin", version="*", author="*"*
> restart
< OK
> rectstart 10,8
< OK
> end
exit 500
