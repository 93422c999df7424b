//! Game rules: which runs of stones win, per rule and colour.
//!
//! The rule comes from `INFO rule`, a bit mask read by `crate::protocol::info`.

use super::Color;

/// The rule a game is played under.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; an overline neither wins nor counts as a five.
    Standard,
    /// Black wins with exactly five, white with five or more. Forbidden points come later.
    Renju,
    /// Caro (rule 8): an overline wins; an exact five blocked at both ends by opponent stones
    /// does not.
    CaroOverline,
    /// Caro (rule 9): exactly five, and not blocked at both ends by opponent stones.
    CaroExact,
}

/// How a run of stones through a point is judged a win for one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FiveRule {
    /// Runs of 5 or more win.
    Long,
    /// Only runs of exactly 5 win.
    Exact,
    /// Runs of 6+ win; a run of exactly 5 wins unless both ends are opponent stones.
    CaroLong,
    /// A run of exactly 5 wins unless both ends are opponent stones.
    CaroExact,
}

/// What sits beyond each end of a run, as far as the five rules care.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// An empty point or the board edge.
    Open,
    /// An opponent stone.
    Opponent,
}

impl FiveRule {
    /// Whether a maximal run of `len` own stones, with `ends` beyond it, is a winning five.
    pub fn is_five(self, len: usize, ends: (End, End)) -> bool {
        let blocked_both = ends.0 == End::Opponent && ends.1 == End::Opponent;
        match self {
            FiveRule::Long => len >= 5,
            FiveRule::Exact => len == 5,
            FiveRule::CaroLong => len >= 6 || (len == 5 && !blocked_both),
            FiveRule::CaroExact => len == 5 && !blocked_both,
        }
    }

    /// Whether runs longer than five win under this rule (needed to recognise overlines).
    pub fn overline_wins(self) -> bool {
        matches!(self, FiveRule::Long | FiveRule::CaroLong)
    }
}

impl Rule {
    /// Every rule, in the order of their `INFO rule` values.
    pub const ALL: [Rule; 5] =
        [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::CaroOverline, Rule::CaroExact];

    /// The rule whose canonical `INFO rule` value is `v` (records name rules by it).
    pub fn from_info_value(v: u64) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| u64::from(r.info_value()) == v)
    }

    /// The canonical `INFO rule` value of this rule.
    pub fn info_value(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::CaroOverline => 8,
            Rule::CaroExact => 9,
        }
    }

    /// The five rule that applies to `color`'s stones.
    pub fn five_rule(self, color: Color) -> FiveRule {
        match self {
            Rule::Freestyle => FiveRule::Long,
            Rule::Standard => FiveRule::Exact,
            Rule::Renju => match color {
                Color::Black => FiveRule::Exact,
                Color::White => FiveRule::Long,
            },
            Rule::CaroOverline => FiveRule::CaroLong,
            Rule::CaroExact => FiveRule::CaroExact,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::CaroOverline => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_rules_judge_runs() {
        use End::*;
        assert!(FiveRule::Long.is_five(6, (Open, Open)));
        assert!(!FiveRule::Exact.is_five(6, (Open, Open)));
        assert!(FiveRule::Exact.is_five(5, (Opponent, Opponent)));
        assert!(!FiveRule::CaroLong.is_five(5, (Opponent, Opponent)));
        assert!(FiveRule::CaroLong.is_five(5, (Opponent, Open)));
        assert!(FiveRule::CaroLong.is_five(6, (Opponent, Opponent)));
        assert!(!FiveRule::CaroExact.is_five(6, (Open, Open)));
        assert!(!FiveRule::CaroExact.is_five(5, (Opponent, Opponent)));
        assert!(FiveRule::CaroExact.is_five(5, (Open, Opponent)));
        assert!(!FiveRule::Long.is_five(4, (Open, Open)));
    }

    #[test]
    fn renju_colours_differ() {
        assert_eq!(Rule::Renju.five_rule(Color::Black), FiveRule::Exact);
        assert_eq!(Rule::Renju.five_rule(Color::White), FiveRule::Long);
    }
}
