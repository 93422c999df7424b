# Yixin-Board commands: YXSHOWINFO, YXHASHCLEAR (silent), YXNBEST, YXBALANCEONE/TWO.
> INFO timeout_turn 600
> START 15
< OK
> YXSHOWINFO
< MESSAGE INFO MAX_THREAD_NUM {int}
< MESSAGE INFO MAX_HASH_SIZE {int}
> YXHASHCLEAR
silence 200
> YXBOARD
> 7,7,1
> 8,8,2
> 8,7,1
> DONE
silence 200
> YXNBEST 3
< MESSAGE nbest 1 * ev * depth * pv *
< MESSAGE nbest 2 *
< MESSAGE nbest 3 *
< {move} @3000
> YXBALANCEONE 0
< {move} @3000
> YXBALANCETWO 0
< {int},{int} {int},{int} @3000
> YXNBEST 0
< ERROR *
> YXBALANCEONE x
< ERROR *
