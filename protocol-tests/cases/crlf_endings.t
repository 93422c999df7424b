# Windows managers send CRLF.
>raw START 15\r\n
< OK
>raw INFO timeout_turn 300\r\nBEGIN\r\n
< {move}
>raw TURN 0,0\r\n
< {move}
>raw BOARD\r\n7,7,1\r\n8,8,2\r\nDONE\r\n
< {move}
>raw END\r\n
exit 500
