# END exits at once and prints nothing.
> START 15
< OK
> END
exit 500
