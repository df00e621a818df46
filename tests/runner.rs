//! The runner's contract, end to end against the built binary: argument grammar, exit
//! statuses, streams, stdin, signals, the store, `lens show`, the log and the config.

mod util;

use std::io::{Read, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};
use util::{TestDir, assert_bytes_eq, status_code, wait_for};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn kill(signal: &str, pid: u32) {
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn exit_codes_come_back_unchanged() {
    let dir = TestDir::new("exit");
    for code in [0, 1, 2, 3, 42, 101, 126, 127, 128, 255] {
        let output = dir.sh(&format!("exit {code}"));
        assert_eq!(status_code(output.status), code);
    }
}

#[test]
fn a_signal_death_is_128_plus_the_signal() {
    let dir = TestDir::new("signal-death");
    for (name, number) in [
        ("HUP", 1),
        ("INT", 2),
        ("KILL", 9),
        ("SEGV", 11),
        ("TERM", 15),
    ] {
        let output = dir.sh(&format!("kill -{name} $$"));
        assert_eq!(status_code(output.status), 128 + number, "{name}");
    }
}

#[test]
fn missing_and_unexecutable_commands_are_127_and_126_with_one_line() {
    let dir = TestDir::new("notfound");
    let output = dir.run(["lens-no-such-program-xyz"]);
    assert_eq!(status_code(output.status), 127);
    assert_eq!(
        text(&output.stderr),
        "lens: lens-no-such-program-xyz: command not found\n"
    );
    assert!(output.stdout.is_empty());

    let output = dir.run(["cd /tmp"]);
    assert_eq!(
        text(&output.stderr),
        "lens: cd /tmp: command not found (give the command and its arguments as separate words)\n"
    );
    let output = dir.run(["cd", "/tmp"]);
    assert_eq!(
        text(&output.stderr),
        "lens: cd: command not found (a shell builtin: lens runs programs, not shell syntax)\n"
    );

    std::fs::write(dir.path("script"), "#!/bin/sh\necho hi\n").unwrap();
    let output = dir.run(["./script"]);
    assert_eq!(status_code(output.status), 126);
    assert_eq!(text(&output.stderr), "lens: ./script: permission denied\n");
}

#[test]
fn usage_errors_exit_2_and_run_nothing() {
    let dir = TestDir::new("usage");
    let marker = dir.path("ran");
    let marker = marker.to_str().unwrap();
    for args in [
        vec!["--bogus", "touch", marker],
        vec!["--level", "9", "touch", marker],
        vec!["--level"],
    ] {
        let output = dir.run(&args);
        assert_eq!(status_code(output.status), 2, "{args:?}");
        assert_eq!(
            text(&output.stderr).lines().count(),
            1,
            "{args:?}: {}",
            text(&output.stderr)
        );
        assert!(output.stdout.is_empty());
    }
    assert!(
        !dir.path("ran").exists(),
        "a usage error must not run the command"
    );
    let output = dir.run(Vec::<&str>::new());
    assert_eq!(status_code(output.status), 2);
}

#[test]
fn flags_after_the_command_reach_the_child() {
    let dir = TestDir::new("child-flags");
    let output = dir.run([
        "sh",
        "-c",
        "printf '%s|' \"$@\"",
        "sh",
        "--budget",
        "3",
        "--level",
        "9",
        "--",
        "--help",
    ]);
    assert_eq!(text(&output.stdout), "--budget|3|--level|9|--|--help|");
    assert!(output.status.success());
}

#[test]
fn double_dash_runs_a_program_named_show() {
    let dir = TestDir::new("dashdash");
    let output = dir.run(["--", "show", "0123abcd"]);
    assert_eq!(status_code(output.status), 127);
    assert_eq!(text(&output.stderr), "lens: show: command not found\n");
}

#[test]
fn help_and_version_print_to_stdout_and_exit_0() {
    let dir = TestDir::new("help");
    let help = dir.run(["--help"]);
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("lens [OPTIONS] [--] <command> [args...]"));
    assert!(text(&help.stdout).contains("--budget N"));
    let version = dir.run(["-V"]);
    assert_eq!(
        text(&version.stdout),
        format!("lens {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert!(!dir.store().exists(), "help must not touch the store");
}

#[test]
fn streams_are_never_merged() {
    let dir = TestDir::new("streams");
    let output = dir.sh("echo o1; echo e1 >&2; echo o2; echo e2 >&2");
    assert_eq!(text(&output.stdout), "o1\no2\n");
    assert_eq!(text(&output.stderr), "e1\ne2\n");
}

#[test]
fn stdin_belongs_to_the_child() {
    let dir = TestDir::new("stdin");
    let mut child = dir
        .lens(["cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"through lens\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(text(&output.stdout), "through lens\n");
}

#[test]
fn large_interleaved_output_on_both_pipes_does_not_deadlock() {
    let dir = TestDir::new("deadlock");
    // 8 MiB on each pipe, written alternately in blocks larger than a pipe buffer.
    let script = "for i in 1 2 3 4 5 6 7 8; do head -c 1048576 /dev/zero | tr '\\0' e >&2; head -c 1048576 /dev/zero | tr '\\0' o; done";
    let output = dir
        .lens(["--level", "3", "sh", "-c", script])
        .output()
        .unwrap();
    assert_eq!(output.stdout.len(), 8 << 20);
    assert_eq!(output.stderr.len(), 8 << 20);
    assert!(output.stdout.iter().all(|&b| b == b'o'));
}

#[test]
fn every_captured_run_is_stored_and_shown_back_exactly() {
    let dir = TestDir::new("store");
    let output = dir.sh("printf 'line one\\nline two'; printf 'warn\\n' >&2; exit 4");
    assert_eq!(status_code(output.status), 4);
    let handle = dir.last_handle();
    assert_bytes_eq(
        &dir.show_raw(&handle, false),
        b"line one\nline two",
        "stored stdout",
    );
    assert_bytes_eq(&dir.show_raw(&handle, true), b"warn\n", "stored stderr");
    let meta: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.store().join(&handle).join("meta.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["exit"], 4);
    assert_eq!(meta["argv"][0], "sh");
    assert_eq!(meta["stdout_bytes"], 17);
    assert!(meta["started_ms"].as_u64().unwrap() > 0);
}

#[test]
fn store_is_private_to_its_user() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TestDir::new("private");
    dir.sh("echo secret");
    let handle = dir.last_handle();
    let mode = |p: std::path::PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir.store()), 0o700);
    assert_eq!(mode(dir.store().join(&handle)), 0o700);
    for file in ["stdout", "stderr", "meta.json"] {
        assert_eq!(mode(dir.store().join(&handle).join(file)), 0o600, "{file}");
    }
    assert_eq!(mode(dir.log_dir().join("lens.log")), 0o600);
}

#[test]
fn show_rejects_hostile_and_absent_handles() {
    let dir = TestDir::new("show-bad");
    for bad in [
        "../../etc/passwd",
        "ABCDEF12",
        "0123abc",
        "0123abcde",
        "/etc/passwd",
        "..",
        "",
    ] {
        let output = dir.run(["show", bad]);
        assert_eq!(status_code(output.status), 2, "{bad:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(text(&output.stderr).lines().count(), 1);
    }
    let output = dir.run(["show", "0123abcd"]);
    assert_eq!(status_code(output.status), 1);
    assert!(text(&output.stderr).contains("no stored run `0123abcd`"));
    let output = dir.run(["show"]);
    assert_eq!(status_code(output.status), 2);
}

#[test]
fn fifty_concurrent_runs_get_fifty_handles_and_their_own_output() {
    let dir = TestDir::new("concurrent");
    let children: Vec<_> = (0..50)
        .map(|i| {
            dir.lens(["sh", "-c", &format!("echo run-{i}")])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        assert!(child.wait_with_output().unwrap().status.success());
    }
    let log = dir.log();
    assert_eq!(log.len(), 50);
    let mut handles: Vec<String> = log
        .iter()
        .map(|r| r["handle"].as_str().unwrap().to_owned())
        .collect();
    for record in &log {
        let i = record["argv"][2]
            .as_str()
            .unwrap()
            .trim_start_matches("echo run-");
        let handle = record["handle"].as_str().unwrap();
        assert_bytes_eq(
            &dir.show_raw(handle, false),
            format!("run-{i}\n").as_bytes(),
            "concurrent run's output",
        );
    }
    handles.sort();
    handles.dedup();
    assert_eq!(handles.len(), 50, "handles must be unique");
}

#[test]
fn an_unwritable_store_shows_raw_output_and_keeps_the_exit_code() {
    let dir = TestDir::new("ro-store");
    std::fs::write(dir.path("file"), "").unwrap();
    let output = dir
        .lens(["sh", "-c", "echo out; echo err >&2; exit 5"])
        .env("LENS_STORE", dir.path("file").join("store"))
        .output()
        .unwrap();
    assert_eq!(status_code(output.status), 5);
    assert_eq!(text(&output.stdout), "out\n");
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("err\nlens: the output was not stored"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 2);
    let record = dir.log().pop().unwrap();
    assert!(record.get("handle").is_none());
    assert!(
        record["raw_reason"]["stdout"]
            .as_str()
            .unwrap()
            .starts_with("store:")
    );
}

#[test]
fn an_unwritable_log_changes_nothing_the_user_sees() {
    let dir = TestDir::new("ro-log");
    std::fs::write(dir.path("file"), "").unwrap();
    let output = dir
        .lens(["sh", "-c", "echo out; echo err >&2; exit 6"])
        .env("LENS_LOG_DIR", dir.path("file").join("log"))
        .output()
        .unwrap();
    assert_eq!(status_code(output.status), 6);
    assert_eq!(text(&output.stdout), "out\n");
    assert_eq!(text(&output.stderr), "err\n");
}

#[test]
fn a_broken_config_shows_raw_output_and_logs_why() {
    let dir = TestDir::new("bad-config");
    std::fs::write(dir.config(), "levle = 1\n").unwrap();
    let output = dir.sh("echo out; exit 3");
    assert_eq!(status_code(output.status), 3);
    assert_eq!(text(&output.stdout), "out\n");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("invalid config") && stderr.contains("levle"),
        "{stderr}"
    );
    let record = dir.log().pop().unwrap();
    assert!(
        record["raw_reason"]["stdout"]
            .as_str()
            .unwrap()
            .contains("levle")
    );
    // The run is still stored.
    assert_bytes_eq(
        &dir.show_raw(record["handle"].as_str().unwrap(), false),
        b"out\n",
        "stored",
    );
}

#[test]
fn a_config_that_is_a_directory_does_not_break_the_command() {
    let dir = TestDir::new("dir-config");
    std::fs::create_dir_all(dir.config()).unwrap();
    let output = dir.sh("echo fine");
    assert!(output.status.success());
    assert_eq!(text(&output.stdout), "fine\n");
}

#[test]
fn invalid_utf8_is_emitted_byte_identical() {
    let dir = TestDir::new("binary");
    let output = dir.sh("printf 'ok\\n\\377\\376\\n'; printf 'x\\000y' >&2");
    assert_bytes_eq(&output.stdout, b"ok\n\xff\xfe\n", "stdout");
    assert_bytes_eq(&output.stderr, b"x\0y", "stderr");
}

#[test]
fn the_log_records_argv_never_output() {
    let dir = TestDir::new("log");
    dir.sh("echo TOP-SECRET-OUTPUT; echo MORE-SECRET >&2; exit 2");
    let text = std::fs::read_to_string(dir.log_dir().join("lens.log")).unwrap();
    assert!(!text.contains("TOP-SECRET-OUTPUT\n") && !text.contains("MORE-SECRET\n"));
    let record = dir.log().pop().unwrap();
    assert_eq!(record["mode"], "capture");
    assert_eq!(record["exit"], 2);
    assert_eq!(record["raw"]["stdout"], 18);
    assert_eq!(record["raw"]["stderr"], 12);
    assert!(record["shown"]["stdout"].as_u64().is_some());
    assert!(record["dur_ms"].as_u64().is_some());
    assert_eq!(record["level"], 2);
}

#[test]
fn a_closed_stdout_reader_stops_lens_quietly_with_the_childs_status() {
    let dir = TestDir::new("epipe");
    let mut child = dir
        .lens([
            "--level",
            "3",
            "sh",
            "-c",
            "head -c 5000000 /dev/zero | tr '\\0' x; exit 9",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The reader is gone now.
    let output = child.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 9);
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
}

#[test]
fn lens_sets_no_environment_for_nested_processes() {
    let dir = TestDir::new("env");
    let direct = std::process::Command::new("env")
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .current_dir(&dir.root)
        .output()
        .unwrap();
    let through = dir.run(["env"]);
    let names = |out: &[u8]| {
        let mut names: Vec<String> = text(out)
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, _)| k.to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&through.stdout), names(&direct.stdout));
}

#[test]
fn sigterm_to_lens_reaches_the_child_and_its_status_comes_back() {
    let dir = TestDir::new("sigterm");
    let ready = dir.path("ready");
    let script = format!(
        "trap 'echo caught; exit 7' TERM; touch {}; while :; do sleep 0.05; done",
        ready.display()
    );
    let child = dir
        .lens(["sh", "-c", &script])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&ready);
    kill("TERM", child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 7);
    assert_eq!(
        text(&output.stdout),
        "caught\n",
        "lens survives the signal and still prints the view"
    );
}

#[test]
fn sigint_sighup_and_sigquit_reach_the_child() {
    let dir = TestDir::new("signals");
    for (name, number) in [("INT", 2), ("HUP", 1), ("QUIT", 3)] {
        let ready = dir.path(&format!("ready-{name}"));
        let script = format!("touch {}; exec sleep 30", ready.display());
        let started = Instant::now();
        let child = dir.lens(["sh", "-c", &script]).spawn().unwrap();
        wait_for(&ready);
        std::thread::sleep(Duration::from_millis(50));
        kill(name, child.id());
        let output = child.wait_with_output().unwrap();
        assert_eq!(status_code(output.status), 128 + number, "{name}");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{name} did not reach the child"
        );
    }
}

#[test]
fn a_child_is_not_orphaned_when_lens_is_killed() {
    let dir = TestDir::new("orphan");
    let ready = dir.path("ready");
    let gone = dir.path("gone");
    let script = format!(
        "trap 'touch {}; exit 0' TERM; touch {}; while :; do sleep 0.05; done",
        gone.display(),
        ready.display()
    );
    let mut child = dir.lens(["sh", "-c", &script]).spawn().unwrap();
    wait_for(&ready);
    kill("KILL", child.id());
    child.wait().unwrap();
    wait_for(&gone);
}

/// A 64 KiB tmpfs, for a store or log that runs out of space. Mounting needs root (CI and
/// the development machines run as root); elsewhere the caller is told to skip.
fn small_filesystem(dir: &TestDir) -> Option<SmallFs> {
    let path = dir.path("full");
    std::fs::create_dir_all(&path).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&path)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipping: cannot mount a tmpfs here (not root?)");
        return None;
    }
    Some(SmallFs(path))
}

struct SmallFs(std::path::PathBuf);

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_store_and_log_show_raw_output_and_keep_the_exit_code() {
    let dir = TestDir::new("full-disk");
    let Some(fs) = small_filesystem(&dir) else {
        return;
    };
    // 200 KB of output cannot fit in 64 KiB.
    let script = "seq 1 40000; echo done >&2; exit 3";
    let output = dir
        .lens(["sh", "-c", script])
        .env("LENS_STORE", fs.0.join("store"))
        .env("LENS_LOG_DIR", fs.0.join("log"))
        .output()
        .unwrap();
    assert_eq!(status_code(output.status), 3);
    let expected: String = (1..=40000).map(|i| format!("{i}\n")).collect();
    assert_bytes_eq(
        &output.stdout,
        expected.as_bytes(),
        "stdout with a full store",
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.starts_with("done\nlens: the output was not stored"),
        "{stderr}"
    );
    // The failed entry was cleaned up rather than left half-written.
    let leftovers: Vec<_> = std::fs::read_dir(fs.0.join("store"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| !n.starts_with('.')))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_signal_ignored_by_whoever_started_lens_stays_ignored() {
    // `nohup lens CMD`: SIGHUP is ignored when lens starts, so neither lens nor the
    // command may die of one.
    let dir = TestDir::new("nohup");
    let ready = dir.path("ready");
    let inner = format!("touch {}; sleep 0.3; echo done", ready.display());
    let outer = format!("trap '' HUP; exec {} sh -c \"{inner}\"", util::LENS);
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", &outer])
        .current_dir(&dir.root)
        .stdout(Stdio::piped());
    for (key, value) in [
        ("LENS_STORE", dir.store()),
        ("LENS_LOG_DIR", dir.log_dir()),
        ("LENS_CONFIG", dir.config()),
    ] {
        command.env(key, value);
    }
    let child = command.spawn().unwrap();
    wait_for(&ready);
    kill("HUP", child.id());
    let output = child.wait_with_output().unwrap();
    assert_eq!(status_code(output.status), 0);
    assert_eq!(text(&output.stdout), "done\n");
}

#[test]
fn show_re_renders_the_view_the_run_printed() {
    let dir = TestDir::new("show-view");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cargo/cargo-cascade/stderr"
    );
    let output = dir.sh(&format!("cat {fixture} >&2; exit 101"));
    assert_eq!(status_code(output.status), 101);
    let raw = std::fs::read(fixture).unwrap();
    assert!(
        output.stderr.len() < raw.len() / 10,
        "the cascade should be filtered"
    );
    let handle = dir.last_handle();
    assert!(
        text(&output.stderr).contains(&format!(", {handle}: ")),
        "markers name the run's handle"
    );
    let shown = dir.run(["show", &handle, "--stderr"]);
    assert!(shown.status.success());
    assert_bytes_eq(
        &shown.stdout,
        &output.stderr,
        "lens show at the default level",
    );
    assert_bytes_eq(&dir.show_raw(&handle, true), &raw, "lens show --level 3");
}

#[test]
fn show_on_a_broken_config_prints_what_the_run_printed() {
    let dir = TestDir::new("show-config");
    std::fs::write(dir.config(), "levle = 1\n").unwrap();
    let run = dir.sh("seq 1 3000");
    assert_eq!(
        run.stdout.len(),
        13_893,
        "a broken config makes the run raw"
    );
    let shown = dir.run(["show", &dir.last_handle()]);
    assert!(shown.status.success());
    assert_bytes_eq(&shown.stdout, &run.stdout, "the view");
    assert_eq!(text(&shown.stderr), text(&run.stderr));
}
