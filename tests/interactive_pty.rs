//! Exec'd commands get the terminal, captured ones do not: proved under a real
//! pseudo-terminal. util-linux `script` gives lens a pty for stdin, stdout and stderr and
//! copies what reaches it to a pipe we read. The probe is `[ -t 1 ]` in a shell: an
//! interactive shell (`sh -i -c`, which the table exec's) must see a tty on stdout and
//! print straight to it; the same test under `sh -c` (captured) must see a pipe.
//! Every run is bounded by a deadline, so a regression fails instead of hanging.

mod util;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use util::{LENS, TestDir};

const PROBE: &str = "if [ -t 1 ]; then echo tty; else echo notty; fi";

/// Quote `word` for the shell `script -c` hands its command to.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Run lens with `args` under a pseudo-terminal; returns what reached the terminal.
fn under_pty(dir: &TestDir, args: &[&str]) -> String {
    let line: Vec<String> = std::iter::once(LENS)
        .chain(args.iter().copied())
        .map(quote)
        .collect();
    let mut child = Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(&dir.root)
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .env("ENV", "/dev/null") // no startup file for the interactive shell
        .env("PS1", "")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` is installed");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait on script") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`lens {}` under a pty did not finish in 20s",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "script failed: {status}\n{err}\n{out}");
    out
}

#[test]
fn an_execd_command_sees_a_tty_on_stdout() {
    let dir = TestDir::new("pty-exec");
    let shown = under_pty(&dir, &["sh", "-i", "-c", PROBE]);
    // Written by the shell straight to the terminal: only the line discipline's \r added.
    assert_eq!(shown, "tty\r\n");

    let log = dir.log();
    assert_eq!(log.len(), 1, "one run, one record: {log:?}");
    assert_eq!(log[0]["mode"], "exec");
    assert_eq!(log[0]["argv"][1], "-i");
    assert_eq!(log[0]["note"], "interactive shell");
    for absent in ["exit", "dur_ms", "raw", "handle"] {
        assert!(
            log[0].get(absent).is_none(),
            "exec record has {absent}: {:?}",
            log[0]
        );
    }
    let stored = std::fs::read_dir(dir.store()).map_or(0, |entries| entries.count());
    assert_eq!(stored, 0, "an exec'd run stores nothing");
}

#[test]
fn a_captured_command_sees_no_tty_on_stdout() {
    let dir = TestDir::new("pty-capture");
    let shown = under_pty(&dir, &["sh", "-c", PROBE]);
    assert_eq!(shown, "notty\r\n");

    let log = dir.log();
    assert_eq!(log.len(), 1, "one run, one record: {log:?}");
    assert_eq!(log[0]["mode"], "capture");
    let handle = dir.last_handle();
    assert_eq!(dir.show_raw(&handle, false), b"notty\n");
}

#[test]
fn a_wrapped_interactive_command_is_execd_too() {
    let dir = TestDir::new("pty-wrapped");
    let shown = under_pty(&dir, &["env", "LENS_PTY_TEST=1", "sh", "-i", "-c", PROBE]);
    assert_eq!(shown, "tty\r\n");
    assert_eq!(dir.log()[0]["mode"], "exec");
    assert_eq!(dir.log()[0]["note"], "interactive shell");
}
