//! Run the child with both output pipes captured, each drained on its own thread.
//!
//! A child blocks as soon as either pipe's buffer fills, so reading stdout to the end
//! before touching stderr hangs any chatty build; a thread per pipe never does, whatever
//! the child writes in whatever order. stdin is the caller's, untouched. Bytes are kept
//! exactly as read: nothing is decoded here.
//!
//! A grandchild that inherits a pipe (`sh -c 'server & echo started'`) keeps it open after
//! the child exits, and EOF would not come until the grandchild exits too, possibly never.
//! lens waits for the child, then gives the pipes [`EOF_GRACE`] to reach EOF, then stops
//! reading and reports what it has, noting it in the run's log record. The grandchild
//! keeps running; once lens exits, its further writes to that pipe fail with EPIPE, as
//! they would if its parent had closed the pipe itself.
//!
//! A reader of lens's stdout that leaves while the child still runs (`lens producer |
//! head -c 100`, a harness that gave up) is noticed without writing to it: the stdout
//! drain waits in [`platform::wait_for_input`], which also wakes when lens's stdout
//! reports its reader gone. The drain then stops and closes its end of the child's stdout
//! pipe, so the child's next write to stdout raises SIGPIPE, exactly what the pipe to the
//! departed reader would have done without lens in between: a producer dies of it, a
//! child that ignores SIGPIPE gets EPIPE, and one that does not write to stdout again runs
//! on, as it would have. lens then finishes as usual and exits with the child's status
//! (141 for a death by SIGPIPE). A signal is not sent instead, because it would also end
//! a child that was never going to write again. What was read before is kept and stored.
//!
//! Each read goes to the store as it arrives: the runner hands [`collect`] the entry's
//! `stdout` and `stderr` files ([`Sinks`]) and each drain appends its reads there before
//! anything else, so a lens killed mid-run leaves in the store every byte it read. The
//! drains hold nothing in memory: the view is rendered from the stored files afterwards
//! (see `window`), and they only count each stream's bytes and newlines. When there is no
//! store to write (no sinks, or a write to one fails), the view will be raw: both drains
//! then write what the file holds so far, and every later read, straight through to lens's
//! own stdout and stderr as it arrives. Either way lens holds at most one [`CHUNK`] per
//! stream while the command runs, whatever it prints.
//!
//! A raw view (level 3) has nothing to wait for, so the runner asks for a `live` run:
//! both drains write each read to lens's own stdout and stderr as it arrives, once it is
//! in the store, as a prompt's passthrough does below. A reader that waits for a first
//! line (`lens --level 3 producer | head -1`) gets it at once and leaves, and the
//! reader-left path above ends the producer, as it would end without lens. Under `2>&1`
//! the two drains' writes reach the one pipe in the order their reads returned, which is
//! the arrival order as recorded below.
//!
//! A prompt on a terminal (`read -p`, `input()`) must be seen before it is answered. When
//! lens's stdin and a stream's destination are both terminals and that stream goes quiet
//! for [`PROMPT_QUIET`] after a partial line, lens gives the run the terminal: both drains
//! write what the store holds so far, then every later read, straight through, and keep
//! storing it. The runner then shows nothing more (nothing is shown twice) and logs the
//! run as passed through. A drain on a terminal wakes every [`PROMPT_QUIET`]/3 to notice
//! that the other stream gave the terminal. Off a terminal none of this happens: a pipe's
//! reader cannot answer a prompt anyway.
//!
//! A stdout past what is filtered whole (`window::is_windowed`) has a head window whose
//! view no longer depends on anything that follows. The runner hands [`collect`] an
//! [`EarlyHead`] that renders it; the stdout drain calls it once, right after the read
//! that crossed the bound, and writes that view to lens's stdout while the child still
//! runs. A reader such as `head -1` gets its lines, leaves, and the reader-left path above
//! ends the child; without this, `lens <endless producer> | head -1` never ended, as lens
//! wrote nothing before the child did. The render runs on a thread of its own while the
//! drain reads on, so arrival keeps being recorded as it happens (see [`write_head`]); the
//! drain waits for it before it reports EOF. A passthrough that starts later (a prompt, a
//! failed store) copies only what followed the head; one that starts while the head is
//! rendered copies the whole stream, and the head is then not written.
//!
//! Under `2>&1` the head's view may not all go first: a stderr line that arrived before
//! one of the head's lines must come out before it. Which stderr lines will be in
//! stderr's view is not known until stderr ends, but none of them comes before stderr's
//! first byte, so the drain writes the head's lines that arrived before that byte
//! ([`merge::stdout_first`]) and leaves the rest of the head to the runner's merge at the
//! end (`Head::written` says how far it got). A producer that writes to stdout first is
//! still ended by `2>&1 | head -1`; one that wrote to stderr first is not, since the line
//! owed first is stderr's, whose view only exists once the command has ended. A raw run
//! (level 3) is live instead, and has no such wait. A later passthrough resumes at the
//! first raw line of the head not yet written (`Head::resume_at`).
//!
//! When lens's stderr is a terminal, a run that lasts past [`STATUS_AFTER`] gets a live
//! status on it: one line, `lens: 3s, 1.2 MiB, 52311 lines captured`, redrawn every
//! [`STATUS_EVERY`] by its own thread, from counters the drains add to. A person waiting on
//! a quiet build sees it is alive; a fast command never flickers. It is erased (carriage
//! return, clear to end of line) and stops for good before lens writes anything else of
//! the run: a passthrough, stdout's early head, or, once the child has ended, the views.
//! It is never written to stdout, and never when stderr is not a terminal: in a pipe or a
//! file it would be bytes the command did not print.
//!
//! The two streams stay apart, but the order in which their bytes arrived is recorded:
//! each read appends which stream it was and how many bytes it brought to one shared
//! [`Arrival`] list, consecutive reads of one stream merged into one entry, so the list
//! grows with the number of times the child switched streams, not with its output. Two
//! pipes read by two threads cannot say more precisely which byte came first than the
//! order in which the reads returned; a child that writes both streams within one
//! scheduler tick may be recorded either way round.

use crate::block::Stream;
use crate::merge;
use crate::platform::{self, AsPipe, Ready};
use crate::window;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long lens waits for the pipes to close after the child has exited.
pub const EOF_GRACE: Duration = Duration::from_millis(200);

/// The size of one read; also all lens holds of a stream once it passes through.
pub const CHUNK: usize = 64 * 1024;

/// How long a terminal stream may stay quiet after a partial line before lens takes it
/// for a prompt and gives the run the terminal.
pub const PROMPT_QUIET: Duration = Duration::from_millis(300);

/// How long a run lasts before the live status is drawn, and how often it is redrawn.
pub const STATUS_AFTER: Duration = Duration::from_secs(1);
pub const STATUS_EVERY: Duration = Duration::from_millis(250);

/// Carriage return, then clear to the end of the line: what erases the status.
const ERASE: &[u8] = b"\r\x1b[K";

/// What a captured run produced.
#[derive(Debug)]
pub struct Captured {
    /// The bytes lens holds in memory: none while the store is written (they are in its
    /// files), and none once they pass through; only the unit tests' runs hold them.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// How many bytes and newlines each stream brought in all.
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    pub stdout_newlines: u64,
    pub stderr_newlines: u64,
    /// The store could not be written, a prompt gave the run the terminal, or the run was
    /// live: from then on both streams were written through to lens's own stdout and
    /// stderr as they arrived, and are not held above.
    pub passed_through: bool,
    /// A prompt on a terminal made the run pass through (and still be stored).
    pub gave_terminal: bool,
    /// Why the store's files could not be written, if they could not.
    pub store_error: Option<String>,
    pub status: ExitStatus,
    /// Some descendant still held a pipe open when lens stopped reading.
    pub pipes_held_open: bool,
    /// The reader of lens's stdout left while the child ran; reading stdout stopped there.
    pub reader_left: bool,
    /// The order the bytes of both streams arrived in.
    pub arrival: Vec<Arrival>,
    pub duration: Duration,
    /// The head window's view of stdout, written to lens's stdout while the child ran as
    /// far as its `written` says.
    pub stdout_head: Option<window::Head>,
}

/// A run of bytes that arrived on one stream before the other stream brought any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub stream: Stream,
    pub bytes: usize,
}

/// One stream's store file, appended to as bytes arrive, and its path (to read it back).
pub type Sink = (File, PathBuf);
/// The store's files for stdout and stderr.
pub type Sinks = (Sink, Sink);

/// Renders the head window of the stored stdout file it is given, once stdout is past
/// what is filtered whole ([`window::is_windowed`]); `None` leaves the view to the end.
pub type EarlyHead = Box<dyn FnOnce(&Path) -> Option<window::Head> + Send>;

/// What both drains share.
#[derive(Default)]
struct Shared {
    arrival: Mutex<Vec<Arrival>>,
    /// Set once a sink failed (or there were none): both drains then pass through.
    store_failed: AtomicBool,
    /// Which of lens's stdout and stderr are terminals, with stdin one too.
    terminal: [bool; 2],
    /// Set once a prompt went quiet on a terminal: both drains then pass through, and
    /// keep storing.
    give_terminal: AtomicBool,
    /// The view is the raw output: both drains pass through from the first read, and
    /// keep storing.
    live: bool,
    /// lens's stdout and stderr are one file or pipe (`2>&1`): stdout's early head is
    /// written only as far as it came before anything on stderr.
    merged: bool,
    store_error: Mutex<Option<String>>,
    status: Status,
}

/// The live status: what both streams brought so far, and whether its line is on the
/// terminal (`drawn`) or has stopped for good (`stopped`).
#[derive(Default)]
struct Status {
    bytes: AtomicU64,
    lines: AtomicU64,
    line: Mutex<StatusLine>,
}

#[derive(Default)]
struct StatusLine {
    drawn: bool,
    stopped: bool,
}

impl Status {
    fn add(&self, bytes: &[u8]) {
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        self.lines.fetch_add(lines, Ordering::Relaxed);
    }

    /// Draw the status for a run `elapsed` long, unless it has stopped.
    fn draw(&self, elapsed: Duration) {
        let mut line = self.line.lock().expect("status lock");
        if line.stopped {
            return;
        }
        let text = status_text(
            elapsed,
            self.bytes.load(Ordering::Relaxed),
            self.lines.load(Ordering::Relaxed),
        );
        line.drawn = crate::runner::emit(&mut io::stderr().lock(), text.as_bytes());
    }

    /// Erase the status if it is drawn, and draw it no more.
    fn stop(&self) {
        let mut line = self.line.lock().expect("status lock");
        if line.drawn {
            crate::runner::emit(&mut io::stderr().lock(), ERASE);
        }
        *line = StatusLine {
            drawn: false,
            stopped: true,
        };
    }
}

/// The status line, starting with [`ERASE`] so that each drawing replaces the last.
fn status_text(elapsed: Duration, bytes: u64, lines: u64) -> String {
    let size = match bytes {
        0..1024 => format!("{bytes} B"),
        1024..0x10_0000 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20)),
    };
    format!(
        "\r\x1b[Klens: {}s, {size}, {lines} line{} captured",
        elapsed.as_secs(),
        if lines == 1 { "" } else { "s" }
    )
}

/// Draw the status every [`STATUS_EVERY`] once the run is [`STATUS_AFTER`] old, on its own
/// thread, until the returned sender is dropped.
fn draw_status(
    shared: &Arc<Shared>,
    started: Instant,
) -> (mpsc::Sender<()>, thread::JoinHandle<()>) {
    let shared = Arc::clone(shared);
    let (stop, stopped) = mpsc::channel::<()>();
    let drawer = thread::spawn(move || {
        while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(STATUS_EVERY) {
            let elapsed = started.elapsed();
            if elapsed >= STATUS_AFTER {
                shared.status.draw(elapsed);
            }
        }
    });
    (stop, drawer)
}

impl Shared {
    fn record_arrival(&self, stream: Stream, bytes: usize) {
        let mut log = self.arrival.lock().expect("arrival lock");
        match log.last_mut() {
            Some(last) if last.stream == stream => last.bytes += bytes,
            _ => log.push(Arrival { stream, bytes }),
        }
    }

    fn fail_store(&self, error: String) {
        self.store_error
            .lock()
            .expect("store error lock")
            .get_or_insert(error);
        self.store_failed.store(true, Ordering::SeqCst);
    }
}

/// Spawn `command` with piped stdout and stderr.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::inherit())
        .spawn()
}

/// Drain both pipes of a spawned child into `sinks` (and memory) and wait for it. Without
/// sinks, or once one fails, both streams pass straight through to lens's own; with
/// `live` (the view is the raw output), they pass through from the first read and are
/// still stored. Once stdout is windowed, `early` renders its head, which is written to
/// lens's stdout then.
pub fn collect(
    child: Child,
    started: Instant,
    sinks: Option<Sinks>,
    early: Option<EarlyHead>,
    live: bool,
) -> io::Result<Captured> {
    collect_into(child, started, sinks, early, live, false)
}

/// [`collect`]; with `hold`, the drains also keep every byte in memory (unit tests).
fn collect_into(
    mut child: Child,
    started: Instant,
    sinks: Option<Sinks>,
    early: Option<EarlyHead>,
    live: bool,
    hold: bool,
) -> io::Result<Captured> {
    use std::io::IsTerminal;
    let stdin = io::stdin().is_terminal();
    let shared = Arc::new(Shared {
        terminal: [
            stdin && io::stdout().is_terminal(),
            stdin && io::stderr().is_terminal(),
        ],
        live,
        merged: platform::stdout_is_stderr(),
        ..Shared::default()
    });
    let (out_sink, err_sink) = match sinks {
        Some((out, err)) => (Some(out), Some(err)),
        None => {
            shared.store_failed.store(true, Ordering::SeqCst);
            (None, None)
        }
    };
    let stdout = Drain::start(
        child.stdout.take().expect("stdout is piped"),
        Stream::Stdout,
        out_sink,
        early,
        hold,
        &shared,
    );
    let stderr = Drain::start(
        child.stderr.take().expect("stderr is piped"),
        Stream::Stderr,
        err_sink,
        None,
        hold,
        &shared,
    );
    let drawer = io::stderr()
        .is_terminal()
        .then(|| draw_status(&shared, started));
    let waited = child.wait();
    let duration = started.elapsed();
    let deadline = Instant::now() + EOF_GRACE;
    let reader_left = Arc::clone(&stdout.reader_left);
    let (mut stdout, out_closed) = stdout.finish(deadline);
    let (stderr, err_closed) = stderr.finish(deadline);
    // Erased before the runner writes the views.
    shared.status.stop();
    if let Some((stop, drawer)) = drawer {
        drop(stop);
        let _ = drawer.join();
    }
    let status = waited?;
    let store_error = shared.store_error.lock().expect("store error lock").clone();
    Ok(Captured {
        passed_through: stdout.passed || stderr.passed,
        gave_terminal: shared.give_terminal.load(Ordering::SeqCst),
        stdout_bytes: stdout.total,
        stderr_bytes: stderr.total,
        stdout_newlines: stdout.newlines,
        stderr_newlines: stderr.newlines,
        stdout: stdout.bytes,
        stderr: stderr.bytes,
        store_error,
        status,
        pipes_held_open: !(out_closed && err_closed),
        reader_left: reader_left.load(Ordering::SeqCst),
        arrival: std::mem::take(&mut *shared.arrival.lock().expect("arrival lock")),
        duration,
        stdout_head: stdout.head.take(),
    })
}

/// What one drain has read.
#[derive(Default)]
struct Held {
    /// Bytes held in memory: only with `hold` (and then until they pass through).
    bytes: Vec<u8>,
    total: u64,
    newlines: u64,
    passed: bool,
    /// Set once lens stopped waiting for this pipe: nothing more is recorded or stored.
    stopped: bool,
    /// The head window's view, once written; a later passthrough resumes past what of it
    /// was written.
    head: Option<window::Head>,
    /// The head window is being rendered: `finish` waits for it, however long the child
    /// has been gone, since its view is yet to be written.
    rendering: bool,
}

/// One pipe being read to EOF on its own thread.
struct Drain {
    held: Arc<Mutex<Held>>,
    reader_left: Arc<AtomicBool>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    /// Read `pipe`, the child's `stream`, on a new thread: each read goes to `sink`, to
    /// memory, and into the shared arrival list. The stdout drain stops (closing the pipe)
    /// as soon as the reader of lens's stdout leaves.
    fn start(
        mut pipe: impl Read + AsPipe + Send + 'static,
        stream: Stream,
        mut sink: Option<Sink>,
        mut early: Option<EarlyHead>,
        hold: bool,
        shared: &Arc<Shared>,
    ) -> Drain {
        let mut watch_reader = stream == Stream::Stdout;
        let shared = Arc::clone(shared);
        let held = Arc::new(Mutex::new(Held::default()));
        let reader_left = Arc::new(AtomicBool::new(false));
        let (tx, done) = mpsc::channel();
        let mine = Arc::clone(&held);
        let left = Arc::clone(&reader_left);
        let on_terminal = shared.terminal[usize::from(stream == Stream::Stderr)];
        let any_terminal = shared.terminal.iter().any(|&t| t);
        thread::spawn(move || {
            let mut chunk = vec![0u8; CHUNK];
            let mut out = Passthrough::new(stream, Arc::clone(&shared));
            // The last read ended inside a line: the child may be waiting at a prompt.
            let mut partial = false;
            let mut renderer = None;
            loop {
                let passed = mine.lock().expect("reader lock").passed;
                let timeout = match () {
                    _ if passed || !any_terminal => None,
                    _ if on_terminal && partial => Some(PROMPT_QUIET),
                    // Wake now and then to see whether the other stream gave the terminal.
                    _ => Some(PROMPT_QUIET / 3),
                };
                if watch_reader || timeout.is_some() {
                    match platform::wait_for_input(&pipe, watch_reader, timeout) {
                        Ok(Ready::Input) => {}
                        Ok(Ready::ReaderLeft) => {
                            left.store(true, Ordering::SeqCst);
                            break;
                        }
                        Ok(Ready::Quiet) => {
                            if on_terminal && partial {
                                shared.give_terminal.store(true, Ordering::SeqCst);
                            }
                            let mut held = mine.lock().expect("reader lock");
                            if held.stopped {
                                break;
                            }
                            pass_if_asked(&shared, &mut held, &mut sink, &mut out);
                            continue;
                        }
                        Ok(Ready::Unwatchable) | Err(_) => watch_reader = false,
                    }
                }
                let n = match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let bytes = &chunk[..n];
                partial = bytes.last() != Some(&b'\n');
                // Under the lock, so the arrival list never counts a byte not yet held,
                // and `finish` never takes a count while a read is half recorded. Its
                // arrival is recorded first, before the work on it: a stream recorded
                // after that work was behind the other by it.
                let mut held = mine.lock().expect("reader lock");
                if held.stopped {
                    break;
                }
                shared.record_arrival(stream, n);
                if let Some((file, _)) = &mut sink
                    && let Err(error) = file.write_all(bytes)
                {
                    shared.fail_store(format!(
                        "failed to write the {} file: {error}",
                        stream.name()
                    ));
                }
                // What is in the file (all but this read) goes out first, then the rest.
                pass_if_asked(&shared, &mut held, &mut sink, &mut out);
                if held.passed {
                    out.write(bytes);
                } else if hold {
                    held.bytes.extend_from_slice(bytes);
                }
                held.total += n as u64;
                held.newlines += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                shared.status.add(bytes);
                // The head window is fixed once the stream is windowed: its view can be
                // written now, so a reader such as `head -1` gets its lines and may leave.
                if early.is_some()
                    && !held.passed
                    && window::is_windowed(held.total, held.newlines)
                    && let (Some(render), Some((_, path))) = (early.take(), &sink)
                {
                    held.rendering = true;
                    renderer = Some(write_head(render, path.clone(), &mine, &shared));
                }
            }
            // Dropping the pipe here closes lens's end: after a reader left, that is what
            // makes the child's next write raise SIGPIPE.
            drop(pipe);
            if let Some(renderer) = renderer {
                let _ = renderer.join();
            }
            let _ = tx.send(());
        });
        Drain {
            held,
            reader_left,
            done,
        }
    }

    /// Wait for EOF until `deadline`; return what was read and whether EOF came.
    fn finish(self, mut deadline: Instant) -> (Held, bool) {
        let closed = loop {
            let timeout = deadline.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(timeout).is_ok() {
                break true;
            }
            let mut held = self.held.lock().expect("reader lock");
            if held.rendering {
                // The grace starts again once the head is out: a child that exited while
                // it was rendered left the rest of its output in the pipe.
                drop(held);
                thread::sleep(Duration::from_millis(10));
                deadline = Instant::now() + EOF_GRACE;
                continue;
            }
            // A drain still blocked on a pipe a grandchild holds must not add to the
            // store's file after its size has been taken for meta.json.
            held.stopped = true;
            break false;
        };
        self.held.lock().expect("reader lock").stopped = true;
        let held = match Arc::try_unwrap(self.held) {
            // The reader finished and dropped its reference: take the buffer without a copy.
            Ok(mutex) => mutex.into_inner().expect("reader lock"),
            // The reader is still blocked on a pipe a grandchild holds: take what it has.
            Err(shared) => std::mem::take(&mut *shared.lock().expect("reader lock")),
        };
        (held, closed)
    }
}

/// Render the head window of the stdout file at `path` and write its view, on a thread of
/// its own, so that the drain reads on meanwhile: a drain that stopped for the render let
/// stdout pile up in its pipe while stderr was still read at once, and recorded a stderr
/// line the child wrote after that output as arriving before it (under `2>&1`,
/// `seq 1 135000; echo err >&2` put `err` before stdout's tail). Nothing is written once
/// the drain has stopped or started passing through.
fn write_head(
    render: EarlyHead,
    path: PathBuf,
    held: &Arc<Mutex<Held>>,
    shared: &Arc<Shared>,
) -> thread::JoinHandle<()> {
    let (held, shared) = (Arc::clone(held), Arc::clone(shared));
    thread::spawn(move || {
        let head = render(&path);
        let mut held = held.lock().expect("reader lock");
        held.rendering = false;
        let Some(mut head) = head.filter(|_| !held.stopped && !held.passed) else {
            return;
        };
        // Under `2>&1`, stderr's lines are placed from its first byte on, so what of the
        // head came after it waits for the merge.
        let clear = match shared.merged {
            true => merge::stdout_first(&shared.arrival.lock().expect("arrival lock")),
            false => u64::MAX,
        };
        head.written = merge::prefix_before(&head.view, &head.starts, clear);
        Passthrough::new(Stream::Stdout, Arc::clone(&shared)).write(&head.view[..head.written]);
        held.head = Some(head);
    })
}

/// Start passing through if the store failed, a prompt gave the run the terminal, or the
/// run is live: what the file holds of this stream (or memory, in tests) is written
/// first. A failed store is written no more; a terminal or live run keeps being stored.
fn pass_if_asked(shared: &Shared, held: &mut Held, sink: &mut Option<Sink>, out: &mut Passthrough) {
    let failed = shared.store_failed.load(Ordering::SeqCst);
    let asked = failed || shared.live || shared.give_terminal.load(Ordering::SeqCst);
    if held.passed || !asked {
        return;
    }
    held.passed = true;
    if let Some((_, path)) = sink.as_ref() {
        let from = held.head.as_ref().map_or(0, window::Head::resume_at);
        out.copy_from(path, from, held.total);
    }
    if failed {
        *sink = None;
    }
    out.write(&std::mem::take(&mut held.bytes));
}

/// lens's own stdout or stderr, for bytes passed through; a failed write stops it quietly.
struct Passthrough {
    stream: Stream,
    open: bool,
    shared: Arc<Shared>,
}

impl Passthrough {
    fn new(stream: Stream, shared: Arc<Shared>) -> Passthrough {
        Passthrough {
            stream,
            open: true,
            shared,
        }
    }

    /// Pass through bytes `from..to` of the file at `path`, in chunks.
    fn copy_from(&mut self, path: &Path, from: u64, to: u64) {
        use std::io::{Seek, SeekFrom};
        let Ok(mut file) = File::open(path) else {
            return;
        };
        if file.seek(SeekFrom::Start(from)).is_err() {
            return;
        }
        let mut file = file.take(to.saturating_sub(from));
        let mut chunk = vec![0u8; CHUNK];
        while let Ok(n) = file.read(&mut chunk) {
            if n == 0 {
                break;
            }
            self.write(&chunk[..n]);
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if !self.open || bytes.is_empty() {
            return;
        }
        self.shared.status.stop();
        self.open = match self.stream {
            Stream::Stdout => crate::runner::emit(&mut io::stdout().lock(), bytes),
            Stream::Stderr => crate::runner::emit(&mut io::stderr().lock(), bytes),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sinks in a fresh temporary directory, as the store would hand them over.
    fn sinks(name: &str) -> (Sinks, PathBuf) {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("lens-capture-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let sink = |name: &str| (File::create(dir.join(name)).unwrap(), dir.join(name));
        ((sink("stdout"), sink("stderr")), dir)
    }

    fn run(script: &str) -> Captured {
        let (sinks, dir) = sinks("run");
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        let captured = collect_into(
            spawn(&mut command).unwrap(),
            Instant::now(),
            Some(sinks),
            None,
            false,
            true,
        )
        .unwrap();
        // What reached the files is exactly what was held.
        if !captured.pipes_held_open {
            assert_eq!(std::fs::read(dir.join("stdout")).unwrap(), captured.stdout);
            assert_eq!(std::fs::read(dir.join("stderr")).unwrap(), captured.stderr);
        }
        std::fs::remove_dir_all(&dir).unwrap();
        captured
    }

    #[test]
    fn each_read_reaches_its_file_before_the_child_ends() {
        let (sinks, dir) = sinks("through");
        let mut command = Command::new("sh");
        command.args(["-c", "echo one; echo err >&2; sleep 2; echo two"]);
        let child = spawn(&mut command).unwrap();
        let reader = thread::spawn(move || {
            collect(child, Instant::now(), Some(sinks), None, false).unwrap()
        });
        thread::sleep(Duration::from_millis(800));
        assert_eq!(std::fs::read(dir.join("stdout")).unwrap(), b"one\n");
        assert_eq!(std::fs::read(dir.join("stderr")).unwrap(), b"err\n");
        let captured = reader.join().unwrap();
        assert_eq!(std::fs::read(dir.join("stdout")).unwrap(), b"one\ntwo\n");
        assert!(captured.stdout.is_empty(), "nothing is held in memory");
        assert_eq!((captured.stdout_bytes, captured.stderr_bytes), (8, 4));
        assert_eq!((captured.stdout_newlines, captured.stderr_newlines), (2, 1));
        assert!(!captured.passed_through && captured.store_error.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn streams_stay_separate() {
        let captured = run("echo out; echo err >&2; echo out2");
        assert_eq!(captured.stdout, b"out\nout2\n");
        assert_eq!(captured.stderr, b"err\n");
        assert!(captured.status.success());
        assert!(!captured.pipes_held_open);
    }

    #[test]
    fn a_full_stderr_pipe_does_not_deadlock_stdout() {
        // 1 MiB on stderr before anything on stdout: a single reader would block forever.
        let captured = run("head -c 1048576 /dev/zero >&2; echo done");
        assert_eq!(captured.stderr.len(), 1 << 20);
        assert_eq!(captured.stdout, b"done\n");
    }

    #[test]
    fn invalid_utf8_is_kept_byte_for_byte() {
        let captured = run("printf '\\377\\376a\\0b'");
        assert_eq!(captured.stdout, b"\xff\xfea\0b");
    }

    #[test]
    fn a_grandchild_holding_the_pipe_does_not_hold_lens() {
        let started = Instant::now();
        let captured = run("sleep 5 & echo started");
        assert_eq!(captured.stdout, b"started\n");
        assert!(captured.pipes_held_open);
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "waited for the grandchild"
        );
    }

    #[test]
    fn arrival_order_is_recorded_per_switch_of_stream() {
        let captured = run("echo a; sleep 0.1; echo bb >&2; sleep 0.1; echo c; echo d");
        let order: Vec<(Stream, usize)> = captured
            .arrival
            .iter()
            .map(|a| (a.stream, a.bytes))
            .collect();
        assert_eq!(
            order,
            [
                (Stream::Stdout, 2),
                (Stream::Stderr, 3),
                (Stream::Stdout, 4)
            ]
        );
    }

    #[test]
    fn stdout_is_read_on_while_its_head_is_rendered() {
        // Stdout crosses the window's line bound, then ends inside the pipe's buffer while
        // the head renders, then the child writes to stderr: a drain that waited for the
        // render recorded `err` before the rest of stdout, and so before its tail under
        // `2>&1`.
        let (sinks, dir) = sinks("render");
        let mut command = Command::new("sh");
        let script = "seq 1 131073; sleep 0.3; seq 131074 135000; sleep 0.3; echo err >&2";
        command.args(["-c", script]);
        let slow: EarlyHead = Box::new(|_| {
            thread::sleep(Duration::from_millis(1500));
            None
        });
        let captured = collect_into(
            spawn(&mut command).unwrap(),
            Instant::now(),
            Some(sinks),
            Some(slow),
            false,
            false,
        )
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(captured.stdout_bytes, 833_895, "`seq 1 135000 | wc -c`");
        assert_eq!(
            captured.arrival.last(),
            Some(&Arrival {
                stream: Stream::Stderr,
                bytes: 4
            }),
            "{:?}",
            captured.arrival
        );
    }

    #[test]
    fn the_status_says_time_size_and_lines_and_replaces_itself() {
        let text = status_text(Duration::from_millis(3400), 1_258_291, 52_311);
        assert_eq!(text, "\r\x1b[Klens: 3s, 1.2 MiB, 52311 lines captured");
        assert!(status_text(Duration::ZERO, 2, 1).ends_with(": 0s, 2 B, 1 line captured"));
        assert!(status_text(Duration::ZERO, 2048, 0).contains(" 2.0 KiB, 0 lines"));
    }

    #[test]
    fn exit_status_comes_back() {
        assert_eq!(run("exit 3").status.code(), Some(3));
    }
}
