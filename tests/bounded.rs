//! What lens does at the edges of a run, end to end against the built binary: a config
//! that is not a file, a reader that leaves, stdout and stderr that are one pipe, and a
//! store written while the command runs.

mod util;

use std::os::unix::process::CommandExt;
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

/// Start lens on `script` with its stdout a pipe that is closed at once, as `| true` or a
/// reader that gave up would; return lens's status and how long it took, killing it past
/// `limit`.
fn run_with_departed_reader(
    dir: &TestDir,
    script: &str,
    limit: Duration,
) -> (i32, Duration, String) {
    let started = Instant::now();
    let mut child = dir
        .lens(["sh", "-c", script])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lens starts");
    drop(child.stdout.take());
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("lens still running {limit:?} after its reader left");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    (
        status_code(output.status),
        started.elapsed(),
        text(&output.stderr),
    )
}

#[test]
fn a_reader_that_leaves_ends_an_endless_producer_with_sigpipe() {
    let dir = TestDir::new("reader-left");
    let (status, took, stderr) =
        run_with_departed_reader(&dir, "while :; do echo y; done", Duration::from_secs(10));
    assert_eq!(
        status,
        128 + 13,
        "the shell dies of SIGPIPE, as it would bare"
    );
    assert_eq!(stderr, "", "a closed pipe is quiet");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["exit"], 141);
    assert!(
        record["note"]
            .as_str()
            .unwrap()
            .contains("stdout reader left"),
        "{record}"
    );
}

#[test]
fn a_child_that_ignores_sigpipe_gets_epipe_and_chooses_its_status() {
    // What the bare pipeline does to such a child: its write fails, and it decides.
    let dir = TestDir::new("reader-left-epipe");
    let script = "trap '' PIPE; while echo y; do :; done; exit 7";
    let (status, took, stderr) = run_with_departed_reader(&dir, script, Duration::from_secs(10));
    assert_eq!(status, 7);
    assert!(
        stderr.contains("I/O error"),
        "the shell's own EPIPE message: {stderr}"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn a_child_that_no_longer_writes_to_stdout_runs_on_after_the_reader_left() {
    // The bare pipeline would not end it either: nothing is written to the closed pipe.
    let dir = TestDir::new("reader-left-quiet");
    let (status, took, stderr) = run_with_departed_reader(
        &dir,
        "sleep 1; echo done >&2; exit 3",
        Duration::from_secs(10),
    );
    assert_eq!(status, 3);
    assert_eq!(stderr, "done\n");
    assert!(took >= Duration::from_secs(1), "took {took:?}");
}

fn merged_output(dir: &TestDir, script: &str) -> String {
    dir.merged(["sh", "-c", script])
}

#[test]
fn merged_streams_come_out_in_the_order_they_arrived() {
    // issue 8, rule 6 and defect 9: `2>&1 | tail` must end where the command ended.
    let dir = TestDir::new("merged-order");
    let script = "for i in 1 2 3; do echo out$i; sleep 0.1; echo err$i >&2; sleep 0.1; done";
    assert_eq!(
        merged_output(&dir, script),
        "out1\nerr1\nout2\nerr2\nout3\nerr3\n"
    );
}

#[test]
fn a_merged_view_with_elisions_still_ends_where_the_command_ended() {
    let dir = TestDir::new("merged-elided");
    let script = "echo '     Running unittests' >&2; sleep 0.1; \
                  i=0; while [ $i -lt 3000 ]; do echo 'the same routine line, again'; i=$((i+1)); done; sleep 0.1; \
                  echo 'test result: ok. 3000 passed; 0 failed' >&2";
    let merged = merged_output(&dir, script);
    let lines: Vec<&str> = merged.lines().collect();
    assert_eq!(lines.first(), Some(&"     Running unittests"), "{merged}");
    assert_eq!(
        lines.last(),
        Some(&"test result: ok. 3000 passed; 0 failed"),
        "{merged}"
    );
    assert!(lines.len() < 3002, "something was elided:\n{merged}");
}

#[test]
fn separate_pipes_still_get_the_stdout_view_then_the_stderr_view() {
    let dir = TestDir::new("separate-order");
    let output = dir.sh("echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2");
    assert_eq!(text(&output.stdout), "out1\nout2\n");
    assert_eq!(text(&output.stderr), "err1\n");
}

/// The one entry in `dir`'s store.
fn only_entry(dir: &TestDir) -> String {
    let names: Vec<String> = std::fs::read_dir(dir.store())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names[0].clone()
}

#[test]
fn a_killed_lens_leaves_every_byte_printed_before_the_kill() {
    let dir = TestDir::new("killed");
    let mut lens = dir
        .lens([
            "sh",
            "-c",
            "echo one; sleep 1; echo two >&2; echo two; sleep 10",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    lens.kill().unwrap();
    lens.wait().unwrap();
    let handle = only_entry(&dir);
    let shown = dir.run(["show", &handle, "--level", "3"]);
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    assert_eq!(text(&shown.stdout), "one\ntwo\n");
    assert!(
        text(&shown.stderr).contains("did not finish (lens was killed)"),
        "{}",
        text(&shown.stderr)
    );
    assert_eq!(dir.show_raw(&handle, true), b"two\n");
    // Without its exit status there is no view to render: show prints what was captured,
    // raw, and says why.
    let view = dir.run(["show", &handle]);
    assert_eq!(status_code(view.status), 0);
    assert_eq!(text(&view.stdout), "one\ntwo\n");
    assert!(
        text(&view.stderr).contains("did not finish (lens was killed)"),
        "{}",
        text(&view.stderr)
    );
}

#[test]
fn a_killed_lens_is_logged_once_by_a_later_run_without_an_outcome() {
    let dir = TestDir::new("killed-log");
    let mut lens = dir
        .lens(["sh", "-c", "echo one; sleep 10"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    lens.kill().unwrap();
    lens.wait().unwrap();
    let handle = only_entry(&dir);
    assert!(dir.log().is_empty(), "a SIGKILLed lens writes no record");
    let stats = dir.run(["stats", "--json"]);
    assert!(stats.status.success(), "{}", text(&stats.stderr));
    let report: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(report["runs"]["incomplete"], 1, "{report}");
    assert_eq!(report["runs"]["captured"], 0, "{report}");
    let again = dir.run(["stats"]);
    assert!(
        text(&again.stdout).contains("1 ended with lens killed (outcome unknown)"),
        "{}",
        text(&again.stdout)
    );
    let log = dir.log();
    assert_eq!(log.len(), 1, "logged once: {log:?}");
    let record = &log[0];
    assert_eq!(record["mode"], "incomplete");
    assert_eq!(record["handle"], handle.as_str());
    assert_eq!(record["argv"][2], "echo one; sleep 10");
    assert_eq!(record["raw"]["stdout"], 4);
    assert!(
        record.get("exit").is_none(),
        "no made-up exit code: {record}"
    );
    assert!(record.get("shown").is_none(), "{record}");
}

#[test]
fn a_store_that_cannot_be_written_passes_the_output_through_as_it_arrives() {
    // Nothing is held: the first line is out long before the command ends.
    let dir = TestDir::new("passthrough");
    std::fs::write(dir.path("file"), "").unwrap();
    let mut lens = dir
        .lens(["sh", "-c", "echo first; sleep 3; echo second; exit 6"])
        .env("LENS_STORE", dir.path("file").join("store"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut stdout = std::io::BufReader::new(lens.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    assert_eq!(first, "first\n");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(rest, "second\n");
    let output = lens.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 6);
    assert!(text(&output.stderr).starts_with("lens: the output was not stored"));
    let record = dir.log().pop().unwrap();
    assert_eq!(record["raw"]["stdout"], 13);
    assert_eq!(record["shown"]["stdout"], 13);
}

#[test]
fn a_stream_past_the_window_is_its_filtered_head_a_marker_and_its_end() {
    let dir = TestDir::new("window");
    // 3,000,000 lines, 22.9 MB: past the 16 MiB filtered whole.
    let output = dir.run(["seq", "1", "3000000"]);
    assert!(output.status.success());
    let view = text(&output.stdout);
    assert!(view.len() < 64 << 10, "{} bytes", view.len());
    let lines: Vec<&str> = view.lines().collect();
    assert_eq!(lines.first(), Some(&"1"), "{view}");
    assert_eq!(lines.last(), Some(&"3000000"), "{view}");
    assert_eq!(lines[lines.len() - 40], "2999961", "{view}");
    let marker = lines[lines.len() - 41];
    assert!(
        marker.starts_with("[lens: ")
            && marker.contains("-2999960, ")
            && marker.contains("bytes past"),
        "{marker}"
    );
    let stored = dir.show_raw(&dir.last_handle(), false);
    assert_eq!(stored.len(), 22_888_896, "`seq 1 3000000 | wc -c`");
    // `lens show` re-renders the same window, not the whole stream.
    let again = dir.run(["show", &dir.last_handle()]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), view);
}

#[test]
fn a_prompt_on_a_terminal_is_visible_before_it_is_answered() {
    // util-linux `script` gives lens a pty for stdin, stdout and stderr. The child prints
    // a prompt without a newline and waits: lens must show it, not hold it.
    let dir = TestDir::new("prompt");
    let script = "printf 'name? '; read answer; echo \"hi $answer\"";
    let quote = |word: &str| format!("'{}'", word.replace('\'', r"'\''"));
    let line = format!("{} sh -c {}", quote(util::LENS), quote(script));
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .current_dir(&dir.root)
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("util-linux `script` is installed");
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while let Ok(1) = std::io::Read::read(&mut stdout, &mut byte) {
            seen.push(byte[0]);
            let _ = tx.send(String::from_utf8_lossy(&seen).into_owned());
        }
    });
    let started = Instant::now();
    let mut seen = String::new();
    while !seen.contains("name? ") && started.elapsed() < Duration::from_secs(5) {
        if let Ok(text) = rx.recv_timeout(Duration::from_millis(50)) {
            seen = text;
        }
    }
    let waited = started.elapsed();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"lens\n").unwrap();
    let finished = Instant::now();
    while !seen.contains("hi lens") && finished.elapsed() < Duration::from_secs(5) {
        if let Ok(text) = rx.recv_timeout(Duration::from_millis(50)) {
            seen = text;
        }
    }
    drop(stdin);
    let ended = Instant::now();
    while child.try_wait().unwrap().is_none() && ended.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen.contains("name? "), "the prompt never showed: {seen:?}");
    assert!(
        waited < Duration::from_secs(2),
        "the prompt took {waited:?}"
    );
    assert_eq!(seen.matches("name? ").count(), 1, "shown twice: {seen:?}");
    assert!(seen.contains("hi lens"), "{seen:?}");
    let record = dir.log().pop().unwrap();
    assert!(
        record["note"].as_str().unwrap_or("").contains("prompt"),
        "{record}"
    );
    assert_eq!(dir.show_raw(&dir.last_handle(), false), b"name? hi lens\n");
}

/// issue 11: `lens producer | head -1` never ended, because lens wrote nothing until the
/// child ended, so `head` never got its line and never left.
#[test]
fn a_windowed_stdout_is_written_while_the_command_runs_and_matches_show() {
    let dir = TestDir::new("early-head");
    // 200,000 lines: past the 131,072 filtered whole, so windowed at once; the child then
    // runs on for 8 s, which bounds how long filtering the head may take in a debug build.
    let mut child = dir
        .lens(["sh", "-c", "seq 1 200000; sleep 8; echo last"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lens starts");
    let started = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 2];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    let arrived = started.elapsed();
    let mut rest = Vec::new();
    std::io::Read::read_to_end(&mut stdout, &mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 0, "{}", text(&output.stderr));
    assert!(
        arrived < Duration::from_secs(8),
        "the head's view came after {arrived:?}, when the command had ended"
    );
    let mut view = first.to_vec();
    view.extend_from_slice(&rest);
    let view = text(&view);
    assert!(view.starts_with("1\n"), "{view}");
    assert!(view.ends_with("200000\nlast\n"), "{view}");
    assert!(view.contains("bytes past the first 65536 lines"), "{view}");
    let again = dir.run(["show", &dir.last_handle()]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), view, "`lens show` gives the same view");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["shown"]["stdout"], view.len(), "{record}");
}

#[test]
fn a_child_that_exits_while_its_head_is_rendered_is_read_to_the_end() {
    // 135,000 lines: the last 27 KB are in the pipe when seq exits, while lens is still
    // filtering the head; lens once stopped reading there, 200 ms after the exit.
    let dir = TestDir::new("early-head-exit");
    let output = dir.run(["seq", "1", "135000"]);
    assert!(output.status.success());
    let view = text(&output.stdout);
    assert!(view.ends_with("134999\n135000\n"), "{view}");
    assert_eq!(
        text(&output.stderr),
        "",
        "no background process held the pipe"
    );
    let record = dir.log().pop().unwrap();
    assert_eq!(record["raw"]["stdout"], 833_895, "`seq 1 135000 | wc -c`");
    assert!(record.get("note").is_none(), "{record}");
    let again = dir.run(["show", &dir.last_handle()]);
    assert_eq!(text(&again.stdout), view, "`lens show` gives the same view");
}

#[test]
fn an_endless_shell_loop_piped_to_head_ends_as_the_bare_pipeline_does() {
    let dir = TestDir::new("early-head-pipe");
    let lens = env!("CARGO_BIN_EXE_lens");
    let mut child = Command::new("sh")
        .args(["-c", "\"$0\" sh -c 'while :; do echo y; done' | head -1", lens])
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own group, so a hang is ended whole: lens and the loop, not just `sh`.
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            panic!("`lens <endless loop> | head -1` still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(text(&output.stdout), "y\n");
    assert_eq!(text(&output.stderr), "");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["exit"], 141, "the loop died of SIGPIPE: {record}");
}

/// Run `lens sh -c script` under util-linux `script`, which gives lens a pty for stdin,
/// stdout and stderr; return everything the terminal received.
fn on_a_terminal(dir: &TestDir, script: &str) -> String {
    let quote = |word: &str| format!("'{}'", word.replace('\'', r"'\''"));
    let line = format!("{} sh -c {}", quote(util::LENS), quote(script));
    let mut child = Command::new("script")
        .args(["-qfec", &line, "/dev/null"])
        .current_dir(&dir.root)
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("util-linux `script` is installed");
    // Held open until the run ends: at EOF on its stdin, `script` would end the session.
    let stdin = child.stdin.take();
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    text(&output.stdout)
}

#[test]
fn a_run_that_lasts_shows_a_live_status_on_a_terminal_and_erases_it() {
    let dir = TestDir::new("status");
    let seen = on_a_terminal(&dir, "echo started >&2; sleep 2; echo done");
    let status = seen
        .find("lens: 1s, ")
        .unwrap_or_else(|| panic!("{seen:?}"));
    assert!(seen[status..].contains(" captured"), "{seen:?}");
    let erased = seen.rfind("\r\x1b[K").unwrap_or_else(|| panic!("{seen:?}"));
    let done = seen.find("done").unwrap_or_else(|| panic!("{seen:?}"));
    assert!(status < erased && erased < done, "{seen:?}");
    assert!(!seen[erased + 4..].contains("lens:"), "{seen:?}");
}

#[test]
fn a_fast_run_on_a_terminal_draws_no_status() {
    let dir = TestDir::new("status-fast");
    let seen = on_a_terminal(&dir, "echo hi");
    assert!(seen.contains("hi"), "{seen:?}");
    assert!(
        !seen.contains("\x1b[K") && !seen.contains("captured"),
        "{seen:?}"
    );
}

#[test]
fn no_status_is_drawn_when_stderr_is_a_pipe() {
    let dir = TestDir::new("status-pipe");
    let output = dir.sh("sleep 1.6; echo done; echo oops >&2");
    assert_eq!(text(&output.stdout), "done\n");
    assert_eq!(text(&output.stderr), "oops\n");
}

/// Run `sh -c line` with `lens` as `$0`, in its own process group, killing the group and
/// failing after `limit`: a hang must show as a red test, not as a suite that never ends.
fn pipeline_within(dir: &TestDir, line: &str, limit: Duration) -> Output {
    let mut child = Command::new("sh")
        .args(["-c", line, util::LENS])
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            panic!("`{line}` still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_raw_view_of_an_endless_producer_piped_to_head_ends_as_the_bare_pipeline_does() {
    // At level 3 the view is the output itself: lens once held it until the command
    // ended, so `head -1` never got its line and the loop ran forever.
    let dir = TestDir::new("live-raw-head");
    let output = pipeline_within(
        &dir,
        "\"$0\" --level 3 sh -c 'while :; do echo y; done' | head -1",
        Duration::from_secs(30),
    );
    assert_eq!(text(&output.stdout), "y\n");
    assert_eq!(text(&output.stderr), "");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["mode"], "capture", "{record}");
    assert_eq!(record["exit"], 141, "the loop died of SIGPIPE: {record}");
    assert!(
        record["note"]
            .as_str()
            .unwrap_or("")
            .contains("stdout reader left"),
        "{record}"
    );
    // Everything lens read is stored, and the record counts it as shown.
    let stored = dir.show_raw(&dir.last_handle(), false);
    assert!(stored.starts_with(b"y\n"), "{}", text(&stored));
    assert_eq!(record["raw"]["stdout"], stored.len(), "{record}");
    assert_eq!(record["shown"]["stdout"], stored.len(), "{record}");
}

#[test]
fn a_raw_view_is_written_as_it_arrives_and_stored_in_full() {
    let dir = TestDir::new("live-raw");
    let mut lens = dir
        .lens([
            "--level",
            "3",
            "sh",
            "-c",
            "echo first; echo warn >&2; sleep 4; echo second; exit 5",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut stdout = std::io::BufReader::new(lens.stdout.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).unwrap();
    let arrived = started.elapsed();
    assert_eq!(first, "first\n");
    assert!(
        arrived < Duration::from_secs(4),
        "the first line came after {arrived:?}, when the command had ended"
    );
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(rest, "second\n");
    let output = lens.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 5);
    assert_eq!(text(&output.stderr), "warn\n");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["raw"]["stdout"], 13, "{record}");
    assert_eq!(record["shown"]["stdout"], 13, "{record}");
    assert_eq!(record["shown"]["stderr"], 5, "{record}");
    assert!(record.get("note").is_none(), "{record}");
    assert!(record.get("raw_reason").is_none(), "{record}");
    let handle = dir.last_handle();
    assert_eq!(dir.show_raw(&handle, false), b"first\nsecond\n");
    assert_eq!(dir.show_raw(&handle, true), b"warn\n");
}

#[test]
fn a_merged_raw_view_past_the_window_keeps_the_order_it_arrived_in() {
    // 200,000 lines on stdout, past the 131,072 filtered whole: a raw view of it was once
    // copied from the store after the command ended, stdout first, so `start` came after
    // all of it.
    let dir = TestDir::new("live-raw-merged");
    let script = "echo start >&2; sleep 0.3; seq 1 200000; sleep 0.3; echo err >&2";
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut command = dir.lens(["--level", "3", "sh", "-c", script]);
    command.stdout(writer.try_clone().unwrap()).stderr(writer);
    let mut child = command.spawn().unwrap();
    drop(command);
    let mut merged = String::new();
    std::io::Read::read_to_string(&mut reader, &mut merged).unwrap();
    assert!(child.wait().unwrap().success());
    let numbers: String = (1..=200_000).map(|i| format!("{i}\n")).collect();
    let expected = format!("start\n{numbers}err\n");
    util::assert_bytes_eq(merged.as_bytes(), expected.as_bytes(), "the merged output");
}

#[test]
fn a_merged_windowed_stdout_keeps_its_place_between_the_stderr_lines() {
    // 200,000 lines, past the 131,072 filtered whole, so kept as head and tail: `start`
    // once came after all of it and `err` before its tail, `2>&1 | tail -3` printing
    // `200000, start, err`.
    let dir = TestDir::new("merged-windowed");
    let script = "echo start >&2; sleep 0.3; seq 1 200000; sleep 0.3; echo err >&2";
    let merged = merged_output(&dir, script);
    let lines: Vec<&str> = merged.lines().collect();
    assert!(lines.len() < 200, "windowed: {} lines", lines.len());
    assert_eq!(lines[..2], ["start", "1"], "{merged}");
    assert_eq!(
        lines[lines.len() - 3..],
        ["199999", "200000", "err"],
        "{merged}"
    );
    let marker = lines[lines.len() - 42];
    assert!(
        marker.contains("-199960, ") && marker.contains("bytes past"),
        "{merged}"
    );
}

#[test]
fn a_merged_windowed_stdout_places_stderr_lines_in_its_head_middle_and_tail() {
    let dir = TestDir::new("merged-windowed-between");
    let script = "seq 1 1000; sleep 0.3; echo in-head >&2; sleep 0.3; \
                  seq 1001 100000; sleep 0.3; echo in-middle >&2; sleep 0.3; \
                  seq 100001 199980; sleep 0.3; echo in-tail >&2; sleep 0.3; \
                  seq 199981 200000; sleep 0.3; echo end >&2";
    let merged = merged_output(&dir, script);
    let lines: Vec<&str> = merged.lines().collect();
    let at = |line: &str| {
        lines
            .iter()
            .position(|l| *l == line)
            .unwrap_or_else(|| panic!("{line} missing:\n{merged}"))
    };
    let middle = lines
        .iter()
        .position(|l| l.contains("bytes past the first 65536 lines"))
        .unwrap_or_else(|| panic!("no middle marker:\n{merged}"));
    // The head's own marker stands for lines 2-65535, and so goes where line 2 arrived.
    assert!(lines[1].contains(" 2-65535, "), "{merged}");
    assert_eq!(at("1"), 0, "{merged}");
    assert!(at("in-head") == 2 && at("65536") == 3, "{merged}");
    assert!(middle == 4 && at("in-middle") == 5, "{merged}");
    assert!(
        at("199961") == 6 && at("199980") + 1 == at("in-tail"),
        "{merged}"
    );
    assert_eq!(at("in-tail") + 1, at("199981"), "{merged}");
    assert_eq!(lines[lines.len() - 2..], ["200000", "end"], "{merged}");
}

#[test]
fn a_merged_windowed_stderr_keeps_its_place_before_the_stdout_lines() {
    let dir = TestDir::new("merged-windowed-stderr");
    let script = "seq 1 200000 >&2; sleep 0.3; echo out; sleep 0.3; echo err >&2";
    let merged = merged_output(&dir, script);
    let lines: Vec<&str> = merged.lines().collect();
    assert!(lines.len() < 200, "windowed: {} lines", lines.len());
    assert_eq!(lines[0], "1", "{merged}");
    assert_eq!(
        lines[lines.len() - 4..],
        ["199999", "200000", "out", "err"],
        "{merged}"
    );
}

#[test]
fn a_merged_windowed_head_is_written_early_only_up_to_stderr() {
    // Under `2>&1` the head's lines that came before `warn` go out while the command
    // runs; the rest of the head waits for the end, after `warn`, and nothing is twice.
    let dir = TestDir::new("merged-early-head");
    let script = "seq 1 1000; sleep 0.3; echo warn >&2; seq 1001 200000; sleep 8; echo last";
    let (reader, writer) = std::io::pipe().unwrap();
    let mut command = dir.lens(["sh", "-c", script]);
    command.stdout(writer.try_clone().unwrap()).stderr(writer);
    let mut child = command.spawn().unwrap();
    drop(command);
    let started = Instant::now();
    let mut reader = std::io::BufReader::new(reader);
    let mut first = String::new();
    std::io::BufRead::read_line(&mut reader, &mut first).unwrap();
    let arrived = started.elapsed();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let merged = format!("{first}{rest}");
    assert!(
        arrived < Duration::from_secs(8),
        "the head's first line came after {arrived:?}, when the command had ended"
    );
    let lines: Vec<&str> = merged.lines().collect();
    assert_eq!(lines[0], "1", "{merged}");
    assert!(lines[1].contains(" 2-65535, "), "{merged}");
    assert_eq!(lines[2..4], ["warn", "65536"], "{merged}");
    assert!(
        lines[4].contains("bytes past the first 65536 lines"),
        "{merged}"
    );
    assert_eq!(lines[lines.len() - 2..], ["200000", "last"], "{merged}");
    assert_eq!(lines.len(), 5 + 40, "{merged}");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["shown"]["stdout"], merged.len() - 5, "{record}");
}

#[test]
fn a_merged_endless_producer_piped_to_head_still_ends() {
    let dir = TestDir::new("merged-early-head-pipe");
    let output = pipeline_within(
        &dir,
        "\"$0\" sh -c 'while :; do echo y; done' 2>&1 | head -1",
        Duration::from_secs(30),
    );
    assert_eq!(text(&output.stdout), "y\n");
    let record = dir.log().pop().unwrap();
    assert_eq!(record["exit"], 141, "the loop died of SIGPIPE: {record}");
}
