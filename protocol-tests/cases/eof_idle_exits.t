# EOF while idle: exit promptly with status 0.
> START 15
< OK
close
exit 1000
