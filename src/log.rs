//! The run log: one JSON object per run, one per line, in `lens.log`.
//!
//! The log records argv, never the command's output: it has to answer what was run and
//! what filtering saved, and nothing more. A log that cannot be written changes nothing
//! the user sees, so [`append`] returns its error only for tests and the runner drops it.
//!
//! Each record is written with a single `write` on a file opened for appending, so
//! concurrent runs append whole lines. Once the file would grow past its bound it is
//! renamed to `lens.log.1` (replacing the previous one) and a new file is started, so the
//! log never holds more than about twice the bound.

use crate::platform;
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const FILE: &str = "lens.log";
const PREVIOUS: &str = "lens.log.1";

/// The log's directory: `LENS_LOG_DIR`, else `$XDG_STATE_HOME/lens`, else
/// `~/.local/state/lens`.
pub fn dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(dir) = env("LENS_LOG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    crate::config::xdg_dir(env, "XDG_STATE_HOME", ".local/state").map(|dir| dir.join("lens"))
}

/// Byte counts for the two streams.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Bytes {
    pub stdout: u64,
    pub stderr: u64,
}

/// One run. Fields a run cannot know (an exec'd command's exit) are left out, never faked.
#[derive(Debug, Default, Serialize)]
pub struct Record {
    pub v: u32,
    pub ts_ms: u64,
    /// "capture", "exec" (replaced by the command), or "error" (the command never ran).
    pub mode: &'static str,
    pub argv: Vec<String>,
    pub cwd: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<crate::level::Level>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<Bytes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Bytes>,
    /// Why a view is the raw output when a filtered one was asked for, per stream or run.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub raw_reason: BTreeMap<&'static str, String>,
    /// Why the command was exec'd, or what else is worth knowing about the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Append `record` to the log in `dir`, rotating past `max_bytes`.
pub fn append(dir: &Path, record: &Record, max_bytes: u64) -> Result<()> {
    let mut line = serde_json::to_vec(record).context("failed to encode log record")?;
    line.push(b'\n');
    platform::create_private_dir_all(dir)
        .with_context(|| format!("failed to create log directory `{}`", dir.display()))?;
    let path = dir.join(FILE);
    if let Ok(meta) = fs::metadata(&path)
        && meta.len() + line.len() as u64 > max_bytes
    {
        // Two runs may rotate at once; the loser's rename fails or rotates a file with
        // a line or two in it, and either way no record is lost from the current file.
        let _ = fs::rename(&path, dir.join(PREVIOUS));
    }
    let mut file = platform::append_private_file(&path)
        .with_context(|| format!("failed to open log `{}`", path.display()))?;
    file.write_all(&line)
        .with_context(|| format!("failed to write log `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lens-log-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn record(argv: &str) -> Record {
        Record {
            v: 1,
            mode: "capture",
            argv: vec![argv.into()],
            exit: Some(0),
            ..Record::default()
        }
    }

    #[test]
    fn records_are_one_json_object_per_line() {
        let dir = temp_dir("lines");
        append(&dir, &record("a"), 1 << 20).unwrap();
        append(&dir, &record("b"), 1 << 20).unwrap();
        let text = fs::read_to_string(dir.join(FILE)).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["argv"][0], "b");
        assert_eq!(lines[0]["exit"], 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unknown_fields_are_omitted_not_faked() {
        let exec = Record {
            v: 1,
            mode: "exec",
            argv: vec!["vim".into()],
            ..Record::default()
        };
        let json = serde_json::to_value(&exec).unwrap();
        for absent in ["exit", "dur_ms", "raw", "shown", "handle"] {
            assert!(
                json.get(absent).is_none(),
                "{absent} must be absent from an exec record"
            );
        }
    }

    #[test]
    fn the_log_rotates_past_its_bound() {
        let dir = temp_dir("rotate");
        for _ in 0..50 {
            append(&dir, &record("x"), 500).unwrap();
        }
        assert!(fs::metadata(dir.join(FILE)).unwrap().len() <= 500);
        assert!(fs::metadata(dir.join(PREVIOUS)).unwrap().len() <= 500);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_log_is_an_error_not_a_panic() {
        let dir = temp_dir("blocked");
        fs::write(&dir, "a file where the directory should be").unwrap();
        assert!(append(&dir, &record("x"), 1 << 20).is_err());
        fs::remove_file(&dir).unwrap();
    }
}
