# EOF: commands already received are finished (the pending search prints its move), then exit.
> START 15
> INFO timeout_turn 500
> BEGIN
close
< OK
< {move}
exit 3000
