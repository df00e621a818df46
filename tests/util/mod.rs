//! Shared harness for tests that run the built `lens` binary: one private directory per
//! test holding the store, the log and the config, so no test touches real user state.
#![allow(dead_code)] // each test file uses a different part of this module

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const LENS: &str = env!("CARGO_BIN_EXE_lens");

/// A per-test directory with `store/`, `log/` and `config.toml` paths inside it.
pub struct TestDir {
    pub root: PathBuf,
}

impl TestDir {
    pub fn new(name: &str) -> TestDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let root = std::env::temp_dir().join(format!("lens-it-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        TestDir { root }
    }

    pub fn store(&self) -> PathBuf {
        self.root.join("store")
    }

    pub fn log_dir(&self) -> PathBuf {
        self.root.join("log")
    }

    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// A `lens` command with the isolation variables pointing here.
    pub fn lens<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(LENS);
        command
            .args(args)
            .current_dir(&self.root)
            .env("LENS_STORE", self.store())
            .env("LENS_LOG_DIR", self.log_dir())
            .env("LENS_CONFIG", self.config())
            .stdin(Stdio::null());
        command
    }

    /// Run `command` to completion with `input` on its stdin (a hook's payload), its
    /// stdout and stderr captured. A command that exits before reading it all is fine.
    pub fn feed(command: &mut Command, input: &[u8]) -> Output {
        use std::io::Write;
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("lens starts");
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input);
        drop(stdin);
        child.wait_with_output().unwrap()
    }

    /// Run lens to completion.
    pub fn run<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.lens(args).output().expect("lens runs")
    }

    /// Run lens with `args`, its stdout and stderr one pipe, as `2>&1 | ...` makes them;
    /// return everything that came through it.
    pub fn merged<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let (mut reader, writer) = std::io::pipe().unwrap();
        let mut command = self.lens(args);
        command.stdout(writer.try_clone().unwrap()).stderr(writer);
        let mut child = command.spawn().unwrap();
        // The test's copies of the write end went with `command`: drop it so EOF can come.
        drop(command);
        let mut merged = String::new();
        std::io::Read::read_to_string(&mut reader, &mut merged).unwrap();
        child.wait().unwrap();
        merged
    }

    /// Run `sh -c script` under lens.
    pub fn sh(&self, script: &str) -> Output {
        self.run(["sh", "-c", script])
    }

    /// Every record in the log, parsed.
    pub fn log(&self) -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(self.log_dir().join("lens.log")).unwrap_or_default();
        text.lines()
            .map(|line| serde_json::from_str(line).expect("log lines are JSON"))
            .collect()
    }

    /// The handle of the last logged run.
    pub fn last_handle(&self) -> String {
        let log = self.log();
        let last = log.last().expect("a run was logged");
        last["handle"]
            .as_str()
            .expect("the run has a handle")
            .to_owned()
    }

    /// `lens show <handle> --level 3 [--stderr]`'s stdout.
    pub fn show_raw(&self, handle: &str, stderr: bool) -> Vec<u8> {
        let mut args = vec!["show", handle, "--level", "3"];
        if stderr {
            args.push("--stderr");
        }
        let output = self.run(args);
        assert!(
            output.status.success(),
            "show failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output.stdout
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Assert two byte strings are equal, printing both as blocks when they are not.
pub fn assert_bytes_eq(actual: &[u8], expected: &[u8], what: &str) {
    if actual != expected {
        panic!(
            "{what} differs ({} bytes vs {} expected)\n--- expected\n{}\n--- actual\n{}\n---",
            actual.len(),
            expected.len(),
            preview(expected),
            preview(actual)
        );
    }
}

fn preview(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(2000)]).into_owned();
    if bytes.len() > 2000 {
        format!("{text}… ({} more bytes)", bytes.len() - 2000)
    } else {
        text
    }
}

/// The exit status as lens reports statuses: the code, or 128 + signal.
pub fn status_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

/// Wait until `path` exists, up to ten seconds.
pub fn wait_for(path: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
