# Commands read with END are answered, but no search starts after END was read: BEGIN prints
# nothing, and the engine exits fast. (One write, so the engine reads all of it at once.)
>raw START 15\nINFO timeout_turn 3000\nBEGIN\nRESTART\nTURN 7,7\nYXSHOWFORBID\nFOO\nEND\n
< OK
< OK
< FORBID .
< UNKNOWN *
exit 500
