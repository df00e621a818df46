//! `lens <command>`: run it, keep everything it printed, show the view, exit with its code.
//!
//! The order is the contract. Interactive and never-ending commands are exec'd before
//! anything else happens: lens disappears and the command has the terminal. Everything
//! else is captured; the raw bytes go to the store as they arrive (the entry is begun
//! before the command starts and completed with its `meta.json` after it ends), because a
//! view may only elide what a handle can bring back, and a lens killed mid-run must still
//! leave what the command printed. Without a store the output passes straight through,
//! raw (see `capture`); so does a level-3 run, whose view is the raw output, while it
//! is still stored in full. The views are read back from the store (see `window`). A stdout
//! too large to filter whole has its head's view written while the command still runs
//! (`early_head`), which is what lets `lens producer | head -1` end; the rest of that
//! view (the marker and the raw tail) follows when it ends. The head is the same bytes
//! `window::render` gives afterwards and `lens show` gives later. The stdout
//! view is written in full, then the stderr view, then lens's own diagnostics, so nothing
//! of lens's lands inside the child's streams. When lens's stdout and stderr are one file
//! or pipe (`2>&1`), the lines of both views are written in the order they arrived
//! instead (see `merge`), so the merged output ends where the command ended; the
//! diagnostics still come last. A windowed stream keeps its place in that order too: its
//! view's lines carry their raw offsets from `window`, so neither stream is read whole
//! for the merge. Under `2>&1` a windowed stdout's head is written early only as far as
//! it came before anything on stderr (see `capture`), and the rest of it joins the merge
//! at the end. A windowed stderr is not written early: on separate pipes the stdout view
//! comes first, and under `2>&1` its lines' places among stdout's are fixed at the end.
//! The log record is written last and its failure is ignored.
//!
//! Once the child has run, nothing lens does can change the exit status: every failure of
//! lens's own (store, config, pipeline) degrades the view to raw, is logged, and the
//! child's code is returned. That decision lives in one place, `run`.

use crate::block::Stream;
use crate::capture::{self, Arrival, Captured};
use crate::cli::Args;
use crate::command::CommandLine;
use crate::config;
use crate::handle::Handle;
use crate::interactive::Mode;
use crate::level::Level;
use crate::log::{self, Bytes, Record};
use crate::merge;
use crate::pipeline;
use crate::platform;
use crate::store::{self, Meta, Part, Store};
use crate::view;
use crate::window;
use anyhow::{Context, Result};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Run the command `args` describes; returns lens's exit status.
pub fn run(args: Args) -> i32 {
    let env = |key: &str| std::env::var(key).ok();
    let started_at = SystemTime::now();
    let started = Instant::now();
    let argv: Vec<String> = args
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let cwd = std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    // Resolved once: the exec decision, the config lookup and the pipeline all read it.
    let resolved = CommandLine::resolve(&args.command);
    let (config, config_error) = config::load_or_default(&env);
    let (level, budget) =
        config::level_and_budget(&config, args.level, args.budget, &resolved.program);
    let log_dir = log::dir(&env);
    let mut record = Record {
        v: 1,
        ts_ms: millis(started_at),
        argv: argv.clone(),
        cwd: cwd.clone(),
        level: Some(level),
        ..Record::default()
    };
    let write_log = |record: &Record| {
        if let Some(dir) = &log_dir {
            let _ = log::append(dir, record, config.log.max_bytes);
        }
    };

    let mut command = Command::new(&args.command[0]);
    command.args(&args.command[1..]);

    if let Mode::Exec(reason) = resolved.mode {
        // exec replaces this process: the record is written now, without an outcome.
        record.mode = "exec";
        record.level = None;
        record.note = Some(reason.to_owned());
        write_log(&record);
        let error = platform::exec(&mut command);
        return report_start_failure(&args.command[0], &error);
    }

    platform::prepare_child(&mut command);
    // The entry is begun before the command starts, so its bytes reach the store as they
    // arrive and a lens killed mid-run still leaves them there.
    let store = store::root(&env).map(Store::new);
    let (entry, sinks) = match begin(store.as_ref(), &argv, &cwd, started_at) {
        Ok(store::Entry {
            handle,
            stdout,
            stderr,
            lease,
        }) => {
            let dir = store
                .as_ref()
                .expect("an entry has a store")
                .entry_dir(handle);
            let paths = (
                dir.join(Part::Stdout.file_name()),
                dir.join(Part::Stderr.file_name()),
            );
            (
                Ok((handle, lease)),
                Some(((stdout, paths.0), (stderr, paths.1))),
            )
        }
        Err(error) => (Err(error), None),
    };
    // Where the streams are, for reading the views back, unless they passed through.
    let files: Option<(PathBuf, PathBuf)> = sinks
        .as_ref()
        .map(|((_, out), (_, err))| (out.clone(), err.clone()));
    let begun = entry.as_ref().ok().map(|(handle, _)| *handle);
    let discard = |entry: &Result<(Handle, store::Lease)>| {
        if let (Some(store), Ok((handle, _))) = (&store, entry) {
            store.discard(*handle);
        }
    };
    let child = match capture::spawn(&mut command) {
        Ok(child) => child,
        Err(error) => {
            discard(&entry);
            record.mode = "error";
            record.note = Some(error.to_string());
            write_log(&record);
            return report_start_failure(&args.command[0], &error);
        }
    };
    let mut notes = Vec::new();
    if let Err(error) = platform::forward_signals_to(child.id()) {
        notes.push(format!("signal forwarding unavailable: {error}"));
    }
    let early = early_head(
        begun,
        config_error.is_some(),
        (level, budget),
        &resolved,
        &config,
    );
    // A raw view is the output itself: written as it arrives, not when the command ends.
    let live = level == Level::Raw;
    let collected = capture::collect(child, started, sinks, early, live);
    platform::stop_forwarding();
    let captured = match collected {
        Ok(captured) => captured,
        Err(error) => {
            // Without a wait status there is no honest exit code to report; never 0.
            discard(&entry);
            eprintln!("lens: lost track of `{}`: {error}", argv[0]);
            record.mode = "error";
            record.note = Some(format!("wait failed: {error}"));
            write_log(&record);
            return 1;
        }
    };
    let exit = platform::exit_code(captured.status);

    let stored = finish(
        store.as_ref(),
        entry,
        &captured,
        (&argv, &cwd),
        exit,
        started_at,
        (level, budget),
    );
    // Anything that stops lens vouching for a filtered view makes both views raw.
    let store_error = stored.as_ref().err().map(|error| format!("{error:#}"));
    let blocked = view::blocker(store_error.as_deref(), config_error.as_deref());
    let mut diagnostics: Vec<String> = blocked.iter().map(|b| b.diagnostic.clone()).collect();
    let blocker = blocked.map(|b| b.reason);
    if captured.gave_terminal {
        // Not a failure: what a person at the terminal saw is the raw run, as it happened.
        notes.push("a prompt went quiet on the terminal; the run was passed through".into());
    }
    if captured.reader_left {
        // Quiet on stderr, as a closed pipe always is; the log says why stdout stops short.
        notes.push("stdout reader left while the command ran; its stdout was closed".into());
    }
    if captured.pipes_held_open {
        diagnostics.push(format!(
            "lens: a background process kept the output open; stopped reading {}ms after `{}` exited",
            capture::EOF_GRACE.as_millis(),
            argv[0]
        ));
        notes.push("pipes held open after exit".into());
    }

    let handle = stored.as_ref().map(|h| h.to_string()).unwrap_or_default();
    let mut raw_reason = BTreeMap::new();
    let options = |stream| pipeline::Request {
        stream,
        level,
        budget,
        handle: &handle,
        exit_code: exit,
        command: &resolved,
        settings: &config.pipeline,
    };
    let files = files.filter(|_| !captured.passed_through);
    // Written while the child ran: what follows it is all that is left of stdout's view.
    let early = captured.stdout_head.as_ref();
    let mut render = |stream: Stream| {
        let (path, held, bytes, newlines) = match stream {
            Stream::Stdout => (
                files.as_ref().map(|f| &f.0),
                &captured.stdout,
                captured.stdout_bytes,
                captured.stdout_newlines,
            ),
            Stream::Stderr => (
                files.as_ref().map(|f| &f.1),
                &captured.stderr,
                captured.stderr_bytes,
                captured.stderr_newlines,
            ),
        };
        let rendered = match (path, early.filter(|_| stream == Stream::Stdout)) {
            (Some(path), Some(head)) => {
                let stored = window::Stored {
                    path,
                    bytes,
                    newlines,
                };
                // The head's markers name this handle, so the stream's end is shown raw
                // rather than the view withdrawn, should the entry fail to complete.
                let rest = match blocker {
                    None => window::rest(&stored, head, &handle).map_err(|e| format!("{e:#}")),
                    Some(_) => Err("the entry did not complete".to_owned()),
                };
                // What of the head was not written while the child ran (under `2>&1`, its
                // lines that came after stderr's first) goes out with the rest.
                let (unwritten, unwritten_starts) = head.unwritten();
                match rest {
                    Ok((rest, rest_starts)) => window::Rendered {
                        view: window::View::Bytes([unwritten, &rest].concat()),
                        reason: head.reason.clone(),
                        starts: Some([unwritten_starts, &rest_starts].concat()),
                    },
                    Err(error) => window::Rendered {
                        view: window::View::FileFrom(path.clone(), head.resume_at(), bytes),
                        reason: Some(format!("store: {error}")),
                        starts: None,
                    },
                }
            }
            (Some(path), None) => {
                let stored = window::Stored {
                    path,
                    bytes,
                    newlines,
                };
                window::render(&stored, blocker.as_deref(), &options(stream)).unwrap_or_else(
                    |error| window::Rendered {
                        view: window::View::File(path.clone(), bytes),
                        reason: Some(format!("store: {error:#}")),
                        starts: None,
                    },
                )
            }
            (None, _) => {
                let (view, reason) = stream_view(held, bytes, blocker.as_deref(), &options(stream));
                let starts = merge::starts(held, &view, &handle);
                window::Rendered {
                    view: window::View::Bytes(view.into_owned()),
                    reason,
                    starts: Some(starts),
                }
            }
        };
        if let Some(reason) = &rendered.reason {
            raw_reason.insert(stream.name(), reason.clone());
        } else if captured.gave_terminal && bytes > 0 && level != Level::Raw {
            raw_reason.insert(stream.name(), "terminal: passed through at a prompt".into());
        }
        rendered
    };
    let out = render(Stream::Stdout);
    let err = render(Stream::Stderr);
    // Bytes passed through are out already, in arrival order; the offsets the merge maps
    // by would no longer match what is held, and what is left is raw anyway.
    let merged = platform::stdout_is_stderr() && !captured.passed_through;
    emit_views(
        Some(&out),
        Some(&err),
        merged.then_some(&captured.arrival[..]),
    );
    // A head written early names the handle in its markers: its entry is kept.
    let early_shown = early.filter(|head| head.written > 0);
    if stored.is_err()
        && early_shown.is_none()
        && let (Some(store), Some(handle)) = (&store, begun)
    {
        store.discard(handle);
    }
    let mut stderr = io::stderr().lock();
    for line in &diagnostics {
        emit(&mut stderr, format!("{line}\n").as_bytes());
    }

    record.mode = "capture";
    record.handle = stored
        .as_ref()
        .ok()
        .copied()
        .or(begun.filter(|_| early_shown.is_some()))
        .map(|h| h.to_string());
    record.exit = Some(exit);
    record.dur_ms = Some(captured.duration.as_millis() as u64);
    record.raw = Some(Bytes {
        stdout: captured.stdout_bytes,
        stderr: captured.stderr_bytes,
    });
    // Past a head written early, a passthrough copied only what followed what of it was.
    let (head_view, head_raw) = early.map_or((0, 0), |h| (h.written as u64, h.resume_at()));
    let passed = |total: u64, held: &[u8], skipped: u64| {
        if captured.passed_through {
            total - held.len() as u64 - skipped
        } else {
            0
        }
    };
    record.shown = Some(Bytes {
        stdout: head_view
            + out.view.len()
            + passed(captured.stdout_bytes, &captured.stdout, head_raw),
        stderr: err.view.len() + passed(captured.stderr_bytes, &captured.stderr, 0),
    });
    record.raw_reason = raw_reason;
    record.note = (!notes.is_empty()).then(|| notes.join("; "));
    write_log(&record);

    if let (Some(store), Ok(handle)) = (&store, &stored) {
        let large = captured.stdout_bytes + captured.stderr_bytes > config.store.max_bytes / 16;
        let now = SystemTime::now();
        if large || store.sweep_due(now) {
            // Before the sweep can evict them: runs whose lens died get their record.
            log_abandoned(store, now, &write_log);
            let _ = store.sweep(&config.store, now, Some(*handle));
        }
    }
    exit
}

/// Append one record for each stored run whose lens died before finishing it (SIGKILLed,
/// out of memory, a power cut), once: without it such a run would be missing from the log
/// altogether. Its outcome is unknown, so the record has no exit status, duration or shown
/// bytes, only what the entry holds: argv, cwd, start time, handle and the bytes captured.
pub(crate) fn log_abandoned(store: &Store, now: SystemTime, write_log: &dyn Fn(&Record)) {
    for listed in store.claim_abandoned(now) {
        let start = listed.start.as_ref();
        write_log(&Record {
            v: log::VERSION,
            ts_ms: millis(listed.started()),
            mode: "incomplete",
            argv: start.map(|s| s.argv.clone()).unwrap_or_default(),
            cwd: start.map(|s| s.cwd.clone()).unwrap_or_default(),
            handle: Some(listed.handle.to_string()),
            raw: Some(Bytes {
                stdout: listed.stdout_bytes,
                stderr: listed.stderr_bytes,
            }),
            note: Some(
                "lens ended before the command did: no exit status or view was recorded".into(),
            ),
            ..Record::default()
        });
    }
}

/// One stream's view: raw when `blocker` says lens cannot vouch for a filtered one.
/// `total` counts bytes already passed through, which `raw` no longer holds.
fn stream_view<'a>(
    raw: &'a [u8],
    total: u64,
    blocker: Option<&str>,
    options: &pipeline::Request,
) -> (Cow<'a, [u8]>, Option<String>) {
    match blocker {
        Some(reason) => {
            let filtered_was_asked = options.level != Level::Raw && total > 0;
            (
                Cow::Borrowed(raw),
                filtered_was_asked.then(|| reason.to_owned()),
            )
        }
        None => view::render(raw, options),
    }
}

/// What renders stdout's head window while the child runs: only for a stored run whose
/// view may be filtered, since a raw view has no head to write early. The request is the
/// one `window::render` makes after the end, the exit status aside (the head ignores it).
fn early_head(
    handle: Option<Handle>,
    config_broken: bool,
    (level, budget): (Level, usize),
    command: &CommandLine,
    config: &config::Config,
) -> Option<capture::EarlyHead> {
    let handle = handle?.to_string();
    if config_broken || level == Level::Raw {
        return None;
    }
    let (command, settings) = (command.clone(), config.pipeline.clone());
    Some(Box::new(move |path: &std::path::Path| {
        let request = pipeline::Request {
            stream: Stream::Stdout,
            level,
            budget,
            handle: &handle,
            exit_code: 0,
            command: &command,
            settings: &settings,
        };
        match window::head(path, None, &request) {
            Ok(window::Window::Head(head)) => Some(head),
            _ => None,
        }
    }))
}

/// Begin the run's store entry: a fresh handle, and the files its streams go to.
fn begin(
    store: Option<&Store>,
    argv: &[String],
    cwd: &str,
    started_at: SystemTime,
) -> Result<store::Entry> {
    let store = store.context("no store directory: set LENS_STORE or HOME")?;
    let seed = format!(
        "{argv:?}\0{cwd}\0{}\0{}",
        std::process::id(),
        started_at
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos()
    );
    let start = store::Start {
        handle: String::new(),
        argv: argv.to_vec(),
        cwd: cwd.to_owned(),
        started_ms: millis(started_at),
    };
    store.begin(seed.as_bytes(), &start)
}

/// Complete the entry with its `meta.json`. On any failure, now or while the streams were
/// written, the caller discards the entry once the raw output has been written from it.
fn finish(
    store: Option<&Store>,
    entry: Result<(Handle, store::Lease)>,
    captured: &Captured,
    (argv, cwd): (&[String], &str),
    exit: i32,
    started_at: SystemTime,
    (level, budget): (Level, usize),
) -> Result<Handle> {
    let (handle, _lease) = entry?;
    let store = store.context("no store directory: set LENS_STORE or HOME")?;
    let meta = Meta {
        handle: handle.to_string(),
        argv: argv.to_vec(),
        cwd: cwd.to_owned(),
        exit,
        signal: captured.status.code().is_none().then_some(exit - 128),
        started_ms: millis(started_at),
        dur_ms: captured.duration.as_millis() as u64,
        stdout_bytes: captured.stdout_bytes,
        stderr_bytes: captured.stderr_bytes,
        lens_version: env!("CARGO_PKG_VERSION").to_owned(),
        level: Some(level),
        budget: Some(budget),
    };
    match &captured.store_error {
        Some(error) => Err(anyhow::anyhow!("{error}")),
        None => {
            // Without it, `lens show` under `2>&1` writes one view after the other: the
            // order is worth having, not worth failing the entry for.
            let _ = store.write_arrival(handle, &captured.arrival);
            store.finish(handle, &meta).map(|()| handle)
        }
    }
}

/// Write one stream's view, copying a stored file in chunks rather than loading it.
pub(crate) fn emit_view(out: &mut dyn Write, view: &window::View) -> bool {
    match view {
        window::View::Bytes(bytes) => emit(out, bytes),
        window::View::File(path, len) => emit_file(out, path, 0, *len),
        window::View::FileFrom(path, from, to) => emit_file(out, path, *from, *to),
    }
}

/// Copy bytes `from..to` of the file at `path` to `out`.
fn emit_file(out: &mut dyn Write, path: &std::path::Path, from: u64, to: u64) -> bool {
    use std::io::{Seek, SeekFrom};
    match std::fs::File::open(path) {
        Ok(mut file) => file
            .seek(SeekFrom::Start(from))
            .and_then(|_| io::copy(&mut file.take(to.saturating_sub(from)), out))
            .and_then(|_| out.flush())
            .is_ok(),
        Err(_) => false,
    }
}

/// Write `bytes`; a reader that went away (or any other write error) stops lens writing,
/// quietly: the exit status is the child's either way.
pub(crate) fn emit(out: &mut dyn Write, bytes: &[u8]) -> bool {
    out.write_all(bytes).and_then(|()| out.flush()).is_ok()
}

/// Write both views, the stdout view to lens's stdout and the stderr view to its stderr.
/// With `arrival` (lens's two streams are one pipe), their lines go in the order they
/// arrived when both views are held with their lines' offsets; a view copied from its file
/// (raw, and too large to read whole) is written after the other, as with separate pipes,
/// and a windowed one that is filtered keeps its place. An absent view is an empty one.
pub(crate) fn emit_views(
    out: Option<&window::Rendered>,
    err: Option<&window::Rendered>,
    arrival: Option<&[Arrival]>,
) {
    fn side(rendered: Option<&window::Rendered>) -> Option<merge::Side<'_>> {
        match rendered {
            None => Some(merge::Side {
                view: &[],
                starts: &[],
            }),
            Some(window::Rendered {
                view: window::View::Bytes(view),
                starts: Some(starts),
                ..
            }) => Some(merge::Side { view, starts }),
            Some(_) => None,
        }
    }
    if let Some(arrival) = arrival
        && let (Some(out), Some(err)) = (side(out), side(err))
    {
        emit_interleaved(&merge::interleave(out, err, arrival));
        return;
    }
    if let Some(out) = out {
        emit_view(&mut io::stdout().lock(), &out.view);
    }
    if let Some(err) = err {
        emit_view(&mut io::stderr().lock(), &err.view);
    }
}

/// Write merged view lines, each to its own stream, flushing at every switch so a shared
/// pipe receives them in this order. A stream whose reader left is not written again.
fn emit_interleaved(lines: &[(Stream, &[u8])]) {
    let (mut stdout, mut stderr) = (io::stdout().lock(), io::stderr().lock());
    let (mut out_open, mut err_open) = (true, true);
    for run in lines.chunk_by(|a, b| a.0 == b.0) {
        let bytes: Vec<u8> = run
            .iter()
            .flat_map(|(_, line)| line.iter().copied())
            .collect();
        match run[0].0 {
            Stream::Stdout if out_open => out_open = emit(&mut stdout, &bytes),
            Stream::Stderr if err_open => err_open = emit(&mut stderr, &bytes),
            _ => {}
        }
    }
}

/// Words that name shell builtins rather than programs, for a helpful not-found message.
const SHELL_BUILTINS: [&str; 14] = [
    "cd", "export", "source", ".", "alias", "unalias", "set", "unset", "eval", "exec", "ulimit",
    "umask", "shopt", "history",
];

/// The message and status for a command that could not be started: 127 when there is no
/// such program, 126 when it exists but cannot be executed.
fn report_start_failure(program: &OsString, error: &io::Error) -> i32 {
    let program = program.to_string_lossy();
    let (code, what) = match error.kind() {
        io::ErrorKind::NotFound if program.contains(char::is_whitespace) => (
            127,
            "command not found (give the command and its arguments as separate words)".to_owned(),
        ),
        io::ErrorKind::NotFound if SHELL_BUILTINS.contains(&&*program) => (
            127,
            "command not found (a shell builtin: lens runs programs, not shell syntax)".to_owned(),
        ),
        io::ErrorKind::NotFound => (127, "command not found".to_owned()),
        io::ErrorKind::PermissionDenied => (126, "permission denied".to_owned()),
        _ => (126, format!("cannot execute: {error}")),
    };
    eprintln!("lens: {program}: {what}");
    code
}

fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_failures_map_to_127_and_126() {
        let missing = io::Error::from(io::ErrorKind::NotFound);
        assert_eq!(report_start_failure(&"nope".into(), &missing), 127);
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        assert_eq!(report_start_failure(&"./x".into(), &denied), 126);
        assert_eq!(report_start_failure(&"cargo build".into(), &missing), 127);
        assert_eq!(report_start_failure(&"cd".into(), &missing), 127);
    }

    #[test]
    fn emit_reports_a_closed_reader_instead_of_failing() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        assert!(!emit(&mut Closed, b"x"));
        assert!(emit(&mut Vec::new(), b"x"));
    }

    #[test]
    fn without_a_store_directory_there_is_no_entry_to_begin() {
        let error = begin(None, &[], "/", SystemTime::now()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no store directory: set LENS_STORE or HOME"
        );
    }
}
