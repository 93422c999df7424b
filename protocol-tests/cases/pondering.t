# INFO pondering 1: the engine thinks on our time after its move, and any command interrupts
# it at once; END while pondering exits at once.
> INFO pondering 1
> INFO timeout_turn 300
> START 15
< OK
> BEGIN
< {move}
sleep 300
> TURN 8,9
< {move} @1000
sleep 300
> ABOUT
< name="gorin"* @300
> TURN 9,10
< {move} @1000
sleep 300
> END
exit 500
