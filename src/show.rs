//! `lens show`: the way back to what a view left out.
//!
//! `lens show H` replays a stored run as it printed: the stdout view to stdout, the stderr
//! view to stderr, at the level and budget the run recorded in `meta.json`, through
//! [`view::stream`], the function the live run used, so the two cannot disagree. `--level 3` replays the stored bytes instead, on both streams, exactly.
//! When show's stdout and stderr are one pipe (`2>&1`), the two go out in the order the
//! run wrote them, line by line for views (as the live run's did, see `merge`) and
//! stretch by stretch for the raw bytes, by the arrival order the entry stores.
//! `--lines A-B` and `--grep RE` answer a marker: the raw lines it names, by the original
//! 1-based numbers (lines end at `\n`, as the pipeline counts them), printed as stored, so
//! a CRLF, an invalid UTF-8 byte or a missing final newline comes back as it went in.
//! Selecting one stream with `--stdout` or `--stderr` prints it on stdout, because what
//! asks for one stream usually pipes it somewhere.
//!
//! The handle is parsed strictly before anything touches the filesystem; `last` names the
//! newest entry. An entry without `meta.json` is a run still being written or one whose
//! writer died: `show` returns what the store holds of it, raw, and says so on stderr.
//! Every use is logged (mode "show": the handle, what was asked, the bytes printed per
//! stream) so `lens stats` can say how often a view was not enough.

use crate::block::Stream;
use crate::capture::Arrival;
use crate::cli::{LineRange, ShowArgs};
use crate::command::CommandLine;
use crate::config;
use crate::handle::Handle;
use crate::level::Level;
use crate::log::{self, Bytes, Record};
use crate::pipeline;
use crate::platform;
use crate::runner::{emit, emit_view, emit_views};
use crate::store::{self, Listed, Meta, Part, State, Store};
use crate::view;
use crate::window;
use regex::bytes::Regex;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Run `lens show`; returns the exit status.
pub fn run(args: ShowArgs) -> i32 {
    let env = |key: &str| std::env::var(key).ok();
    let Some(root) = store::root(&env) else {
        eprintln!("lens: no store directory: set LENS_STORE or HOME");
        return 1;
    };
    let store = Store::new(root);
    let log_dir = log::dir(&env);
    let mut record = Record {
        v: log::VERSION,
        ts_ms: millis(SystemTime::now()),
        mode: "show",
        cwd: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        ..Record::default()
    };
    let status = match args.list {
        Some(count) => list(&store, log_dir.as_deref(), count, &mut record),
        None => show(&store, &args, &env, &mut record),
    };
    if let Some(dir) = &log_dir {
        let (config, _) = config::load_or_default(&env);
        let _ = log::append(dir, &record, config.log.max_bytes);
    }
    status
}

/// Show one run; fills in `record` with what was asked and printed.
fn show(
    store: &Store,
    args: &ShowArgs,
    env: &dyn Fn(&str) -> Option<String>,
    record: &mut Record,
) -> i32 {
    let handle = match resolve(store, &args.handle) {
        Ok(handle) => handle,
        Err((status, message)) => {
            eprintln!("lens: {message}");
            return status;
        }
    };
    let meta = match store.entry(handle) {
        Ok(meta) => meta,
        Err(error) => {
            eprintln!("lens: {error:#}");
            return 1;
        }
    };
    let parts = match (args.stdout, args.stderr) {
        (true, false) => vec![Part::Stdout],
        (false, true) => vec![Part::Stderr],
        _ => vec![Part::Stdout, Part::Stderr],
    };
    let (config, config_error) = config::load_or_default(env);
    let command = CommandLine::from_words(meta.as_ref().map_or(&[][..], |meta| &meta.argv));
    // The run's own level and budget, unless others are asked for: a replay prints what
    // the run printed.
    let recorded = meta.as_ref();
    let (level, budget) = config::level_and_budget(
        &config,
        args.level.or(recorded.and_then(|m| m.level)),
        args.budget.or(recorded.and_then(|m| m.budget)),
        &command.program,
    );
    let pattern = args
        .grep
        .as_deref()
        .map(|re| Regex::new(re).expect("checked by cli"));
    let selecting = !args.lines.is_empty() || pattern.is_some();
    record.handle = Some(handle.to_string());
    record.asked = Some(asked(args, level, &parts));
    record.level = (!selecting).then_some(level);

    let mut printed = Bytes::default();
    let mut notes = Vec::new();
    let blocked = view::blocker(None, config_error.as_deref());
    let replay = meta.as_ref().map(|meta| Replay {
        meta,
        command: &command,
        level,
        budget,
        config: &config,
        blocked: blocked.as_ref(),
    });
    let paths = [Part::Stdout, Part::Stderr].map(|part| store.stored_part(handle, part));
    // Under `2>&1` the two streams go out in the order the run wrote them, as the live
    // run's views did; the entry holds that order when the run wrote to both.
    let arrival = (parts.len() == 2 && !selecting && platform::stdout_is_stderr())
        .then(|| store.arrival(handle))
        .flatten();
    let merged = replay.as_ref().zip(arrival.as_ref());
    if let Some((replay, arrival)) = merged {
        let written = match level {
            Level::Raw => copy_merged(&paths, arrival),
            _ => replay.merged(&paths, arrival),
        };
        match written {
            Ok(bytes) => printed = bytes,
            Err(error) => {
                eprintln!("lens: cannot read stored run `{handle}`: {error}");
                return 1;
            }
        }
        if let Some(blocked) = blocked.as_ref().filter(|_| level != Level::Raw) {
            notes.push(blocked.diagnostic.clone());
        }
    }
    let mut out = io::stdout().lock();
    let mut err = io::stderr().lock();
    let separate = if merged.is_some() {
        &[][..]
    } else {
        &parts[..]
    };
    for &part in separate {
        let to_stdout = parts.len() == 1 || part == Part::Stdout;
        let sink: &mut dyn Write = if to_stdout { &mut out } else { &mut err };
        let path = paths[part as usize].clone();
        let written = match &replay {
            _ if selecting => {
                let raw = match path.as_deref().map(std::fs::read).transpose() {
                    Ok(raw) => raw.unwrap_or_default(),
                    Err(error) => {
                        eprintln!("lens: cannot read stored run `{handle}`: {error}");
                        return 1;
                    }
                };
                let selected = select(&raw, &args.lines, pattern.as_ref());
                if pattern.is_some() {
                    notes.push(format!(
                        "lens: {} of {} {} lines match",
                        selected.matched,
                        selected.lines,
                        part.file_name()
                    ));
                }
                emit(sink, &selected.bytes);
                Ok(selected.bytes.len() as u64)
            }
            Some(replay) if level != Level::Raw => {
                if let Some(blocked) = &blocked
                    && !notes.contains(&blocked.diagnostic)
                {
                    notes.push(blocked.diagnostic.clone());
                }
                match replay.render(path.as_deref(), part) {
                    Ok(Some(rendered)) => {
                        emit_view(sink, &rendered.view);
                        Ok(rendered.view.len())
                    }
                    Ok(None) => Ok(0),
                    Err(error) => Err(io::Error::other(format!("{error:#}"))),
                }
            }
            // An incomplete entry, or the raw bytes asked for.
            _ => copy(path.as_deref(), sink),
        };
        match (part, written) {
            (Part::Stdout, Ok(n)) => printed.stdout = n,
            (Part::Stderr, Ok(n)) => printed.stderr = n,
            (_, Err(error)) => {
                eprintln!("lens: cannot read stored run `{handle}`: {error}");
                return 1;
            }
        }
    }
    drop(out);
    record.shown = Some(printed);
    if meta.is_none() {
        let why = match store.state(handle) {
            Ok(State::Writing) => "is still being written",
            _ => "did not finish (lens was killed)",
        };
        notes.push(format!(
            "lens: run `{handle}` is incomplete: it {why}; this is the raw output stored so far"
        ));
    }
    for note in notes {
        emit(&mut err, format!("{note}\n").as_bytes());
    }
    0
}

/// What a complete entry is replayed with.
struct Replay<'a> {
    meta: &'a Meta,
    command: &'a CommandLine,
    level: Level,
    budget: usize,
    config: &'a config::Config,
    blocked: Option<&'a view::Blocked>,
}

impl Replay<'_> {
    /// One stream's view, through the same window as the live run, so a stream too large
    /// to filter whole is re-rendered as it was shown, within the same memory. `None`
    /// when the entry has no file for it.
    fn render(&self, path: Option<&Path>, part: Part) -> anyhow::Result<Option<window::Rendered>> {
        let Some(path) = path else {
            return Ok(None);
        };
        let stored = window::Stored {
            path,
            bytes: std::fs::metadata(path)?.len(),
            newlines: window::count_newlines(path)?,
        };
        let request = request(
            self.meta,
            self.command,
            part,
            self.level,
            self.budget,
            self.config,
        );
        let blocked = self.blocked.map(|b| b.reason.as_str());
        window::render(&stored, blocked, &request).map(Some)
    }

    /// Both views, their lines interleaved in `arrival` order as the live run under
    /// `2>&1` wrote them; one after the other where a view is copied from its file (raw,
    /// and too large to read whole), as the live run did too.
    fn merged(&self, paths: &[Option<PathBuf>; 2], arrival: &[Arrival]) -> io::Result<Bytes> {
        let [out, err] = [Part::Stdout, Part::Stderr].map(|part| {
            self.render(paths[part as usize].as_deref(), part)
                .map_err(|error| io::Error::other(format!("{error:#}")))
        });
        let (out, err) = (out?, err?);
        let printed = Bytes {
            stdout: out.as_ref().map_or(0, |r| r.view.len()),
            stderr: err.as_ref().map_or(0, |r| r.view.len()),
        };
        emit_views(out.as_ref(), err.as_ref(), Some(arrival));
        Ok(printed)
    }
}

/// The raw bytes of both streams in the order they arrived, each stretch to its own
/// stream, flushed at every switch so a shared pipe receives them in that order.
fn copy_merged(paths: &[Option<PathBuf>; 2], arrival: &[Arrival]) -> io::Result<Bytes> {
    let open = |path: &Option<PathBuf>| path.as_deref().map(std::fs::File::open).transpose();
    let mut files = [open(&paths[0])?, open(&paths[1])?];
    let (mut stdout, mut stderr) = (io::stdout().lock(), io::stderr().lock());
    let mut printed = Bytes::default();
    for stretch in arrival {
        let (file, sink, count): (_, &mut dyn Write, _) = match stretch.stream {
            Stream::Stdout => (&mut files[0], &mut stdout, &mut printed.stdout),
            Stream::Stderr => (&mut files[1], &mut stderr, &mut printed.stderr),
        };
        let Some(file) = file else {
            continue;
        };
        let copied = io::copy(&mut file.take(stretch.bytes as u64), sink)?;
        *count += copied;
        if sink.flush().is_err() {
            // The reader left: what is left is not written, as with `copy`.
            break;
        }
    }
    Ok(printed)
}

/// The one place `show` describes a stored run to the pipeline.
fn request<'a>(
    meta: &'a Meta,
    command: &'a CommandLine,
    part: Part,
    level: Level,
    budget: usize,
    config: &'a config::Config,
) -> pipeline::Request<'a> {
    pipeline::Request {
        stream: match part {
            Part::Stdout => Stream::Stdout,
            Part::Stderr => Stream::Stderr,
        },
        level,
        budget,
        handle: &meta.handle,
        exit_code: meta.exit,
        command,
        settings: &config.pipeline,
    }
}

/// A typed handle, or `last`: the newest entry, complete or not.
fn resolve(store: &Store, typed: &str) -> Result<Handle, (i32, String)> {
    if typed == "last" {
        let listed = store.list().unwrap_or_default();
        return listed
            .iter()
            .max_by_key(|entry| entry.started())
            .map(|entry| entry.handle)
            .ok_or_else(|| (1, format!("no stored runs in `{}`", store.root().display())));
    }
    Handle::parse(typed).ok_or_else(|| {
        (
            2,
            format!(
                "`{typed}` is not a handle (a handle is eight lowercase hex digits, or `last`)"
            ),
        )
    })
}

/// What was asked, for the log: `level 2`, `lines 68-89 stderr`, `grep ^error`.
fn asked(args: &ShowArgs, level: Level, parts: &[Part]) -> String {
    let mut words = Vec::new();
    if !args.lines.is_empty() {
        let ranges: Vec<String> = args.lines.iter().map(LineRange::to_string).collect();
        words.push(format!("lines {}", ranges.join(",")));
    }
    if let Some(pattern) = &args.grep {
        words.push(format!("grep {pattern}"));
    }
    if words.is_empty() {
        words.push(format!("level {level}"));
    }
    if let [part] = parts {
        words.push(part.file_name().to_owned());
    }
    words.join(" ")
}

/// Stream a stored file to `sink`. A reader that went away stops the copy quietly; only
/// a failure to read the store is an error.
fn copy(path: Option<&Path>, sink: &mut dyn Write) -> io::Result<u64> {
    let Some(path) = path else {
        return Ok(0);
    };
    let mut file = std::fs::File::open(path)?;
    let mut buffer = vec![0; 64 * 1024];
    let mut total = 0;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 || !emit(sink, &buffer[..n]) {
            return Ok(total);
        }
        total += n as u64;
    }
}

/// The lines `show --lines/--grep` prints from one stream.
#[derive(Debug, PartialEq, Eq)]
struct Selection {
    bytes: Vec<u8>,
    /// Lines that matched the pattern (within the ranges, when both are given).
    matched: usize,
    /// Lines in the stream.
    lines: usize,
}

/// The lines of `raw` within `ranges` (every line when there are none) that match
/// `pattern` (every line when there is none). Without a pattern the lines are printed as
/// stored, so `--lines 1-N` is the stream itself; with one, each match is printed as
/// `N:line`, ended by a newline even when the stream's last line had none. A pattern is
/// matched against the line without its `\n` or `\r\n`, so `$` means the end of the text;
/// bytes that are not UTF-8 are matched by no `.`, but a line holding them still matches
/// on the rest of its text.
fn select(raw: &[u8], ranges: &[LineRange], pattern: Option<&Regex>) -> Selection {
    let mut selection = Selection {
        bytes: Vec::new(),
        matched: 0,
        lines: 0,
    };
    for (index, line) in raw.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        selection.lines = number;
        if !ranges.is_empty() && !ranges.iter().any(|range| range.contains(number)) {
            continue;
        }
        let Some(pattern) = pattern else {
            selection.bytes.extend_from_slice(line);
            continue;
        };
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if pattern.is_match(text) {
            selection.matched += 1;
            selection
                .bytes
                .extend_from_slice(format!("{number}:").as_bytes());
            selection.bytes.extend_from_slice(line);
            if !line.ends_with(b"\n") {
                selection.bytes.push(b'\n');
            }
        }
    }
    selection
}

/// `lens show --list N`: the N newest entries, newest first.
fn list(store: &Store, log_dir: Option<&Path>, count: usize, record: &mut Record) -> i32 {
    record.asked = Some(format!("list {count}"));
    let mut listed = match store.list() {
        Ok(listed) => listed,
        Err(_) if !store.root().exists() => Vec::new(),
        Err(error) => {
            eprintln!("lens: {error:#}");
            return 1;
        }
    };
    listed.sort_by_key(|entry| std::cmp::Reverse(entry.started()));
    listed.truncate(count);
    // Shown sizes are known only to the run that printed them, which logged them.
    let shown: BTreeMap<String, Bytes> = log_dir
        .map(log::read)
        .unwrap_or_default()
        .entries
        .into_iter()
        .filter(|entry| entry.mode == "capture")
        .filter_map(|entry| Some((entry.handle?, entry.shown?)))
        .collect();
    let table = list_table(&listed, &shown, SystemTime::now());
    let printed = table.len() as u64;
    emit(&mut io::stdout().lock(), table.as_bytes());
    record.shown = Some(Bytes {
        stdout: printed,
        stderr: 0,
    });
    0
}

fn list_table(listed: &[Listed], shown: &BTreeMap<String, Bytes>, now: SystemTime) -> String {
    let mut table = format!(
        "{:<8}  {:>5}  {:>4}  {:>7}  {:>7}  command\n",
        "handle", "age", "exit", "raw", "shown"
    );
    for entry in listed {
        let handle = entry.handle.to_string();
        let age = now.duration_since(entry.started()).unwrap_or_default();
        let (exit, command) = match entry.meta() {
            Some(meta) => (meta.exit.to_string(), meta.argv.join(" ")),
            None => ("?".to_owned(), "(incomplete)".to_owned()),
        };
        let shown = shown
            .get(&handle)
            .map_or("?".to_owned(), |b| size(b.stdout + b.stderr));
        table.push_str(&format!(
            "{handle:<8}  {:>5}  {exit:>4}  {:>7}  {shown:>7}  {}\n",
            duration(age),
            size(entry.stdout_bytes + entry.stderr_bytes),
            clip(&command, 60)
        ));
    }
    table
}

/// `512B`, `1.2K`, `3.4M`: a size read at a glance.
fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes}B"),
        1024..1_048_576 => format!("{:.1}K", bytes as f64 / 1024.0),
        _ => format!("{:.1}M", bytes as f64 / 1_048_576.0),
    }
}

/// `42s`, `5m`, `3h`, `2d`.
fn duration(age: Duration) -> String {
    match age.as_secs() {
        s @ 0..60 => format!("{s}s"),
        s @ 60..3600 => format!("{}m", s / 60),
        s @ 3600..86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(first: usize, last: usize) -> LineRange {
        LineRange { first, last }
    }

    #[test]
    fn malformed_handles_are_usage_errors_before_any_file_is_read() {
        let store = Store::new("/nonexistent/lens-store".into());
        for bad in ["../../../etc/passwd", "ABCDEF12", "1234", "/tmp/x", "Last"] {
            assert_eq!(resolve(&store, bad).unwrap_err().0, 2, "{bad}");
        }
        assert_eq!(resolve(&store, "last").unwrap_err().0, 1);
    }

    #[test]
    fn lines_are_printed_exactly_as_stored() {
        let raw = b"one\r\ntwo \xff\nthree\nfour";
        let selected = select(raw, &[range(2, 2), range(4, 9)], None);
        assert_eq!(selected.bytes, b"two \xff\nfour");
        assert_eq!(selected.lines, 4);
        assert_eq!(select(raw, &[range(1, 4)], None).bytes, raw);
        assert_eq!(select(raw, &[range(1, 1)], None).bytes, b"one\r\n");
        assert_eq!(select(raw, &[range(5, 9)], None).bytes, b"");
    }

    #[test]
    fn overlapping_ranges_print_each_line_once_in_order() {
        let raw = b"a\nb\nc\nd\n";
        let selected = select(raw, &[range(3, 4), range(1, 3)], None);
        assert_eq!(selected.bytes, b"a\nb\nc\nd\n");
    }

    #[test]
    fn grep_numbers_matches_and_counts_them() {
        let raw = b"ok\r\nerror: one\r\nfine\nerror: \xff two\nerror: last";
        // `.` matches a character, not a stray byte, as in GNU grep under a UTF-8 locale;
        // a line holding one is still found by what surrounds it, and printed as stored.
        assert!(
            !Regex::new("^error: .*two$")
                .unwrap()
                .is_match(b"error: \xff two")
        );
        let pattern = Regex::new("^error:.*(one|last)$|two$").unwrap();
        let selected = select(raw, &[], Some(&pattern));
        assert_eq!(
            selected.bytes,
            b"2:error: one\r\n4:error: \xff two\n5:error: last\n".as_slice()
        );
        assert_eq!((selected.matched, selected.lines), (3, 5));
        let within = select(raw, &[range(3, 4)], Some(&pattern));
        assert_eq!(within.bytes, b"4:error: \xff two\n".as_slice());
        assert_eq!(within.matched, 1);
    }

    #[test]
    fn asked_names_the_request_and_a_single_stream() {
        let mut args = ShowArgs {
            lines: vec![range(68, 89), range(3, 3)],
            ..ShowArgs::default()
        };
        assert_eq!(
            asked(&args, Level::Filtered, &[Part::Stderr]),
            "lines 68-89,3-3 stderr"
        );
        args.lines.clear();
        assert_eq!(
            asked(&args, Level::Raw, &[Part::Stdout, Part::Stderr]),
            "level 3"
        );
        args.grep = Some("^E".into());
        assert_eq!(
            asked(&args, Level::Filtered, &[Part::Stdout]),
            "grep ^E stdout"
        );
    }

    #[test]
    fn the_list_joins_shown_sizes_from_the_log_and_marks_incomplete_runs() {
        let now = UNIX_EPOCH + Duration::from_secs(10_000);
        let meta = Meta {
            handle: "0123abcd".into(),
            argv: vec!["cargo".into(), "build".into()],
            cwd: "/".into(),
            exit: 101,
            signal: None,
            started_ms: 9_700_000,
            dur_ms: 1,
            stdout_bytes: 2048,
            stderr_bytes: 100,
            lens_version: "test".into(),
            level: None,
            budget: None,
        };
        let listed = [
            Listed {
                handle: Handle::parse("0123abcd").unwrap(),
                state: State::Complete(meta),
                start: None,
                stdout_bytes: 2048,
                stderr_bytes: 100,
                modified: UNIX_EPOCH + Duration::from_secs(9_700),
            },
            Listed {
                handle: Handle::parse("deadbeef").unwrap(),
                state: State::Abandoned,
                start: None,
                stdout_bytes: 5,
                stderr_bytes: 0,
                modified: UNIX_EPOCH + Duration::from_secs(9_990),
            },
        ];
        let shown = BTreeMap::from([(
            "0123abcd".to_owned(),
            Bytes {
                stdout: 10,
                stderr: 90,
            },
        )]);
        assert_eq!(
            list_table(&listed, &shown, now),
            "handle      age  exit      raw    shown  command\n\
             0123abcd     5m   101     2.1K     100B  cargo build\n\
             deadbeef    10s     ?       5B        ?  (incomplete)\n"
        );
    }

    #[test]
    fn sizes_durations_and_clipping_read_at_a_glance() {
        assert_eq!(size(1023), "1023B");
        assert_eq!(size(1536), "1.5K");
        assert_eq!(size(3 << 20), "3.0M");
        assert_eq!(duration(Duration::from_secs(59)), "59s");
        assert_eq!(duration(Duration::from_secs(7200)), "2h");
        assert_eq!(duration(Duration::from_secs(3 * 86_400)), "3d");
        assert_eq!(clip("abcdef", 3), "abc…");
        assert_eq!(clip("abc", 3), "abc");
    }
}
