//! The rewrite's central claim, run: whatever the line, the rewritten command executed by a
//! real bash and a real dash runs the same programs with the same argv, in the same
//! directories, writing the same bytes to the same places and ending with the same status
//! as the original, with `lens` added in front of the rewritten simple commands only.
//!
//! Lines are generated from a vocabulary of awkward words and shell structure (quotes,
//! escapes, globs, braces, tilde, unicode, `$VAR`, `$(...)`, backquotes, comments,
//! redirections, pipelines, subshells, groups, newlines) joined by `&&`, `||`, `;` and `|`.
//! A line the rewrite leaves alone is trivially equivalent; every line it rewrites is run
//! four ways (original and rewritten, under bash and dash) with PATH holding only
//! recording stubs, one script copied under each program name: a stub appends its name,
//! working directory and argv to a log, prints one line to stdout and one to stderr, and
//! exits 3 when an argument is `fail`, so `&&` and `||` take both branches. The `lens` stub
//! logs `lens` and execs the rest, so the log shows exactly where lens was added. A sample
//! is also run through the real lens binary.

mod rng;

use lens::shell::rewrite;
use rng::Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const STUB: &str = r#"#!/bin/sh
n=${0##*/}
if [ "$n" = lens ]; then printf 'lens\n' >> "$STUB_LOG"; exec "$@"; fi
{ printf '%s|%s' "$n" "$PWD"; for a in "$@"; do printf '|%s' "$a"; done; printf '\n'; } >> "$STUB_LOG"
printf 'out %s %s\n' "$n" "$*"
printf 'err %s %s\n' "$n" "$*" >&2
for a in "$@"; do [ "$a" = fail ] && exit 3; done
exit 0
"#;

const PROGRAMS: &[&str] = &[
    "cargo", "make", "git", "npm", "pytest", "grep", "ls", "cat", "mytool", "lens", "env",
];

const COMMANDS: &[&str] = &[
    "cargo",
    "cargo",
    "make",
    "git",
    "npm",
    "pytest",
    "grep",
    "ls",
    "cat",
    "mytool",
    "cd sub",
    "cd .",
    "echo",
    "true",
    "false",
    "export FOO=1",
    "FOO=2 cargo",
    "env FOO=3 make",
    "lens cargo",
    "pwd",
    "git add -p",
    "cargo run",
    "python3",
    "./sub/tool",
];

const ARGS: &[&str] = &[
    "test",
    "build",
    "fail",
    "fail",
    "-v",
    "--flag=1",
    "'a b'",
    "\"c d\"",
    "x\\ y",
    "*.txt",
    "{x,y}",
    "~",
    "ü",
    "🎉",
    "'&&'",
    "\"|\"",
    "\\;",
    "a#b",
    "'$FOO'",
    "$FOO",
    "\"$FOO\"",
    "$(echo sub)",
    "`echo q`",
    "#c",
    "'it'\"'\"'s'",
    "--",
    "-",
    "a=b",
    "'",
    "\"",
    "\\",
    "(x)",
    "!",
    "2>&1",
    ">out1",
    ">>out1",
    "2>err1",
    "<in1",
    "&>out2",
    "|&",
    "\\\n",
];

const JOINS: &[&str] = &[
    " && ", " || ", "; ", " && ", " || ", "; ", " | ", "\n", " & ", ";; ",
];

fn generate(rng: &mut Rng) -> String {
    let mut line = String::new();
    let commands = 1 + rng.below(4);
    for i in 0..commands {
        if i > 0 {
            let join = rng.pick::<&str>(JOINS);
            line.push_str(join);
        }
        let mut command = rng.pick(COMMANDS).to_string();
        for _ in 0..rng.below(4) {
            command.push(' ');
            let arg = rng.pick::<&str>(ARGS);
            command.push_str(arg);
        }
        match rng.below(12) {
            0 => command = format!("( {command} )"),
            1 => command = format!("{{ {command}; }}"),
            _ => {}
        }
        line.push_str(&command);
    }
    if rng.below(10) == 0 {
        line.push(';');
    }
    line
}

struct Outcome {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    log: Vec<String>,
    files: BTreeMap<String, String>,
}

struct Sandbox {
    root: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let root = std::env::temp_dir().join(format!("lens-shells-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let bin = root.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        for program in PROGRAMS {
            write_executable(&bin.join(program), STUB);
        }
        // A link, not a copy: a copy being written while another thread forks fails to
        // exec with ETXTBSY.
        let real = root.join("real");
        std::fs::create_dir_all(&real).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_lens"), real.join("lens")).unwrap();
        Sandbox { root }
    }

    /// Run `line` with `shell` in a fresh working directory.
    fn run(&self, shell: &str, line: &str, real_lens: bool) -> Outcome {
        let work = self.root.join("work");
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(work.join("sub")).unwrap();
        for (name, text) in [("a.txt", "a"), ("b.txt", "b"), ("in1", "input\n")] {
            std::fs::write(work.join(name), text).unwrap();
        }
        write_executable(&work.join("sub/tool"), STUB);
        let log = self.root.join("stub.log");
        let _ = std::fs::remove_file(&log);
        let bin = self.root.join("bin");
        let real = self.root.join("real");
        // The real lens, when asked for, shadows the stub: it comes first on PATH.
        let path = if real_lens {
            format!("{}:{}", real.display(), bin.display())
        } else {
            bin.display().to_string()
        };
        let output = Command::new(shell)
            .arg("-c")
            .arg(line)
            .current_dir(&work)
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.root.join("home"))
            .env("FOO", "outer")
            .env("STUB_LOG", &log)
            .env("LENS_STORE", self.root.join("store"))
            .env("LENS_LOG_DIR", self.root.join("lenslog"))
            .env("LENS_CONFIG", self.root.join("config.toml"))
            .output()
            .expect("the shell runs");
        let mut files = BTreeMap::new();
        collect(&work, &work, &mut files);
        Outcome {
            status: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            log: std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .map(str::to_owned)
                .collect(),
            files,
        }
    }
}

fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn collect(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            files.insert(
                name,
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned(),
            );
        }
    }
}

/// Compare one rewritten line with its original; the message says what differed.
fn compare(
    shell: &str,
    line: &str,
    rewritten: &str,
    before: &Outcome,
    after: &Outcome,
    stubbed: bool,
) -> Result<(), String> {
    let show = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        format!(
            "{shell}: {what} differs\noriginal:  {line:?}\nrewritten: {rewritten:?}\nbefore: {a:?}\nafter:  {b:?}"
        )
    };
    if before.status != after.status {
        return Err(show("status", &before.status, &after.status));
    }
    if before.stdout != after.stdout {
        return Err(show("stdout", &before.stdout, &after.stdout));
    }
    if before.stderr != after.stderr {
        return Err(show("stderr", &before.stderr, &after.stderr));
    }
    if before.files != after.files {
        return Err(show("files", &before.files, &after.files));
    }
    let programs: Vec<&String> = after.log.iter().filter(|l| *l != "lens").collect();
    let original: Vec<&String> = before.log.iter().filter(|l| *l != "lens").collect();
    if programs != original {
        return Err(show("argv sequence", &before.log, &after.log));
    }
    if stubbed {
        // Every `lens` record is followed by the program it ran, which is one lens helps,
        // and there are no more of them than `lens ` insertions in the line.
        for (i, record) in after.log.iter().enumerate() {
            if record == "lens" {
                let next = after
                    .log
                    .get(i + 1)
                    .map(|n| n.split('|').next().unwrap_or(""));
                let helped = next.is_some_and(|n| n == "env" || lens::shell::HELPED.contains(&n));
                if !helped {
                    return Err(show("lens placement", &before.log, &after.log));
                }
            }
        }
        let added = rewritten.matches("lens ").count() - line.matches("lens ").count();
        let ran = after.log.iter().filter(|l| *l == "lens").count()
            - before.log.iter().filter(|l| *l == "lens").count();
        if ran > added {
            return Err(show("lens count", &added, &ran));
        }
    }
    Ok(())
}

/// The rewritten line is the original with `lens ` inserted, and nothing else changed.
fn only_insertions(line: &str, rewritten: &str) -> bool {
    let mut rest = rewritten;
    let mut original = line;
    while !original.is_empty() || !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("lens ")
            && !original.starts_with("lens ")
        {
            rest = after;
            continue;
        }
        let mut chars = original.chars();
        let Some(c) = chars.next() else { return false };
        if !rest.starts_with(c) {
            return false;
        }
        rest = &rest[c.len_utf8()..];
        original = chars.as_str();
    }
    true
}

/// The shell's absolute path: the commands run with a PATH of stubs only.
fn find(name: &str) -> Option<String> {
    let path = std::env::var("PATH").unwrap_or_default();
    path.split(':')
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

#[test]
fn rewritten_lines_run_the_same_under_bash_and_dash() {
    let shells: Vec<String> = ["bash", "dash"].into_iter().filter_map(find).collect();
    assert_eq!(
        shells.len(),
        2,
        "bash and dash must both be installed (apt-get install dash)"
    );
    let mut rng = Rng(0x1e45_2026_0009_0001);
    let mut cases = Vec::new();
    let mut generated = 0;
    while cases.len() < 250 && generated < 20_000 {
        let line = generate(&mut rng);
        generated += 1;
        if let Some(rewritten) = rewrite(&line) {
            assert!(
                only_insertions(&line, &rewritten),
                "{line:?} became {rewritten:?}"
            );
            cases.push((line, rewritten));
        }
    }
    let rewritten_count = cases.len();
    // Four workers, each in its own sandbox: the cost is process start-up, not CPU.
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = cases
            .chunks(rewritten_count.div_ceil(4))
            .enumerate()
            .map(|(n, chunk)| {
                let shells = &shells;
                scope.spawn(move || {
                    let sandbox = Sandbox::new(&format!("prop{n}"));
                    let (mut failures, mut real_runs) = (Vec::new(), 0);
                    for (i, (line, rewritten)) in chunk.iter().enumerate() {
                        for shell in shells {
                            let before = sandbox.run(shell, line, false);
                            let after = sandbox.run(shell, rewritten, false);
                            if let Err(message) =
                                compare(shell, line, rewritten, &before, &after, true)
                            {
                                failures.push(message);
                            }
                        }
                        if i % 10 == 0 {
                            real_runs += 1;
                            let before = sandbox.run(&shells[0], line, true);
                            let after = sandbox.run(&shells[0], rewritten, true);
                            if let Err(message) = compare(
                                "bash with the real lens",
                                line,
                                rewritten,
                                &before,
                                &after,
                                false,
                            ) {
                                failures.push(message);
                            }
                        }
                    }
                    let _ = std::fs::remove_dir_all(&sandbox.root);
                    (failures, real_runs)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker finishes"))
            .collect()
    });
    let failures: Vec<String> = results.iter().flat_map(|(f, _)| f.clone()).collect();
    let real_runs: usize = results.iter().map(|(_, r)| r).sum();
    assert!(
        failures.is_empty(),
        "{} of {rewritten_count} rewritten lines differ:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        rewritten_count >= 250,
        "only {rewritten_count} of {generated} generated lines were rewritten"
    );
    assert!(
        real_runs >= 25,
        "only {real_runs} runs through the real lens"
    );
    eprintln!(
        "{generated} lines generated, {rewritten_count} rewritten and run, {real_runs} through the real lens"
    );
}

#[test]
fn the_generator_reaches_every_refusal_the_rewrite_knows() {
    // The property only means something if generated lines exercise the structure the
    // rewrite refuses as well as what it rewrites.
    let mut rng = Rng(0x1e45_2026_0009_0001);
    let lines: Vec<String> = (0..5000).map(|_| generate(&mut rng)).collect();
    let refused = lines.iter().filter(|l| rewrite(l).is_none()).count();
    assert!(
        refused > 1000 && refused < 4800,
        "{refused} of 5000 refused"
    );
    for needle in [
        "|", "&&", "||", ";", "\n", "$(", "`", ">", "<", "(", "{", "#", "\\\n", " & ", "FOO=2",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.contains(needle) && rewrite(l).is_none()),
            "no refused line holds {needle:?}"
        );
    }
    for needle in [
        "&&",
        "||",
        ";",
        "'",
        "\"",
        "\\",
        "*",
        "~",
        "ü",
        "cd ",
        "env ",
        "lens cargo",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.contains(needle) && rewrite(l).is_some()),
            "no rewritten line holds {needle:?}"
        );
    }
}

#[test]
fn only_insertions_notices_any_other_change() {
    assert!(only_insertions(
        "cd x && cargo test",
        "cd x && lens cargo test"
    ));
    assert!(only_insertions("lens cargo", "lens cargo"));
    assert!(!only_insertions("cargo test", "lens cargo  test"));
    assert!(!only_insertions("cargo test", "lens cargo tests"));
}
