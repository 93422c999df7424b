# YXSHOWFORBID lists renju black's forbidden points as two-digit x then y, ending with '.'.
# Black (x) at (3,2),(3,3) and (5,5),(6,5): (3,5) makes two split threes (a double three).
> INFO rule 4
> START 15
< OK
> YXBOARD
> 3,2,1
> 3,3,1
> 5,5,1
> 6,5,1
> 10,10,2
> 11,12,2
> 12,10,2
> 13,13,2
> DONE
silence 200
> YXSHOWFORBID
< FORBID *0305*.
# The same stones under freestyle: nothing is forbidden.
> INFO rule 0
> YXSHOWFORBID
< FORBID .
