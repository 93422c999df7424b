# More commands that end an unfinished body: INFO (which itself answers nothing), an argument
# error, PLAY, TAKEBACK. Words that are not commands stay (malformed) stone lines.
> INFO timeout_turn 300
> START 15
< OK
> BOARD
> 7,7,1
> INFO timeout_turn 200
< ERROR *
silence 300
> BOARD
> 7,7,1
> Turn x,y
< ERROR *
< ERROR *
> BOARD
> 7,7,1
> FOO
> STARTX 15
> DONE
< ERROR *
> BOARD
> 7,7,1
> PLAY 5,5
< ERROR *
< 5,5
> BOARD
> takeback 5,5
< ERROR *
< OK
> TURN 5,5
< {move}
