# ABOUT then END: the ABOUT line comes, then the engine exits.
> ABOUT
> END
< name="gorin", version="*", author="*"*
exit 500
