# INFO never gets a reply: the manager does not read while sending INFO. Upper-case keys
# (pygomo), unknown keys and bad values are accepted silently.
> INFO timeout_turn 5000
> INFO timeout_match 180000
> START 15
< OK
> INFO timeout_turn 1000
> INFO TIMEOUT_TURN 500
> INFO time_left 170000
> INFO time_left -5
> INFO time_left 2147483647
> INFO max_memory 367001600
> INFO max_memory 1
> INFO game_type 1
> INFO rule 0
> INFO evaluate 7,7
> INFO folder /tmp/gorin-protocol-tests
> INFO thread_num 1
> INFO max_depth 100
> INFO max_node 1000000000
> INFO hash_size 65536
> INFO caution_factor 2
> INFO pondering 0
> INFO strength 100
> INFO foo 1
> INFO timeout_turn abc
> INFO rule
> INFO
silence 300
> INFO timeout_turn 300
> BEGIN
< {move}
