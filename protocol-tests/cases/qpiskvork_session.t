# qpiskvork (the Qt port of Piskvork for Linux) in the order its log shows: CRLF endings, ABOUT
# sent right after START without waiting for OK, the INFO block, then time_left before every
# move. Its reply parser looks only at first characters (a line starting with O or K counts as
# OK, one starting with S, W, A or P as SWAP), so each reply must be exactly the expected line.
>raw START 15\r\n
>raw ABOUT\r\n
>raw INFO timeout_match 180000\r\nINFO timeout_turn 1000\r\nINFO max_memory 268435456\r\n
>raw INFO game_type 0\r\nINFO rule 4\r\nINFO time_left 180000\r\nBEGIN\r\n
< OK
< name="gorin", version="*", author="*", country="*"
< {move}
>raw INFO time_left 179838\r\nTURN 8,7\r\n
< {move}
>raw INFO time_left 178954\r\nTURN 6,8\r\n
< {move}
# Pause, Take back and Continue: qpiskvork kills the brain and starts a new one, which gets the
# same START / ABOUT / INFO block and then the remaining stones in move order from its own side
# (here white: three black stones, two white).
>raw START 15\r\n
>raw ABOUT\r\n
>raw INFO timeout_match 180000\r\nINFO timeout_turn 1000\r\nINFO max_memory 268435456\r\n
>raw INFO game_type 0\r\nINFO rule 0\r\nINFO time_left 176476\r\n
>raw BOARD\r\n7,7,2\r\n6,7,1\r\n8,6,2\r\n6,8,1\r\n3,12,2\r\nDONE\r\n
< OK
< name="gorin", *
< {move}
# Swap2 (Setting -> Swap2board): the opener gets an empty SWAP2BOARD and must answer three
# points on one line, single spaces, which is the only shape qpiskvork reads as three stones.
>raw START 15\r\nSWAP2BOARD\r\nDONE\r\n
< OK
< {int},{int} {int},{int} {int},{int} @3000
>raw END\r\n
exit 500
