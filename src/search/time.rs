//! Time management: from the protocol's limits to a soft and a hard budget for one move.
//!
//! Pure functions of the limits, so they are tested without a clock. The search measures
//! both budgets from the arrival of the command that asked for the move.

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
/// The search overruns its hard limit by a few tens of ms at most (slowest replies at 1 s
/// turns: 926 ms against a limit of 900), so a tenth leaves room and gives the search the rest.
fn turn_reserve(turn_ms: i64) -> i64 {
    (turn_ms / 10).clamp(40, 1_000)
}

/// Moves a game is assumed to still need from us, given how many stones are on the board.
fn moves_to_go(stones: usize) -> i64 {
    (40 - stones as i64 / 3).max(12)
}

/// The budget for one move. `used_ms` is our own thinking time so far this game, used when
/// a match limit is set but the manager sends no `time_left`.
pub fn budget(limits: &TimeControl, stones: usize, used_ms: i64) -> Budget {
    if limits.turn_ms == 0 {
        return FAST;
    }
    let mut hard = i64::MAX;
    let mut soft = i64::MAX;
    if limits.turn_ms > 0 {
        hard = limits.turn_ms - turn_reserve(limits.turn_ms);
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
        let reserve = (left / 20).clamp(20, 1_000);
        let usable = (left - reserve).max(0);
        let share = usable / moves_to_go(stones);
        hard = hard.min((share * 4).min(usable / 3));
        soft = soft.min(share);
    }
    if hard == i64::MAX {
        // A negative turn time and no match limit: fall back to the default turn time.
        return budget(&TimeControl::default(), stones, used_ms);
    }
    let hard = hard.max(FAST.hard.as_millis() as i64 / 2);
    let soft = soft.min(hard).max(1);
    Budget { soft: Duration::from_millis(soft as u64), hard: Duration::from_millis(hard as u64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    #[test]
    fn turn_limit_leaves_a_margin() {
        let b = budget(&TimeControl { turn_ms: 200, match_ms: 0, time_left_ms: None }, 10, 0);
        assert!(ms(b.hard) <= 160 && ms(b.hard) >= 100, "{b:?}");
        assert_eq!(b.soft, b.hard, "a turn limit alone is used in full");
        let b = budget(&TimeControl { turn_ms: 30_000, match_ms: 0, time_left_ms: None }, 10, 0);
        assert_eq!(ms(b.hard), 29_000);
    }

    #[test]
    fn zero_turn_time_is_fast() {
        let b = budget(&TimeControl { turn_ms: 0, match_ms: 0, time_left_ms: None }, 10, 0);
        assert_eq!(b, FAST);
        assert!(ms(FAST.hard) <= 25);
    }

    #[test]
    fn match_time_is_spread_over_the_game() {
        let limits = TimeControl { turn_ms: 30_000, match_ms: 180_000, time_left_ms: Some(180_000) };
        let b = budget(&limits, 0, 0);
        assert!(ms(b.soft) < 6_000 && ms(b.soft) > 2_000, "{b:?}");
        assert!(ms(b.hard) <= 180_000 / 3);
        let late = budget(&TimeControl { time_left_ms: Some(3_000), ..limits }, 100, 0);
        assert!(ms(late.hard) <= 1_000, "{late:?}");
    }

    #[test]
    fn negative_or_unlimited_time_left() {
        let limits = TimeControl { turn_ms: 1_000, match_ms: 100_000, time_left_ms: Some(-50) };
        assert_eq!(budget(&limits, 30, 0), FAST);
        let unlimited = TimeControl { time_left_ms: Some(UNLIMITED), ..limits };
        assert_eq!(ms(budget(&unlimited, 30, 0).hard), 1_000 - 100);
    }

    #[test]
    fn match_limit_without_time_left_counts_own_use() {
        let limits = TimeControl { turn_ms: 5_000, match_ms: 10_000, time_left_ms: None };
        let fresh = budget(&limits, 0, 0);
        let late = budget(&limits, 0, 9_000);
        assert!(late.hard < fresh.hard);
        assert!(ms(late.hard) <= 1_000 / 3);
    }
}
