//! What lens does at the edges of a run, end to end against the built binary: a config
//! that is not a file, a reader that leaves, stdout and stderr that are one pipe, and a
//! store written while the command runs.

mod util;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use util::{TestDir, status_code};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Run `command` to completion, or kill it after `limit` and fail: a hang must show as a
/// red test, not as a suite that never ends.
fn output_within(mut command: Command, limit: Duration) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lens starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_fifo_config_returns_at_once_with_a_raw_run_and_a_logged_reason() {
    let dir = TestDir::new("fifo-config");
    let made = std::process::Command::new("mkfifo")
        .arg(dir.config())
        .status()
        .unwrap();
    assert!(made.success());
    let output = output_within(
        dir.lens(["sh", "-c", "seq 1 3; exit 4"]),
        Duration::from_secs(5),
    );
    assert_eq!(status_code(output.status), 4);
    assert_eq!(text(&output.stdout), "1\n2\n3\n");
    let stderr = text(&output.stderr);
    assert!(stderr.contains("not a regular file (a FIFO)"), "{stderr}");
    let record = dir.log().pop().unwrap();
    assert!(
        record["raw_reason"]["stdout"]
            .as_str()
            .unwrap()
            .contains("a FIFO"),
        "{record}"
    );
}
