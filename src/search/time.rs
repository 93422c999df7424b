//! Time management: from the protocol's limits to a soft and a hard budget for one move.
//!
//! Pure functions of the limits and of what the engine measured, so they are tested with a
//! fake clock. The search measures both budgets from the arrival of the command that asked for
//! the move.

use std::time::Duration;

/// `INFO time_left` value that means "no limit".
pub const UNLIMITED: i64 = 2_147_483_647;

/// The limits the manager gave, as the protocol states them (milliseconds).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Per move; 0 = answer as fast as possible.
    pub turn_ms: i64,
    /// Per game; 0 = no limit.
    pub match_ms: i64,
    /// Remaining game time if the manager sent it (may be negative; `UNLIMITED` = none).
    pub time_left_ms: Option<i64>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl { turn_ms: DEFAULT_TURN_MS, match_ms: 0, time_left_ms: None }
    }
}

/// Piskvork's default turn time, used until the manager says otherwise.
pub const DEFAULT_TURN_MS: i64 = 5_000;

/// How long to think, from the moment the command arrived.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, start no new iteration.
    pub soft: Duration,
    /// Past this, stop at once and answer.
    pub hard: Duration,
}

/// Budget for a `timeout_turn 0` request: a shallow search answered in a few ms.
pub const FAST: Budget = Budget { soft: Duration::from_millis(5), hard: Duration::from_millis(20) };

/// Time kept back from a turn limit for process and pipe latency and the stop-check interval.
/// The search overruns its hard limit by a few tens of ms at most on an idle machine (slowest
/// replies at 1 s turns: 926 ms against a limit of 900), so a twentieth leaves room and gives
/// the search the rest. A tenth always left Rapfi, which answers up to 990 ms into a 1000 ms
/// turn, about 7% more thinking time on the moves both sides think over (median 932-970 ms
/// against Gorin's 872 in run Q). Once replies have been late (`late_ms`, the lateness
/// margin: the machine is busy), the part of the delay Gorin cannot see (before it reads the
/// command, after it flushes) grows with it, so as much again is kept back, up to another
/// twentieth: a tenth under real load, as before, but little more than a twentieth where a
/// second busy core makes replies 10-20 ms late.
fn turn_reserve(turn_ms: i64, late_ms: i64) -> i64 {
    (turn_ms / 20).clamp(40, 1_000) + late_ms.clamp(0, turn_ms / 20)
}

/// Moves a game is assumed to still need from us, given how many stones are on the board.
/// Most games end within 40 moves a side, but a blocked game can go on to fill the board, so
/// the plan never counts on fewer than 20 more: a long game then slows down gradually instead
/// of running into the floor of the clock.
fn moves_to_go(stones: usize) -> i64 {
    (40 - stones as i64 / 3).max(20)
}

/// Game time kept back per move still expected: every reply costs process and pipe time the
/// engine does not see, however short the search, so a long game must not drain the clock to
/// where that alone loses it.
const MOVE_FLOOR_MS: i64 = 30;

/// The soft limit, in percent of a move's share of the clock: the iteration running when it
/// passes finishes, and critical moves stretch it (`Stability`), so moves spend more than the
/// soft limit on average.
const SOFT_PERCENT: i64 = 60;
/// The hard limit, in shares of the clock: one move may take this many moves' worth.
const HARD_SHARES: i64 = 3;

/// The most of one turn an adaptive margin may take: under heavier load than that, a shorter
/// search would cost more games than the rare late reply.
const MAX_LATE_SHARE: i64 = 4;

/// The budget for one move. `used_ms` is our own thinking time so far this game, used when
/// a match limit is set but the manager sends no `time_left`. `late_ms` is how late replies
/// have landed after the search stopped (`Lateness::margin`); it is kept back on top of the
/// fixed reserves, bounded to a quarter of the turn (or of the time left).
pub fn budget(limits: &TimeControl, stones: usize, used_ms: i64, late_ms: i64) -> Budget {
    if limits.turn_ms == 0 {
        return FAST;
    }
    let late_ms = late_ms.max(0);
    let mut hard = i64::MAX;
    let mut soft = i64::MAX;
    if limits.turn_ms > 0 {
        let late = late_ms.min(limits.turn_ms / MAX_LATE_SHARE);
        hard = limits.turn_ms - turn_reserve(limits.turn_ms, late_ms) - late;
        // Time left over from a turn is lost, so with only a turn limit keep deepening until the
        // hard stop: an unfinished iteration still improves the move when it finds a better one.
        soft = hard;
    }
    let left = match limits.time_left_ms {
        Some(t) if t != UNLIMITED => Some(t),
        Some(_) => None,
        None if limits.match_ms > 0 => Some(limits.match_ms - used_ms),
        None => None,
    };
    if let Some(left) = left {
        if left <= 0 {
            return FAST;
        }
        let to_go = moves_to_go(stones);
        // Each reply lands `late` after the search stops, so the rest of the game needs that
        // much per move on top of its thinking, and this move's hard stop comes that much
        // earlier.
        let late = late_ms.min(left / MAX_LATE_SHARE);
        let floor = to_go * (MOVE_FLOOR_MS + late);
        let reserve = (left / 20).clamp(20, 1_000).max(floor).min(left - left / 8);
        let usable = (left - reserve).max(0);
        let share = usable / to_go;
        hard = hard.min((share * HARD_SHARES).min(usable / 3 - late).max(0));
        soft = soft.min(share * SOFT_PERCENT / 100);
    }
    if hard == i64::MAX {
        // A negative turn time and no match limit: fall back to the default turn time.
        return budget(&TimeControl::default(), stones, used_ms, late_ms);
    }
    let hard = hard.max(FAST.hard.as_millis() as i64 / 2);
    let soft = soft.min(hard).max(1);
    Budget { soft: Duration::from_millis(soft as u64), hard: Duration::from_millis(hard as u64) }
}

/// How late replies land: for each move, the time from reading the command's line to flushing
/// the reply, beyond the moment the search stopped (or was due to stop). On an idle machine
/// that is a few ms; with every core busy the stop checks, the thread joins and the write
/// stretch, and a manager measured 1186 and 1248 ms at a 1000 ms turn where the search stopped
/// at 900. Keeping the decaying maximum of recent moves reacts to the first late reply at once
/// and forgets it over a few moves once replies are prompt again.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Lateness {
    ms: i64,
}

/// Share of the standing lateness kept per move (13/16: halves in about three moves).
const LATE_KEEP: (i64, i64) = (13, 16);

/// Lateness below this is the stop-check interval that `turn_reserve` already allows for.
const LATE_NOISE_MS: i64 = 10;

impl Lateness {
    /// Records one reply: `stopped` is when the search stopped or was due to (whichever came
    /// first) and `flushed` when the reply left, both measured from the command's arrival.
    pub fn observe(&mut self, stopped: Duration, flushed: Duration) {
        let over = flushed.saturating_sub(stopped).as_millis().min(i64::MAX as u128) as i64;
        let over = if over < LATE_NOISE_MS { 0 } else { over };
        self.ms = over.max(self.ms * LATE_KEEP.0 / LATE_KEEP.1);
    }

    /// The extra margin for the next move, in ms (bounded by `budget`).
    pub fn margin(&self) -> i64 {
        self.ms
    }
}

/// How far past the soft limit the search may go on, in percent of it, from what the last
/// iterations said: a best move that keeps changing or a falling score means the position is
/// still being understood, so it gets more time; a move that has held for several iterations
/// gives time back for the moves that need it. The hard limit bounds it all the same.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stability {
    /// Decaying count of recent best-move changes, in percent.
    changes: u32,
    /// Iterations the best move has held.
    held: u32,
    /// The score fell notably in the last iteration.
    falling: bool,
}

/// Iterations below this depth end long before the soft limit and say little.
const STABLE_FROM_DEPTH: i32 = 5;
/// A score drop (eval units) between iterations that counts as the position turning worse.
const SCORE_DROP: i32 = 30;
/// Percent of the soft limit: after a change, per recent change, when falling, when settled.
const STRETCH_CHANGE: u32 = 100;
const STRETCH_FALLING: u32 = 60;
const STRETCH_SETTLED: u32 = 60;
const STRETCH_MAX: u32 = 250;
/// Iterations a best move must hold to count as settled.
const SETTLED_AFTER: u32 = 4;

impl Stability {
    /// Records a finished iteration: its depth, whether its best move differs from the last
    /// iteration's, and how far its score fell below the last one (negative: it rose).
    pub fn observe(&mut self, depth: i32, changed: bool, drop: i32) {
        if depth < STABLE_FROM_DEPTH {
            return;
        }
        self.changes = self.changes / 2 + if changed { STRETCH_CHANGE } else { 0 };
        self.held = if changed { 0 } else { self.held + 1 };
        self.falling = drop >= SCORE_DROP;
    }

    /// The soft limit to use now, in percent of the planned one.
    pub fn percent(&self) -> u32 {
        let mut p = 100 + self.changes;
        if self.falling {
            p += STRETCH_FALLING;
        }
        if self.held >= SETTLED_AFTER && !self.falling && self.changes < STRETCH_CHANGE / 4 {
            p = STRETCH_SETTLED;
        }
        p.min(STRETCH_MAX)
    }

    /// The soft limit stretched by `percent`, never past `hard`; when the two are equal (only a
    /// turn limit) the whole turn is used anyway, since what is left of it is lost.
    pub fn soft(&self, soft: Duration, hard: Duration) -> Duration {
        if soft >= hard {
            return soft;
        }
        (soft.saturating_mul(self.percent()) / 100).min(hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    #[test]
    fn turn_limit_leaves_a_margin() {
        let b = budget(&TimeControl { turn_ms: 200, match_ms: 0, time_left_ms: None }, 10, 0, 0);
        assert!(ms(b.hard) <= 160 && ms(b.hard) >= 100, "{b:?}");
        assert_eq!(b.soft, b.hard, "a turn limit alone is used in full");
        let b = budget(&TimeControl { turn_ms: 30_000, match_ms: 0, time_left_ms: None }, 10, 0, 0);
        assert_eq!(ms(b.hard), 29_000);
    }

    #[test]
    fn zero_turn_time_is_fast() {
        let b = budget(&TimeControl { turn_ms: 0, match_ms: 0, time_left_ms: None }, 10, 0, 0);
        assert_eq!(b, FAST);
        assert!(ms(FAST.hard) <= 25);
    }

    #[test]
    fn match_time_is_spread_over_the_game() {
        let limits = TimeControl { turn_ms: 30_000, match_ms: 180_000, time_left_ms: Some(180_000) };
        let b = budget(&limits, 0, 0, 0);
        assert!(ms(b.soft) < 6_000 && ms(b.soft) > 2_000, "{b:?}");
        assert!(ms(b.hard) <= 180_000 / 3);
        let late = budget(&TimeControl { time_left_ms: Some(3_000), ..limits }, 100, 0, 0);
        assert!(ms(late.hard) <= 1_000, "{late:?}");
    }

    #[test]
    fn negative_or_unlimited_time_left() {
        let limits = TimeControl { turn_ms: 1_000, match_ms: 100_000, time_left_ms: Some(-50) };
        assert_eq!(budget(&limits, 30, 0, 0), FAST);
        let unlimited = TimeControl { time_left_ms: Some(UNLIMITED), ..limits };
        assert_eq!(ms(budget(&unlimited, 30, 0, 0).hard), 1_000 - 50);
    }

    #[test]
    fn match_limit_without_time_left_counts_own_use() {
        let limits = TimeControl { turn_ms: 5_000, match_ms: 10_000, time_left_ms: None };
        let fresh = budget(&limits, 0, 0, 0);
        let late = budget(&limits, 0, 9_000, 0);
        assert!(late.hard < fresh.hard);
        assert!(ms(late.hard) <= 1_000 / 3);
    }

    /// A whole game on a fake clock: what the manager sees of each of our moves.
    struct Game {
        /// Slowest reply, as the manager measures it.
        slowest_ms: i64,
        /// Game time used by the end.
        used_ms: i64,
        /// The least time left after any move.
        min_left_ms: i64,
        /// Replies later than the turn limit or the clock left before them.
        over: usize,
    }

    /// How the search spends a budget and how late its reply lands, for one move.
    struct Machine {
        /// Pseudo-random state: which moves stop at the soft limit, which run on.
        seed: u64,
        /// Time the engine sees between the search's stop and the flush.
        visible_late_ms: i64,
        /// Pipe and scheduling time only the manager sees.
        hidden_late_ms: i64,
    }

    impl Machine {
        fn next(&mut self) -> u64 {
            crate::board::splitmix64(&mut self.seed)
        }

        /// Think time for a budget: an iteration that starts before the soft limit runs on
        /// past it (up to 2.5x, like a stretched soft limit or a long iteration), and a tenth
        /// of the moves run into the hard stop, overrunning it by a stop-check interval.
        fn think(&mut self, b: Budget) -> i64 {
            let (soft, hard) = (ms(b.soft), ms(b.hard));
            let r = self.next() % 100;
            if r < 10 {
                hard + 5
            } else {
                (soft * (50 + (r as i64) * 2) / 100).min(hard + 5)
            }
        }
    }

    /// Plays `moves` of our moves under `turn_ms`/`match_ms`, sending `time_left` before each,
    /// and feeds each reply's lateness back as the engine does.
    fn play(turn_ms: i64, match_ms: i64, moves: usize, machine: &mut Machine, black: bool) -> Game {
        let mut left = match_ms;
        let mut lateness = Lateness::default();
        let mut game = Game { slowest_ms: 0, used_ms: 0, min_left_ms: match_ms, over: 0 };
        for i in 0..moves {
            let stones = 2 * i + usize::from(!black);
            let limits = TimeControl { turn_ms, match_ms, time_left_ms: Some(left) };
            let b = budget(&limits, stones, match_ms - left, lateness.margin());
            let think = machine.think(b);
            let stopped = think.min(ms(b.hard));
            let flushed = think + machine.visible_late_ms;
            lateness.observe(Duration::from_millis(stopped as u64), Duration::from_millis(flushed as u64));
            let reply = flushed + machine.hidden_late_ms;
            if reply > turn_ms || reply > left {
                game.over += 1;
            }
            game.slowest_ms = game.slowest_ms.max(reply);
            left -= reply;
            game.min_left_ms = game.min_left_ms.min(left);
        }
        game.used_ms = match_ms - left;
        game
    }

    #[test]
    fn whole_games_on_a_fake_clock_stay_within_both_limits() {
        for (turn_ms, match_ms) in [(2_000, 20_000), (30_000, 180_000)] {
            for moves in [30, 60, 90, 120] {
                for seed in 0..20 {
                    let mut machine = Machine { seed, visible_late_ms: 3, hidden_late_ms: 5 };
                    let g = play(turn_ms, match_ms, moves, &mut machine, seed % 2 == 0);
                    let what = format!("{turn_ms}/{match_ms}, {moves} moves, seed {seed}");
                    assert_eq!(g.over, 0, "{what}: a reply past a limit");
                    assert!(g.min_left_ms > 0, "{what}: clock ran out ({})", g.min_left_ms);
                    assert!(g.slowest_ms <= turn_ms, "{what}");
                    // Games of 60 moves or more are where a clock is meant to be spent (they
                    // used 89-99% when this was written); a 30-move game ends with time to
                    // spare by design, as the plan reckons with 40 (59-76%).
                    let share = g.used_ms * 100 / match_ms;
                    let least = if moves >= 60 { 85 } else { 50 };
                    assert!(share >= least, "{what}: used only {share}% of the clock");
                    assert!(share <= 99, "{what}: used {share}%");
                }
            }
        }
    }

    #[test]
    fn late_replies_under_load_do_not_cost_the_game() {
        // Every core busy: each reply lands 250 ms after the search stops, 50 more unseen.
        // Only the first reply with the full limit can be late: the margin answers the rest.
        // 40 moves at 20 s a game: the replies' lateness alone takes 12 s of the clock.
        for (turn_ms, match_ms, moves) in [(2_000, 20_000, 40), (1_000, 0, 80), (30_000, 180_000, 80)] {
            let mut machine = Machine { seed: 7, visible_late_ms: 250, hidden_late_ms: 50 };
            let match_ms = if match_ms == 0 { 1_000_000_000 } else { match_ms };
            let g = play(turn_ms, match_ms, moves, &mut machine, true);
            assert!(g.over <= 1, "{turn_ms}/{match_ms}: {} late replies", g.over);
            assert!(g.min_left_ms > 0, "{turn_ms}/{match_ms}: {}", g.min_left_ms);
        }
    }

    #[test]
    fn lateness_grows_after_late_replies_and_shrinks_back() {
        let mut late = Lateness::default();
        let at = Duration::from_millis;
        late.observe(at(900), at(905));
        assert_eq!(late.margin(), 0, "a few ms is the stop-check interval");
        late.observe(at(900), at(1_250));
        assert_eq!(late.margin(), 350);
        late.observe(at(400), at(500));
        assert!(late.margin() < 350 && late.margin() > 100, "{late:?}");
        let mut margins = Vec::new();
        for _ in 0..16 {
            late.observe(at(900), at(902));
            margins.push(late.margin());
        }
        assert!(margins.windows(2).all(|w| w[1] <= w[0]), "{margins:?}");
        assert!(margins[15] < 20, "{margins:?}");
        late.observe(at(900), at(1_300));
        assert_eq!(late.margin(), 400, "a new late reply counts in full at once");

        // The margin comes off the next budgets, bounded to a quarter of the turn.
        let limits = TimeControl { turn_ms: 1_000, match_ms: 0, time_left_ms: None };
        assert_eq!(ms(budget(&limits, 20, 0, 0).hard), 950, "an idle machine keeps a twentieth");
        assert_eq!(ms(budget(&limits, 20, 0, 200).hard), 700, "a loaded one a tenth and the margin");
        assert_eq!(ms(budget(&limits, 20, 0, 5_000).hard), 650);
    }

    #[test]
    fn stability_stretches_the_soft_limit_at_critical_moves_only() {
        let (soft, hard) = (Duration::from_millis(400), Duration::from_millis(1_600));
        let mut s = Stability::default();
        assert_eq!(s.soft(soft, hard), soft);
        s.observe(3, true, 200);
        assert_eq!(s.soft(soft, hard), soft, "shallow iterations say little");
        s.observe(6, true, 0);
        assert!(s.soft(soft, hard) >= soft * 2, "{s:?}");
        s.observe(7, false, SCORE_DROP);
        assert!(s.soft(soft, hard) > soft, "a falling score keeps the time up: {s:?}");
        for depth in 8..14 {
            s.observe(depth, false, 0);
        }
        assert!(s.soft(soft, hard) < soft, "a settled move gives time back: {s:?}");
        let mut wild = Stability::default();
        for depth in 5..12 {
            wild.observe(depth, true, 100);
        }
        assert_eq!(wild.soft(soft, hard), soft * STRETCH_MAX / 100);
        assert_eq!(wild.soft(soft, Duration::from_millis(500)), Duration::from_millis(500));
        assert_eq!(wild.soft(hard, hard), hard, "a turn limit alone is used in full");
    }
}
