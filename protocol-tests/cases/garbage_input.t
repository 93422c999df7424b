# Garbage lines get UNKNOWN (never a crash, never silence that stalls the manager).
>raw ,,,;;;\n
< UNKNOWN *
>raw 12345\n
< UNKNOWN *
>raw 7,7,1\n
< UNKNOWN *
>raw \t\\x00 \\\\ ~~~\n
< UNKNOWN *
> START 15
< OK
