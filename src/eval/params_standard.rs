/// Standard (exact five) weights: the freestyle set. A refit of the linear weights alone to
/// Rapfi's judgement under rule 1 (`scripts/teacher.py --rule 1 --nodes 20000 --scale 450` on
/// 21,953 positions of 15x15 standard games, 16,243 quiet; `pbrain-gorin tune` 1500 iterations,
/// scale 650) lowered the held-out log loss from 0.5537 to 0.5330 but lost in self-play under
/// rule 1 at 100 ms a move, 122-174-4 over 300 games (-61 +/- 28 Elo over 150 pairs): the net
/// of `net.rs` is a correction fitted on top of the freestyle set. With 70,982 positions and a
/// net per set, freestyle's net refined on them (held-out log loss 0.5694 -> 0.5584, the best
/// of three fits in README's *Fitting the evaluation*) scored -8 +/- 22 Elo over 150 pairs at
/// 100 ms and -4 +/- 16 at 300 ms: a closer fit to Rapfi's standard judgement has not yet
/// turned into wins.
pub const STANDARD: Weights = FREESTYLE;
