# ABOUT must work before START: c-gomoku-cli sends it first and takes the first line as the
# answer, so nothing (no banner) may come before it.
> ABOUT
< name="gorin", version="*", author="*"*
> START 15
< OK
> ABOUT
< name="gorin", version="*", author="*"*
