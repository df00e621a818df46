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
//!
//! [`read`] is the other half, for `lens stats` and `lens show --list`: both files, oldest
//! first, each line parsed on its own. A line that is not a record (a truncated write, a
//! hand edit, a disk error) or that carries a version this build does not know is skipped
//! and counted, never fatal: a statistics command that dies on one bad line in four
//! megabytes reports nothing at all. Version 1 only ever gains optional fields, so a
//! version 1 reader accepts what a later version 1 writer adds.

use crate::platform;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const FILE: &str = "lens.log";
/// The rotated file, one generation back.
pub const PREVIOUS: &str = "lens.log.1";
/// The record version this build writes and reads.
pub const VERSION: u32 = 1;

/// The log's directory: `LENS_LOG_DIR`, else `$XDG_STATE_HOME/lens`, else
/// `~/.local/state/lens`.
pub fn dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(dir) = env("LENS_LOG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    crate::config::xdg_dir(env, "XDG_STATE_HOME", ".local/state").map(|dir| dir.join("lens"))
}

/// Byte counts for the two streams.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Bytes {
    pub stdout: u64,
    pub stderr: u64,
}

/// One run. Fields a run cannot know (an exec'd command's exit) are left out, never faked.
#[derive(Debug, Default, Serialize)]
pub struct Record {
    pub v: u32,
    pub ts_ms: u64,
    /// "capture", "exec" (replaced by the command), "error" (the command never ran or
    /// was lost), "show" (a stored run was read back; `shown` is what it printed), "hook"
    /// (`lens hook --post` replaced an agent's output with a view: `raw` is what it was
    /// handed), "rewrite" (`lens hook` put `lens` into a command; `argv` is what runs), or
    /// "incomplete" (a later run found the entry of a lens that died mid-run; no outcome).
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
    /// For a "show" record: what was asked of the stored run (`lines 68-89 stderr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
}

/// A record read back: [`Record`]'s fields, owned, every one a reader may find missing.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Entry {
    pub v: u32,
    #[serde(default)]
    pub ts_ms: u64,
    pub mode: String,
    #[serde(default)]
    pub argv: Vec<String>,
    #[serde(default)]
    pub handle: Option<String>,
    #[serde(default)]
    pub level: Option<u8>,
    #[serde(default)]
    pub exit: Option<i32>,
    #[serde(default)]
    pub raw: Option<Bytes>,
    #[serde(default)]
    pub shown: Option<Bytes>,
    #[serde(default)]
    pub raw_reason: BTreeMap<String, String>,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub asked: Option<String>,
}

/// Everything [`read`] found in a log directory.
#[derive(Debug, Default)]
pub struct Reading {
    /// Records, oldest file first, in file order.
    pub entries: Vec<Entry>,
    /// The files that were read.
    pub files: Vec<PathBuf>,
    /// Non-empty lines seen, skipped ones included.
    pub lines: usize,
    /// Lines that are not a record: not JSON, truncated, or a field of the wrong type.
    pub corrupt: usize,
    /// Records of a version other than [`VERSION`].
    pub unknown_version: usize,
    /// Files that exist but could not be read, with the reason.
    pub unreadable: Vec<String>,
}

/// Read `lens.log.1`, then `lens.log`, from `dir`. Missing files are an empty log.
pub fn read(dir: &Path) -> Reading {
    let mut reading = Reading::default();
    for name in [PREVIOUS, FILE] {
        let path = dir.join(name);
        match fs::read(&path) {
            Ok(bytes) => {
                reading.files.push(path);
                for line in bytes.split(|&b| b == b'\n') {
                    reading.take(line);
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => reading
                .unreadable
                .push(format!("failed to read `{}`: {error}", path.display())),
        }
    }
    reading
}

impl Reading {
    fn take(&mut self, line: &[u8]) {
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        self.lines += 1;
        // The version is looked at before the shape: a later version may change a field's
        // type, and that line is then unknown, not corrupt.
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(line) else {
            self.corrupt += 1;
            return;
        };
        match value.get("v").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(VERSION) => match serde_json::from_value(value) {
                Ok(entry) => self.entries.push(entry),
                Err(_) => self.corrupt += 1,
            },
            Some(_) => self.unknown_version += 1,
            None => self.corrupt += 1,
        }
    }
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
    fn read_skips_and_counts_what_is_not_a_version_1_record() {
        let dir = temp_dir("read");
        fs::create_dir_all(&dir).unwrap();
        append(&dir, &record("old"), 1 << 20).unwrap();
        fs::rename(dir.join(FILE), dir.join(PREVIOUS)).unwrap();
        append(&dir, &record("new"), 1 << 20).unwrap();
        let mut log = fs::OpenOptions::new()
            .append(true)
            .open(dir.join(FILE))
            .unwrap();
        log.write_all(b"not json\n\n{\"v\":2,\"mode\":\"capture\"}\n")
            .unwrap();
        log.write_all(b"{\"v\":1,\"mode\":7}\n{\"mode\":\"capture\"}\n")
            .unwrap();
        log.write_all(b"\xff\xfe\n{\"v\":1,\"mode\":\"exec\",\"argv\":[\"vim\"],\"later\":true}\n")
            .unwrap();
        log.write_all(b"{\"v\":1,\"mode\":\"capt").unwrap();
        let reading = read(&dir);
        let argv: Vec<&str> = reading.entries.iter().map(|e| e.argv[0].as_str()).collect();
        assert_eq!(argv, ["old", "new", "vim"]);
        assert_eq!(reading.entries[0].exit, Some(0));
        assert_eq!(reading.lines, 9);
        assert_eq!(
            reading.corrupt, 5,
            "not json, wrong type, no v, bad bytes, truncated"
        );
        assert_eq!(reading.unknown_version, 1);
        assert_eq!(reading.files.len(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn read_of_a_missing_directory_is_an_empty_log() {
        let reading = read(&temp_dir("missing"));
        assert!(reading.entries.is_empty() && reading.files.is_empty());
        assert!(reading.unreadable.is_empty());
    }

    #[test]
    fn an_unwritable_log_is_an_error_not_a_panic() {
        let dir = temp_dir("blocked");
        fs::write(&dir, "a file where the directory should be").unwrap();
        assert!(append(&dir, &record("x"), 1 << 20).is_err());
        fs::remove_file(&dir).unwrap();
    }
}
