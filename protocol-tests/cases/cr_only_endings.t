# CR alone ends a line too; the engine must not wait for an LF that never comes.
>raw START 15\rINFO timeout_turn 300\rBEGIN\r
< OK
< {move}
>raw TURN 0,0\r
< {move}
