# END before anything else still exits cleanly.
> END
exit 500
