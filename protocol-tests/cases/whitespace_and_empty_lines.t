# Leading/trailing spaces and empty lines are ignored.
>raw    START 15   \n
< OK
>raw \n\n   \n
silence 300
>
silence 200
>raw   INFO timeout_turn 300  \n
>raw   BEGIN  \n
< {move}
>raw  TURN 0,0 \n
< {move}
