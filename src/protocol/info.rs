//! `INFO key value` lines into typed settings, the rule bit mask included.
//!
//! Keys arrive in lower case (the parser folds them). A key Gorin does not use is ignored
//! silently; a value it cannot read becomes a note for the user, sent before the next move.

use super::{parse_int, printable};
use crate::engine::command::{Info, NetSetting, Setting};
use crate::types::Rule;

/// Reads the setting of one `INFO` line (`key` in lower case, `value` trimmed).
pub fn read(key: &str, value: &str) -> Info {
    let number = || parse_int(value);
    let setting = match key {
        "timeout_turn" => match number() {
            Ok(v) if v >= 0 => Ok(Setting::TurnMs(v)),
            _ => Err("needs a number >= 0"),
        },
        "timeout_match" => match number() {
            Ok(v) if v >= 0 => Ok(Setting::MatchMs(v)),
            _ => Err("needs a number >= 0"),
        },
        "time_left" => number().map(Setting::TimeLeftMs).map_err(|_| "needs a number"),
        "max_memory" => value.parse::<u64>().map(Setting::MaxMemory).map_err(|_| "needs a number of bytes"),
        "hash_size" => value
            .parse::<u64>()
            .map(|v| Setting::HashKib((v > 0).then_some(v)))
            .map_err(|_| "needs a size in KiB"),
        "rule" => number().ok().and_then(rule_from_info).map(Setting::Rule).ok_or("not a rule value"),
        "max_depth" => number().map(Setting::MaxDepth).map_err(|_| "needs a number"),
        "max_node" => value.parse::<i64>().map(Setting::MaxNodes).map_err(|_| "needs a number"),
        "game_type" => number().map(Setting::GameType).map_err(|_| "needs a number"),
        "thread_num" => match number() {
            Ok(v) if v >= 1 => Ok(Setting::Threads(v)),
            _ => Err("needs a number from 1"),
        },
        "caution_factor" => number().map(Setting::CautionFactor).map_err(|_| "needs a number"),
        "pondering" => number().map(|v| Setting::Pondering(v != 0)).map_err(|_| "needs 0 or 1"),
        "strength" => number().map(Setting::Strength).map_err(|_| "needs 0 to 100"),
        "folder" => Ok(Setting::Folder(value.to_string())),
        "net" => match number() {
            Ok(0) => Ok(Setting::Net(NetSetting::Classic)),
            Ok(1) => Ok(Setting::Net(NetSetting::BuiltIn)),
            _ => Err("needs 0 (classic evaluation) or 1 (built-in nets)"),
        },
        "net_file" if !value.is_empty() => Ok(Setting::Net(NetSetting::File(value.to_string()))),
        "net_file" => Err("needs the path of a GNN1 file"),
        // `evaluate` is a debugging aid of Piskvork's; unknown keys are ignored silently.
        _ => return Info::Ignored,
    };
    match setting {
        Ok(s) => Info::Set(s),
        Err(needs) => Info::Unusable(format!("INFO {key} {}: {needs}, ignored", printable(value))),
    }
}

/// The rule an `INFO rule` bit mask names (see PROTOCOL.md): 1 = exact five, 4 = renju,
/// 8 = caro; bit 2 (Piskvork's "continuous game") is ignored except for the lone value 2,
/// which Yixin-Board sends for renju. `None` for a negative value.
pub fn rule_from_info(value: i64) -> Option<Rule> {
    if value < 0 {
        return None;
    }
    if value == 2 {
        return Some(Rule::Renju);
    }
    let v = value & !2;
    Some(if v & 4 != 0 {
        Rule::Renju
    } else if v & 8 != 0 {
        if v & 1 != 0 {
            Rule::CaroExact
        } else {
            Rule::CaroOverline
        }
    } else if v & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_values_decode_as_protocol_says() {
        let cases = [
            (0, Rule::Freestyle),
            (1, Rule::Standard),
            (2, Rule::Renju),
            (3, Rule::Standard),
            (4, Rule::Renju),
            (6, Rule::Renju),
            (8, Rule::CaroOverline),
            (9, Rule::CaroExact),
            (10, Rule::CaroOverline),
            (11, Rule::CaroExact),
        ];
        for (v, r) in cases {
            assert_eq!(rule_from_info(v), Some(r), "rule value {v}");
        }
        assert_eq!(rule_from_info(-1), None);
    }

    #[test]
    fn values_read_into_settings() {
        assert_eq!(read("timeout_turn", "500"), Info::Set(Setting::TurnMs(500)));
        assert_eq!(read("hash_size", "0"), Info::Set(Setting::HashKib(None)));
        assert_eq!(read("rule", "9"), Info::Set(Setting::Rule(Rule::CaroExact)));
        assert_eq!(read("pondering", "1"), Info::Set(Setting::Pondering(true)));
        assert_eq!(read("max_node", "-1"), Info::Set(Setting::MaxNodes(-1)));
        assert_eq!(read("evaluate", "3,3"), Info::Ignored);
        assert_eq!(read("foo", "bar"), Info::Ignored);
    }

    #[test]
    fn unusable_values_become_notes() {
        let note = |key, value| match read(key, value) {
            Info::Unusable(text) => text,
            other => panic!("{key} {value}: {other:?}"),
        };
        assert_eq!(note("timeout_turn", "-5"), "INFO timeout_turn -5: needs a number >= 0, ignored");
        assert_eq!(note("max_depth", "x"), "INFO max_depth x: needs a number, ignored");
        assert_eq!(note("rule", "-1"), "INFO rule -1: not a rule value, ignored");
        assert_eq!(note("thread_num", "0"), "INFO thread_num 0: needs a number from 1, ignored");
        assert_eq!(note("max_memory", "lots"), "INFO max_memory lots: needs a number of bytes, ignored");
    }
}
