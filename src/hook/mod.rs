//! `lens hook <agent> [--post]`: an agent's hook, one payload on stdin, one answer on stdout.
//!
//! Two kinds of hook. Before a shell command runs, the rewrite hook answers with the
//! command that `shell::rewrite` gives, in the agent's format, or with "no opinion". After
//! it ran, the output hook ([`view_of`]) stores the output the agent hands over under a new
//! handle and answers with the view a live `lens` run would have printed, so pipelines and
//! everything else the rewrite leaves alone are covered without changing any command.
//!
//! The answer is "no opinion" (exit 0, nothing on stdout: every supported agent reads that
//! as "carry on as you were") whenever lens cannot vouch for another: a payload it cannot
//! parse, a field it does not expect, a command or output it did not recognise, a store or
//! config failure, or a panic, which is caught here and kept off the agent's screen. A
//! hook runs before every command, so nothing here waits on anything but the payload.
//! Each agent's format lives in its own file, next to the documentation it follows.
//!
//! The config's `[hook] exclude` list names commands both hooks leave alone ([`rewrite`]
//! and [`view_of`] check it, so an agent's hook gets it by calling them): a line that runs
//! an excluded command anywhere in it is not rewritten at all, and its output is never
//! replaced. Finding the commands of an arbitrary line ([`excluded`]) cuts it at every
//! shell operator and looks at each piece's words: cruder than a shell, and wrong only in
//! the direction of leaving more alone.
//!
//! Each answer is logged as a run is: a replaced output as a `hook` record (handle, argv,
//! exit, level, the bytes handed over and the bytes shown; never the output), a rewrite as
//! a `rewrite` record with the command the agent will run, so `lens stats` can say what
//! the hooks did. A replacement is logged by `view_of` once its output is stored, so an
//! agent's file that failed to build its answer after that would leave a record of a view
//! nobody saw (claude.rs only puts the two strings it read back into the object); a
//! rewrite is logged once its answer is written. A log that cannot be written changes
//! nothing.

pub mod claude;
pub mod gemini;
pub mod opencode;

use crate::block::Stream;
use crate::cli::HookArgs;
use crate::config;
use crate::handle::Handle;
use crate::log;
use crate::pipeline;
use crate::shell;
use crate::store::{self, Meta, Store};
use crate::view;
use std::io::{Read, Write};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest payload read; a larger one is no opinion. Agents truncate a tool's output
/// long before this (Claude Code persists it to a file past about 30,000 characters).
pub const MAX_PAYLOAD: u64 = 64 << 20;

/// The agents `lens hook` answers for.
pub const AGENTS: &[&str] = &["claude", "gemini", "opencode"];

/// Agents whose hooks can rewrite a command only by approving it too, which lens never
/// does (`init.rs` says why for each). `lens init` gives them an instruction file instead,
/// and a hook configured by hand gets "no opinion" (exit 0, nothing on stdout) rather than
/// a usage error: their hook runners read exit 2 as "block the tool call".
pub const NOT_YET: &[&str] = &["codex", "copilot", "cursor"];

/// Run the hook; returns the exit status (0 unless the command line itself was wrong).
pub fn run(args: HookArgs) -> i32 {
    if NOT_YET.contains(&args.agent.as_str()) {
        return 0;
    }
    if !AGENTS.contains(&args.agent.as_str()) {
        eprintln!(
            "lens: no hook for `{}` (hooks: {})",
            args.agent,
            AGENTS.join(", ")
        );
        return 2;
    }
    let mut payload = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_PAYLOAD + 1)
        .read_to_end(&mut payload);
    if read.is_err() || payload.len() as u64 > MAX_PAYLOAD {
        return 0;
    }
    let env = |key: &str| std::env::var(key).ok();
    let answer = view::quietly(|| match (args.agent.as_str(), args.post) {
        ("claude", false) => claude::before(&payload, &env),
        ("claude", true) => claude::after(&payload, &env),
        ("gemini", false) => gemini::before(&payload, &env),
        ("opencode", true) => opencode::after(&payload, &env),
        _ => None,
    });
    if let Ok(Some(answer)) = answer {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(&answer).and_then(|()| stdout.flush());
        if !args.post {
            let _ = view::quietly(|| log_rewrite(&args.agent, &answer, &env));
        }
    }
    0
}

/// The rewritten command, if `command` is one lens should rewrite and the config does not
/// exclude: what every agent's rewrite hook answers with. A config that cannot be read is
/// no opinion, as it is for the output hook.
pub fn rewrite(command: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    // Most commands are not rewritten: find that out before reading any file.
    let rewritten = shell::rewrite(command)?;
    let (config, config_error) = config::load_or_default(env);
    if config_error.is_some() || excluded(&config, command) {
        return None;
    }
    Some(rewritten)
}

/// Whether any command `line` could run is one `[hook] exclude` names. The line is cut at
/// every operator and grouping character, quotes are dropped, and leading assignments and
/// shell keywords are skipped, so `cd x && terraform plan | tee log`, `if terraform plan;
/// then ...` and `$(terraform output)` all count as running terraform.
pub fn excluded(config: &config::Config, line: &str) -> bool {
    if config.hook.exclude.is_empty() {
        return false;
    }
    const KEYWORDS: &[&str] = &[
        "if", "then", "else", "elif", "do", "while", "until", "!", "time", "exec", "command",
        "nohup", "sudo",
    ];
    line.split(['|', '&', ';', '(', ')', '{', '}', '`', '\n', '<', '>'])
        .any(|piece| {
            let words: Vec<String> = piece
                .split_whitespace()
                .map(|w| w.replace(['\'', '"', '\\'], ""))
                .skip_while(|w| {
                    KEYWORDS.contains(&w.as_str())
                        || w.split_once('=').is_some_and(|(name, _)| {
                            !name.is_empty()
                                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        })
                })
                .collect();
            config.hook.excludes(&words)
        })
}

/// Log a rewrite: the command the agent will now run, found in the answer.
fn log_rewrite(agent: &str, answer: &[u8], env: &dyn Fn(&str) -> Option<String>) {
    fn command(value: &serde_json::Value) -> Option<&str> {
        match value {
            serde_json::Value::Object(map) => map
                .get("command")
                .and_then(serde_json::Value::as_str)
                .or_else(|| map.values().find_map(command)),
            _ => None,
        }
    }
    let answer: Option<serde_json::Value> = serde_json::from_slice(answer).ok();
    let argv = answer
        .as_ref()
        .and_then(command)
        .map(|c| vec!["sh".to_owned(), "-c".to_owned(), c.to_owned()])
        .unwrap_or_default();
    let record = log::Record {
        v: log::VERSION,
        ts_ms: now_ms(),
        mode: "rewrite",
        argv,
        note: Some(format!("lens hook {agent}")),
        ..log::Record::default()
    };
    let (config, _) = config::load_or_default(env);
    append(&record, env, config.log.max_bytes);
}

/// Append a record to the log, as a run does; a failure is dropped (invariant 10).
fn append(record: &log::Record, env: &dyn Fn(&str) -> Option<String>, max_bytes: u64) {
    if let Some(dir) = log::dir(env) {
        let _ = log::append(&dir, record, max_bytes);
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64
}

/// The views to show in place of a command's stdout and stderr, after it ran: `None` when
/// lens cannot vouch for them or they would equal the output.
///
/// Output that already came through lens (the command runs `lens`, or the output carries
/// a lens marker) is never filtered twice. The output is stored under a fresh handle
/// before the view is rendered with its handle, as a live run does; output that comes
/// back unchanged is never stored. `exit` is what the agent reports; the argv is the
/// command's own when it is one simple command, else `sh -c COMMAND`, which is what ran.
pub fn view_of(
    command: &str,
    stdout: &str,
    stderr: &str,
    exit: i32,
    cwd: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<(String, String)> {
    let mentions_lens = command
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
        .any(|w| w == "lens");
    if mentions_lens || stdout.contains("[lens: ") || stderr.contains("[lens: ") {
        return None;
    }
    let argv = shell::simple_argv(command)
        .unwrap_or_else(|| vec!["sh".into(), "-c".into(), command.into()]);
    let (config, config_error) = config::load_or_default(env);
    if config_error.is_some() || excluded(&config, command) {
        return None;
    }
    let command = crate::command::CommandLine::from_words(&argv);
    let (level, budget) = config::level_and_budget(&config, None, None, &command.program);
    if level == crate::level::Level::Raw {
        return None;
    }
    let render = |raw: &str, stream, handle: &str| {
        let request = pipeline::Request {
            stream,
            level,
            budget,
            handle,
            exit_code: exit,
            command: &command,
            settings: &config.pipeline,
        };
        let (shown, _) = view::render(raw.as_bytes(), &request);
        String::from_utf8(shown.into_owned()).ok()
    };
    let views = |handle: &str| {
        render(stdout, Stream::Stdout, handle).zip(render(stderr, Stream::Stderr, handle))
    };
    // Most outputs an agent sees are short and come back unchanged: find that out before
    // touching the store. A handle's text has one length, so a stand-in decides the same.
    match views("00000000") {
        Some((out, err)) if out != stdout || err != stderr => {}
        _ => return None,
    }
    let store = Store::new(store::root(env)?);
    let started = SystemTime::now();
    let since_epoch = started.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seed = format!(
        "hook\0{argv:?}\0{cwd}\0{}\0{}",
        std::process::id(),
        since_epoch.as_nanos()
    );
    let handle = store.reserve(seed.as_bytes()).ok()?;
    let meta = Meta {
        handle: handle.to_string(),
        argv: argv.clone(),
        cwd: cwd.to_owned(),
        exit,
        signal: None,
        started_ms: since_epoch.as_millis() as u64,
        dur_ms: 0,
        stdout_bytes: stdout.len() as u64,
        stderr_bytes: stderr.len() as u64,
        lens_version: env!("CARGO_PKG_VERSION").to_owned(),
        level: Some(level),
        budget: Some(budget),
    };
    if store
        .write(handle, stdout.as_bytes(), stderr.as_bytes(), &meta)
        .is_err()
    {
        store.discard(handle);
        return None;
    }
    match views(&handle.to_string()) {
        Some((out, err)) if out != stdout || err != stderr => {
            sweep(&store, &config, handle);
            let record = log::Record {
                v: log::VERSION,
                ts_ms: meta.started_ms,
                mode: "hook",
                argv,
                cwd: cwd.to_owned(),
                handle: Some(handle.to_string()),
                level: Some(level),
                exit: Some(exit),
                raw: Some(log::Bytes {
                    stdout: stdout.len() as u64,
                    stderr: stderr.len() as u64,
                }),
                shown: Some(log::Bytes {
                    stdout: out.len() as u64,
                    stderr: err.len() as u64,
                }),
                note: Some("output replaced by `lens hook --post`".into()),
                ..log::Record::default()
            };
            append(&record, env, config.log.max_bytes);
            Some((out, err))
        }
        _ => {
            store.discard(handle);
            None
        }
    }
}

/// The retention rule, applied as a live run applies it.
fn sweep(store: &Store, config: &config::Config, keep: Handle) {
    let now = SystemTime::now();
    if store.sweep_due(now) {
        let _ = store.sweep(&config.store, now, Some(keep));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_in(dir: &std::path::Path) -> impl Fn(&str) -> Option<String> {
        let store = dir.join("store").display().to_string();
        let config = dir.join("config.toml").display().to_string();
        move |key| match key {
            "LENS_STORE" => Some(store.clone()),
            "LENS_CONFIG" => Some(config.clone()),
            _ => None,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("lens-hook-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn progress(n: usize) -> String {
        (0..n)
            .map(|i| format!("Downloading crate {i} of {n}\n"))
            .collect::<String>()
            + "done\n"
    }

    #[test]
    fn agents_without_a_format_yet_get_no_opinion_and_typos_a_usage_error() {
        for agent in NOT_YET {
            let args = HookArgs {
                agent: (*agent).into(),
                post: false,
            };
            assert_eq!(run(args), 0, "{agent}");
        }
        let typo = HookArgs {
            agent: "claud".into(),
            post: true,
        };
        assert_eq!(run(typo), 2);
    }

    #[test]
    fn output_already_through_lens_is_never_filtered_again() {
        let dir = temp("twice");
        let env = env_in(&dir);
        let big = progress(400);
        assert_eq!(view_of("lens cargo build", &big, "", 0, "/", &env), None);
        assert_eq!(view_of("cd x && lens make", &big, "", 0, "/", &env), None);
        let marked = format!("{big}[lens: 3 lines elided, 1-3, 0badcafe]\n");
        assert_eq!(view_of("cat log", &marked, "", 0, "/", &env), None);
    }

    #[test]
    fn a_view_that_changes_nothing_is_no_opinion_and_leaves_no_entry() {
        let dir = temp("same");
        let env = env_in(&dir);
        assert_eq!(view_of("ls", "a\nb\n", "", 0, "/", &env), None);
        let entries = std::fs::read_dir(dir.join("store"))
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(entries, 0);
    }

    #[test]
    fn a_broken_config_or_no_store_is_no_opinion() {
        let dir = temp("broken");
        std::fs::write(dir.join("config.toml"), "level = \"loud\"").unwrap();
        let env = env_in(&dir);
        assert_eq!(view_of("sh ./x.sh", &progress(400), "", 0, "/", &env), None);
        let nothing = |_: &str| None;
        assert_eq!(
            view_of("sh ./x.sh", &progress(400), "", 0, "/", &nothing),
            None
        );
    }
}
