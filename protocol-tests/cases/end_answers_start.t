# A piped script: commands read before END that need no search are answered, then exit.
>raw START 15\nEND\n
< OK
exit 500
