//! How much of the output a view shows: the four levels of `--level`.
//!
//! A type rather than a number, so the pipeline cannot be asked for level 7 and a stage
//! that treats the raw level specially says so by name. The numbers are the interface
//! (`--level 2`, `level = 1` in config.toml, `"level": 2` in the log) and are read and
//! written only here.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 0: counts and one line, the failure or the last line.
    Counts,
    /// 1: the failures, or the head of the filtered view when nothing failed.
    Failures,
    /// 2: the filtered view.
    Filtered,
    /// 3: the raw output, unfiltered.
    Raw,
}

impl Level {
    pub const DEFAULT: Level = Level::Filtered;

    pub fn from_number(n: u64) -> Option<Level> {
        match n {
            0 => Some(Level::Counts),
            1 => Some(Level::Failures),
            2 => Some(Level::Filtered),
            3 => Some(Level::Raw),
            _ => None,
        }
    }

    pub fn number(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        let n = i64::deserialize(deserializer)?;
        u64::try_from(n)
            .ok()
            .and_then(Level::from_number)
            .ok_or_else(|| serde::de::Error::custom(format!("must be 0 to 3, not {n}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_order_follows_detail() {
        for n in 0..=3 {
            assert_eq!(Level::from_number(n).unwrap().number() as u64, n);
        }
        assert_eq!(Level::from_number(4), None);
        assert!(Level::Counts < Level::Failures && Level::Filtered < Level::Raw);
    }

    #[test]
    fn serde_uses_the_number() {
        assert_eq!(serde_json::to_string(&Level::Failures).unwrap(), "1");
        let level: Level = serde_json::from_str("2").unwrap();
        assert_eq!(level, Level::Filtered);
        let error = serde_json::from_str::<Level>("9").unwrap_err().to_string();
        assert!(error.contains("must be 0 to 3, not 9"), "{error}");
    }
}
