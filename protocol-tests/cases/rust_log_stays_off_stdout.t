# With RUST_LOG set, logging goes to stderr only (allowed here); stdout keeps the protocol.
env RUST_LOG=trace
> ABOUT
< name="gorin", version="*", author="*"*
> START 15
< OK
> INFO timeout_turn 300
> BEGIN
< {move}
