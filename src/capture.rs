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
//! The two streams stay apart, but the order in which their bytes arrived is recorded:
//! each read appends which stream it was and how many bytes it brought to one shared
//! [`Arrival`] list, consecutive reads of one stream merged into one entry, so the list
//! grows with the number of times the child switched streams, not with its output. Two
//! pipes read by two threads cannot say more precisely which byte came first than the
//! order in which the reads returned; a child that writes both streams within one
//! scheduler tick may be recorded either way round.

use crate::block::Stream;
use crate::platform::{self, AsPipe, Ready};
use std::io::{self, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long lens waits for the pipes to close after the child has exited.
pub const EOF_GRACE: Duration = Duration::from_millis(200);

/// What a captured run produced.
#[derive(Debug)]
pub struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: ExitStatus,
    /// Some descendant still held a pipe open when lens stopped reading.
    pub pipes_held_open: bool,
    /// The reader of lens's stdout left while the child ran; reading stdout stopped there.
    pub reader_left: bool,
    /// The order the bytes of both streams arrived in.
    pub arrival: Vec<Arrival>,
    pub duration: Duration,
}

/// A run of bytes that arrived on one stream before the other stream brought any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    pub stream: Stream,
    pub bytes: usize,
}

/// The shared arrival list both drains append to.
type ArrivalLog = Arc<Mutex<Vec<Arrival>>>;

fn record_arrival(log: &ArrivalLog, stream: Stream, bytes: usize) {
    let mut log = log.lock().expect("arrival lock");
    match log.last_mut() {
        Some(last) if last.stream == stream => last.bytes += bytes,
        _ => log.push(Arrival { stream, bytes }),
    }
}

/// Spawn `command` with piped stdout and stderr. `on_spawn` runs with the child's pid as
/// soon as it exists (the runner installs signal forwarding there).
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::inherit())
        .spawn()
}

/// Drain both pipes of a spawned child and wait for it.
pub fn collect(mut child: Child, started: Instant) -> io::Result<Captured> {
    let arrival = ArrivalLog::default();
    let stdout = Drain::start(
        child.stdout.take().expect("stdout is piped"),
        Stream::Stdout,
        &arrival,
    );
    let stderr = Drain::start(
        child.stderr.take().expect("stderr is piped"),
        Stream::Stderr,
        &arrival,
    );
    let status = child.wait()?;
    let duration = started.elapsed();
    let deadline = Instant::now() + EOF_GRACE;
    let reader_left = Arc::clone(&stdout.reader_left);
    let (stdout, out_closed) = stdout.finish(deadline);
    let (stderr, err_closed) = stderr.finish(deadline);
    Ok(Captured {
        stdout,
        stderr,
        status,
        pipes_held_open: !(out_closed && err_closed),
        reader_left: reader_left.load(Ordering::SeqCst),
        arrival: std::mem::take(&mut *arrival.lock().expect("arrival lock")),
        duration,
    })
}

/// One pipe being read to EOF on its own thread.
struct Drain {
    buffer: Arc<Mutex<Vec<u8>>>,
    reader_left: Arc<AtomicBool>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    /// Read `pipe`, the child's `stream`, on a new thread, recording each read in
    /// `arrival`. The stdout drain stops (closing the pipe) as soon as the reader of
    /// lens's stdout leaves.
    fn start(
        mut pipe: impl Read + AsPipe + Send + 'static,
        stream: Stream,
        arrival: &ArrivalLog,
    ) -> Drain {
        let mut watch_reader = stream == Stream::Stdout;
        let arrival = Arc::clone(arrival);
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let reader_left = Arc::new(AtomicBool::new(false));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&buffer);
        let left = Arc::clone(&reader_left);
        thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                if watch_reader {
                    match platform::wait_for_input(&pipe) {
                        Ok(Ready::Input) => {}
                        Ok(Ready::ReaderLeft) => {
                            left.store(true, Ordering::SeqCst);
                            break;
                        }
                        Ok(Ready::Unwatchable) | Err(_) => watch_reader = false,
                    }
                }
                match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        // Appended under the buffer's lock, so the arrival list never
                        // counts a byte that the buffer does not hold yet.
                        let mut buffer = shared.lock().expect("reader lock");
                        buffer.extend_from_slice(&chunk[..n]);
                        record_arrival(&arrival, stream, n);
                    }
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            // Dropping the pipe here closes lens's end: after a reader left, that is what
            // makes the child's next write raise SIGPIPE.
            drop(pipe);
            let _ = tx.send(());
        });
        Drain {
            buffer,
            reader_left,
            done,
        }
    }

    /// Wait for EOF until `deadline`; return the bytes read and whether EOF came.
    fn finish(self, deadline: Instant) -> (Vec<u8>, bool) {
        let timeout = deadline.saturating_duration_since(Instant::now());
        let closed = self.done.recv_timeout(timeout).is_ok();
        let bytes = match Arc::try_unwrap(self.buffer) {
            // The reader finished and dropped its reference: take the buffer without a copy.
            Ok(mutex) => mutex.into_inner().expect("reader lock"),
            // The reader is still blocked on a pipe a grandchild holds: take what it has.
            Err(shared) => std::mem::take(&mut *shared.lock().expect("reader lock")),
        };
        (bytes, closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(script: &str) -> Captured {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        collect(spawn(&mut command).unwrap(), Instant::now()).unwrap()
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
    fn exit_status_comes_back() {
        assert_eq!(run("exit 3").status.code(), Some(3));
    }
}
