//! The command line: a small lexer and the grammar of `lens [OPTIONS] [--] <command>`.
//!
//! The shape is lexopt's, in our own hundred lines: the lexer yields long options, short
//! options and values; `--name=value` splits; `value()` takes the next argument even when
//! it starts with `-`, so `--level -1` is an out-of-range level rather than an unknown
//! option. The first positional ends lens's options: from there on argv belongs to the
//! child untouched, so `lens mytool --budget 3` runs `mytool --budget 3`. `show` and
//! `stats` are matched at that position, before any `--`; `lens -- show` runs a program
//! named `show`. After the subcommand word the grammar is the subcommand's own, and so are
//! its usage errors: a mistake after `show` is answered with show's usage line, not with
//! "options go before the command", which is advice for the other grammar.
//!
//! Parsing only records what was typed. Merging config.toml into the settings happens
//! later, with the command line winning; `--help` and `--version` return before any file
//! is read.

use crate::level::Level;
use std::ffi::{OsStr, OsString};
use std::fmt;

/// The default ranking budget, in bytes per stream: about what an agent's harness shows
/// of one command's output before cutting it.
pub const DEFAULT_BUDGET: usize = 16_000;

/// What the user asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Parsed {
    Help,
    Version,
    Run(Args),
    Show(ShowArgs),
    Stats(StatsArgs),
    Hook(HookArgs),
    Init(InitArgs),
}

/// `lens hook <agent> [--post]`.
#[derive(Debug, PartialEq, Eq)]
pub struct HookArgs {
    pub agent: String,
    /// The after-the-command hook (replace the output) instead of the rewrite.
    pub post: bool,
}

/// `lens init <agent> [--dry-run] [--uninstall] [--project]` and `lens init --list`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct InitArgs {
    /// `None` with `list`.
    pub agent: Option<String>,
    pub list: bool,
    pub dry_run: bool,
    pub uninstall: bool,
    pub project: bool,
}

/// `lens [OPTIONS] <command> [args...]`: options as typed, and the command.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub level: Option<Level>,
    pub budget: Option<usize>,
    pub command: Vec<OsString>,
}

/// `lens show <handle>|last [...]` or `lens show --list [N]`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ShowArgs {
    /// As typed (`last` included); `lens::show` parses it strictly. Empty with `list`.
    pub handle: String,
    /// `--list [N]`: list the N newest runs instead of showing one.
    pub list: Option<usize>,
    pub level: Option<Level>,
    pub budget: Option<usize>,
    /// `--stdout` / `--stderr`; neither means both, each on its own stream.
    pub stdout: bool,
    pub stderr: bool,
    /// `--lines A-B`, every range given, in the order typed.
    pub lines: Vec<LineRange>,
    /// `--grep RE`, already checked to compile.
    pub grep: Option<String>,
}

/// How many runs `lens show --list` prints when no number is given.
pub const DEFAULT_LIST: usize = 20;

/// Lines `first` to `last` of a stream, 1-based and inclusive, as markers name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    pub first: usize,
    pub last: usize,
}

impl LineRange {
    pub fn contains(self, line: usize) -> bool {
        (self.first..=self.last).contains(&line)
    }
}

impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.first, self.last)
    }
}

/// `lens stats [--json] [--since DAYS] [--top N]`.
#[derive(Debug, PartialEq, Eq)]
pub struct StatsArgs {
    pub json: bool,
    /// Only records from the last DAYS days.
    pub since_days: Option<u64>,
    /// How many commands the "top commands" table lists.
    pub top: usize,
}

/// How many commands `lens stats` ranks when `--top` is not given.
pub const DEFAULT_TOP: usize = 5;

const SHOW_USAGE: &str = "lens show <handle>|last [--level N] [--stdout|--stderr] \
                          [--lines A-B]... [--grep RE], or lens show --list [N]";
const STATS_USAGE: &str = "lens stats [--json] [--since DAYS] [--top N]";
const HOOK_USAGE: &str = "lens hook <agent> [--post]";
const INIT_USAGE: &str = "lens init <agent> [--dry-run] [--uninstall] [--project] | --list";

/// A usage error: printed as one line, exit status 2, nothing run.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    NoCommand,
    NoHandle,
    Unknown(String),
    MissingValue(&'static str),
    BadValue {
        option: &'static str,
        value: String,
        expected: &'static str,
    },
    BadRegex {
        value: String,
        reason: String,
    },
    /// An unknown option or a stray argument after a subcommand word.
    UnknownIn {
        option: String,
        usage: &'static str,
    },
    UnexpectedIn {
        arg: String,
        usage: &'static str,
    },
    /// `lens hook` or `lens init` without an agent.
    NoAgent(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoCommand => write!(
                f,
                "no command given (usage: lens [OPTIONS] [--] <command> [args...])"
            ),
            Error::NoHandle => write!(
                f,
                "`lens show` needs a handle, `last` or `--list` (usage: {SHOW_USAGE})"
            ),
            Error::Unknown(option) => write!(
                f,
                "unknown option `{option}` (options go before the command; see `lens --help`)"
            ),
            Error::MissingValue(option) => write!(f, "`{option}` needs a value"),
            Error::BadValue {
                option,
                value,
                expected,
            } => {
                write!(f, "`{option}` takes {expected}, not `{value}`")
            }
            Error::BadRegex { value, reason } => {
                write!(
                    f,
                    "`--grep` takes a regular expression, not `{value}`: {reason}"
                )
            }
            Error::UnknownIn { option, usage } => {
                write!(f, "unknown option `{option}` (usage: {usage})")
            }
            Error::UnexpectedIn { arg, usage } => {
                write!(f, "unexpected argument `{arg}` (usage: {usage})")
            }
            Error::NoAgent(word) => write!(
                f,
                "`lens {word}` needs an agent (`lens init --list` shows them)"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Parse the arguments that follow the program name.
pub fn parse(args: Vec<OsString>) -> Result<Parsed, Error> {
    let mut lex = Lexer::new(args);
    let mut args = Args::default();
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("level") => args.level = Some(lex.level("--level")?),
            Arg::Long("budget") => args.budget = Some(lex.budget("--budget")?),
            Arg::Long("help") | Arg::Short('h') => return Ok(Parsed::Help),
            Arg::Long("version") | Arg::Short('V') => return Ok(Parsed::Version),
            Arg::Long("") => {
                args.command = lex.rest();
                return if args.command.is_empty() {
                    Err(Error::NoCommand)
                } else {
                    Ok(Parsed::Run(args))
                };
            }
            Arg::Value(first) if first == "show" => return show(lex, args),
            Arg::Value(first) if first == "stats" => return stats(lex),
            Arg::Value(first) if first == "hook" => return hook(lex),
            Arg::Value(first) if first == "init" => return init(lex),
            Arg::Value(first) => {
                args.command = std::iter::once(first).chain(lex.rest()).collect();
                return Ok(Parsed::Run(args));
            }
            other => return Err(Error::Unknown(other.to_string())),
        }
    }
    Err(Error::NoCommand)
}

/// `show`'s own options, after the word. Options typed before `show` carry over.
fn show(mut lex: Lexer, before: Args) -> Result<Parsed, Error> {
    let mut handle = None;
    let mut show = ShowArgs {
        level: before.level,
        budget: before.budget,
        ..ShowArgs::default()
    };
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("level") => show.level = Some(lex.level("--level")?),
            Arg::Long("budget") => show.budget = Some(lex.budget("--budget")?),
            Arg::Long("stdout") => show.stdout = true,
            Arg::Long("stderr") => show.stderr = true,
            Arg::Long("lines") => show.lines.extend(lex.line_ranges()?),
            Arg::Long("grep") => show.grep = Some(lex.regex()?),
            Arg::Long("list") => show.list = Some(lex.optional_count("--list")?),
            Arg::Long("help") | Arg::Short('h') => return Ok(Parsed::Help),
            Arg::Value(value) if handle.is_none() => {
                handle = Some(value.to_string_lossy().into_owned())
            }
            Arg::Value(value) => {
                return Err(Error::UnexpectedIn {
                    arg: value.to_string_lossy().into_owned(),
                    usage: SHOW_USAGE,
                });
            }
            other => {
                return Err(Error::UnknownIn {
                    option: other.to_string(),
                    usage: SHOW_USAGE,
                });
            }
        }
    }
    match (handle, show.list) {
        (Some(handle), None) => show.handle = handle,
        (None, Some(_)) => {}
        (Some(handle), Some(_)) => {
            return Err(Error::UnexpectedIn {
                arg: handle,
                usage: SHOW_USAGE,
            });
        }
        (None, None) => return Err(Error::NoHandle),
    }
    Ok(Parsed::Show(show))
}

/// `stats`'s own options, after the word.
fn stats(mut lex: Lexer) -> Result<Parsed, Error> {
    let mut stats = StatsArgs {
        json: false,
        since_days: None,
        top: DEFAULT_TOP,
    };
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("json") => stats.json = true,
            Arg::Long("since") => {
                stats.since_days = Some(lex.count("--since", "a whole number of days")? as u64)
            }
            Arg::Long("top") => stats.top = lex.count("--top", "a whole number of commands")?,
            Arg::Long("help") | Arg::Short('h') => return Ok(Parsed::Help),
            Arg::Value(value) => {
                return Err(Error::UnexpectedIn {
                    arg: value.to_string_lossy().into_owned(),
                    usage: STATS_USAGE,
                });
            }
            other => {
                return Err(Error::UnknownIn {
                    option: other.to_string(),
                    usage: STATS_USAGE,
                });
            }
        }
    }
    Ok(Parsed::Stats(stats))
}

/// `hook`'s options, after the word.
fn hook(mut lex: Lexer) -> Result<Parsed, Error> {
    let (mut agent, mut post) = (None, false);
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("post") => post = true,
            Arg::Value(value) if agent.is_none() => {
                agent = Some(value.to_string_lossy().into_owned())
            }
            Arg::Value(value) => {
                return Err(Error::UnexpectedIn {
                    arg: value.to_string_lossy().into_owned(),
                    usage: HOOK_USAGE,
                });
            }
            other => return Err(Error::Unknown(other.to_string())),
        }
    }
    let agent = agent.ok_or(Error::NoAgent("hook"))?;
    Ok(Parsed::Hook(HookArgs { agent, post }))
}

/// `init`'s options, after the word.
fn init(mut lex: Lexer) -> Result<Parsed, Error> {
    let mut init = InitArgs::default();
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("list") => init.list = true,
            Arg::Long("dry-run") => init.dry_run = true,
            Arg::Long("uninstall") => init.uninstall = true,
            Arg::Long("project") => init.project = true,
            Arg::Value(value) if init.agent.is_none() => {
                init.agent = Some(value.to_string_lossy().into_owned())
            }
            Arg::Value(value) => {
                return Err(Error::UnexpectedIn {
                    arg: value.to_string_lossy().into_owned(),
                    usage: INIT_USAGE,
                });
            }
            other => return Err(Error::Unknown(other.to_string())),
        }
    }
    if init.agent.is_none() && !init.list {
        return Err(Error::NoAgent("init"));
    }
    Ok(Parsed::Init(init))
}

/// One lexed argument.
#[derive(Debug, PartialEq, Eq)]
enum Arg<'a> {
    Short(char),
    /// `--name`, without the dashes; `--` alone is `Long("")`.
    Long(&'a str),
    Value(OsString),
}

impl fmt::Display for Arg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Short(c) => write!(f, "-{c}"),
            Arg::Long(name) => write!(f, "--{name}"),
            Arg::Value(value) => write!(f, "{}", value.to_string_lossy()),
        }
    }
}

struct Lexer {
    args: std::iter::Peekable<std::vec::IntoIter<OsString>>,
    /// The long option's name of the argument being lexed, kept so `Arg::Long` can borrow.
    current: String,
    /// `v` of `--name=v`, waiting for `value()`.
    attached: Option<OsString>,
    /// The rest of a short-option cluster such as `-hV`.
    shorts: Vec<char>,
}

impl Lexer {
    fn new(args: Vec<OsString>) -> Lexer {
        Lexer {
            args: args.into_iter().peekable(),
            current: String::new(),
            attached: None,
            shorts: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<Arg<'_>> {
        if let Some(c) = self.shorts.pop() {
            return Some(Arg::Short(c));
        }
        let arg = self.args.next()?;
        let Some(text) = arg.to_str() else {
            return Some(Arg::Value(arg));
        };
        if let Some(long) = text.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(OsString::from(value))),
                None => (long, None),
            };
            self.current = name.to_owned();
            self.attached = value;
            Some(Arg::Long(&self.current))
        } else if text.len() > 1 && text.starts_with('-') {
            self.shorts = text[1..].chars().rev().collect();
            self.shorts.pop().map(Arg::Short)
        } else {
            Some(Arg::Value(arg))
        }
    }

    /// The option's value: `--name=v`, else the next argument whatever it looks like.
    fn value(&mut self, option: &'static str) -> Result<OsString, Error> {
        self.attached
            .take()
            .or_else(|| self.args.next())
            .ok_or(Error::MissingValue(option))
    }

    fn level(&mut self, option: &'static str) -> Result<Level, Error> {
        let value = self.value(option)?;
        parse_level(&value).ok_or_else(|| Error::BadValue {
            option,
            value: value.to_string_lossy().into_owned(),
            expected: "a level from 0 to 3",
        })
    }

    fn budget(&mut self, option: &'static str) -> Result<usize, Error> {
        let value = self.value(option)?;
        parse_budget(&value).ok_or_else(|| Error::BadValue {
            option,
            value: value.to_string_lossy().into_owned(),
            expected: "a whole number of bytes",
        })
    }

    fn count(&mut self, option: &'static str, expected: &'static str) -> Result<usize, Error> {
        let value = self.value(option)?;
        parse_budget(&value).ok_or_else(|| Error::BadValue {
            option,
            value: value.to_string_lossy().into_owned(),
            expected,
        })
    }

    /// `--list [N]`: the number is taken only when the next argument is one, so
    /// `lens show --list` alone means the default.
    fn optional_count(&mut self, option: &'static str) -> Result<usize, Error> {
        if self.attached.is_some() {
            return self.count(option, "a whole number of runs");
        }
        match self.args.peek().and_then(|next| parse_budget(next)) {
            Some(count) => {
                self.args.next();
                Ok(count)
            }
            None => Ok(DEFAULT_LIST),
        }
    }

    /// `--lines A-B[,C-D...]`; a single `N` is the range `N-N`.
    fn line_ranges(&mut self) -> Result<Vec<LineRange>, Error> {
        let value = self.value("--lines")?;
        let bad = || Error::BadValue {
            option: "--lines",
            value: value.to_string_lossy().into_owned(),
            expected: "line ranges such as `10-51` or `3,7-9` (1-based, first not after last)",
        };
        let text = value.to_str().ok_or_else(bad)?;
        text.split(',')
            .map(|part| {
                let (first, last) = part.split_once('-').unwrap_or((part, part));
                let number = |n: &str| parse_budget(OsStr::new(n)).filter(|n| *n >= 1);
                match (number(first), number(last)) {
                    (Some(first), Some(last)) if first <= last => Ok(LineRange { first, last }),
                    _ => Err(bad()),
                }
            })
            .collect()
    }

    /// `--grep RE`, compiled once here so a bad pattern is a usage error before any file is
    /// read; the caller compiles it again, which cannot fail.
    fn regex(&mut self) -> Result<String, Error> {
        let value = self.value("--grep")?.to_string_lossy().into_owned();
        match regex::bytes::Regex::new(&value) {
            Ok(_) => Ok(value),
            Err(error) => Err(Error::BadRegex {
                reason: last_line(&error.to_string()),
                value,
            }),
        }
    }

    /// Everything not yet lexed, untouched.
    fn rest(&mut self) -> Vec<OsString> {
        self.args.by_ref().collect()
    }
}

fn parse_level(value: &OsStr) -> Option<Level> {
    let text = value.to_str()?;
    // `u64::from_str` accepts a leading `+`; a level is digits only.
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Level::from_number(text.parse().ok()?)
}

fn parse_budget(value: &OsStr) -> Option<usize> {
    let text = value.to_str()?;
    // `usize::from_str` accepts a leading `+`; a budget is digits only.
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
}

/// The regex crate explains a bad pattern over several lines, quoting it with a caret; the
/// last line says what is wrong, and a usage error is one line.
fn last_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or("invalid pattern")
        .to_owned()
}

/// `lens --help`.
pub const HELP: &str = "\
lens: run a command and show the part of its output that matters

Usage:
  lens [OPTIONS] [--] <command> [args...]       run, filter, store
  lens show <handle>|last [SHOW OPTIONS]        replay a run, or lines of it
  lens show --list [N]                          the N newest runs (default 20)
  lens stats [--json] [--since DAYS] [--top N]  what filtering saved (the log)
  lens init <agent> [--dry-run] [--uninstall] [--project] | --list
                                                wire lens into a coding agent
  lens hook <agent> [--post]                    an agent's hook (JSON on stdin)
  lens --help | --version

Options (only before the command; everything after it belongs to the command):
  --level N     how much to show, 0 to 3 (default 2):
                  2  the filtered view: progress and repetition elided, one
                     cause reported once, failures with their context, the
                     rest ranked
                  1  the failures, or the first twenty kept lines if nothing
                     failed
                  0  counts and one line: the failure, or the last line
                  3  the raw output, unfiltered
  --budget N    bytes per stream that ranking may keep beyond the failures and
                their context (default 16000; half as much again for a printed
                file, a diff or a log of commits)
  -h, --help    print this help
  -V, --version print the version

Every removal is announced by a marker line in the stream it stands in, e.g.
  [lens: 42 lines elided, 10-51, 1a2b3c4d]
(count, original line range, handle). The full output is kept in the store, and
  lens show 1a2b3c4d --lines 10-51
prints exactly those lines of the raw output.

lens show options (after the word `show`):
  --level N      re-render at another level; --level 3 replays the raw bytes
  --budget N     the ranking budget for the re-render
  --stdout, --stderr
                 one stream only, printed on stdout; without either, the
                 stdout view goes to stdout and the stderr view to stderr
  --lines A-B    the raw lines A to B (1-based, as markers name them), exactly
                 as stored; repeat it, or write 3,7-9, for several ranges
  --grep RE      the raw lines matching RE, as N:line, then a count on
                 stderr; with --lines, only the matches within those lines
  last           instead of a handle: the newest stored run
A run still being written, or whose writer died, is shown raw, as far as it got.

lens stats options:
  --json           the report as JSON (its fields are listed in the README)
  --since DAYS     only runs from the last DAYS days
  --top N          how many commands to rank by bytes saved (default 5)
Savings count each run's output up to 30,000 bytes, the most an agent harness
passes on; tokens are estimated as bytes / 4.

Agents: `lens init claude|gemini` adds hooks to the agent's settings, and
`lens init opencode` a plugin that shows lens's view of each bash command's
output after it ran. Codex CLI, GitHub Copilot CLI and Cursor can rewrite a
command from a hook only by approving it as well, so `lens init
codex|copilot|cursor` adds lens's instructions to a file the agent reads
instead; `lens init aider|cline|roo|windsurf` does the same for the agents that
read only instruction files, and `lens init agents-md` for ./AGENTS.md.
`--project` picks the project's file over the user's; `lens init --list` shows
what is installed where. A config's `[hook] exclude` names commands the hooks
leave alone.

Interactive and never-ending commands (REPLs, editors, pagers, `git add -p`,
`tail -f`, dev servers) are run directly, unfiltered and unstored; under
`timeout N` a command that only runs until stopped is captured.

Exit status: the command's own; 128+N if it died of signal N; 127 if it was not
found, 126 if it could not be executed; 2 for a usage error of lens itself.

Environment: LENS_STORE (store directory), LENS_LOG_DIR (log directory),
LENS_CONFIG (config file). Defaults follow XDG: ~/.cache/lens,
~/.local/state/lens, ~/.config/lens/config.toml.
";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Parsed, Error> {
        parse(line.split_whitespace().map(OsString::from).collect())
    }

    fn run(level: Option<u8>, budget: Option<usize>, command: &str) -> Parsed {
        Parsed::Run(Args {
            level: level.map(|n| Level::from_number(n.into()).unwrap()),
            budget,
            command: command.split_whitespace().map(OsString::from).collect(),
        })
    }

    #[test]
    fn flags_after_the_command_belong_to_the_child() {
        assert_eq!(
            parse_str("--level 1 mytool --budget 3").unwrap(),
            run(Some(1), None, "mytool --budget 3")
        );
        assert_eq!(
            parse_str("cargo build --help").unwrap(),
            run(None, None, "cargo build --help")
        );
        assert_eq!(
            parse_str("grep -V x").unwrap(),
            run(None, None, "grep -V x")
        );
    }

    #[test]
    fn equals_form_and_separate_values_both_work() {
        assert_eq!(
            parse_str("--level=0 --budget=50 ls").unwrap(),
            run(Some(0), Some(50), "ls")
        );
        assert_eq!(
            parse_str("--budget 0 ls").unwrap(),
            run(None, Some(0), "ls")
        );
    }

    #[test]
    fn double_dash_ends_options_even_before_show() {
        assert_eq!(parse_str("-- show x").unwrap(), run(None, None, "show x"));
        assert_eq!(
            parse_str("--level 1 -- --weird").unwrap(),
            run(Some(1), None, "--weird")
        );
        assert_eq!(parse_str("--").unwrap_err(), Error::NoCommand);
    }

    #[test]
    fn help_and_version_return_before_anything_else() {
        assert_eq!(parse_str("--help").unwrap(), Parsed::Help);
        assert_eq!(parse_str("-h").unwrap(), Parsed::Help);
        assert_eq!(
            parse_str("--level 9 --help").unwrap_err().to_string(),
            "`--level` takes a level from 0 to 3, not `9`"
        );
        assert_eq!(parse_str("-V").unwrap(), Parsed::Version);
        assert_eq!(parse_str("--version").unwrap(), Parsed::Version);
    }

    #[test]
    fn usage_errors_have_exact_one_line_messages() {
        let cases = [
            (
                "",
                "no command given (usage: lens [OPTIONS] [--] <command> [args...])",
            ),
            (
                "--frobnicate ls",
                "unknown option `--frobnicate` (options go before the command; see `lens --help`)",
            ),
            (
                "-x ls",
                "unknown option `-x` (options go before the command; see `lens --help`)",
            ),
            ("--level", "`--level` needs a value"),
            ("--budget", "`--budget` needs a value"),
            (
                "--level 9 ls",
                "`--level` takes a level from 0 to 3, not `9`",
            ),
            (
                "--level -1 ls",
                "`--level` takes a level from 0 to 3, not `-1`",
            ),
            (
                "--level two ls",
                "`--level` takes a level from 0 to 3, not `two`",
            ),
            (
                "--budget +5 ls",
                "`--budget` takes a whole number of bytes, not `+5`",
            ),
            (
                "--budget -5 ls",
                "`--budget` takes a whole number of bytes, not `-5`",
            ),
            ("--level=", "`--level` takes a level from 0 to 3, not ``"),
        ];
        for (line, message) in cases {
            let error = parse_str(line).expect_err(line);
            assert_eq!(error.to_string(), message, "for `{line}`");
            assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn show_takes_its_options_after_the_word() {
        let parsed = parse_str("show 0123abcd --level 3 --stderr").unwrap();
        assert_eq!(
            parsed,
            Parsed::Show(ShowArgs {
                handle: "0123abcd".into(),
                level: Some(Level::Raw),
                stderr: true,
                ..ShowArgs::default()
            })
        );
        let parsed = parse_str("--level 1 show last --stdout").unwrap();
        assert_eq!(
            parsed,
            Parsed::Show(ShowArgs {
                handle: "last".into(),
                level: Some(Level::Failures),
                stdout: true,
                ..ShowArgs::default()
            })
        );
    }

    #[test]
    fn show_lines_take_several_ranges_and_grep_a_pattern() {
        let parsed = parse_str("show 0123abcd --lines 68-89 --lines=3,7-9 --grep ^error").unwrap();
        let range = |first, last| LineRange { first, last };
        assert_eq!(
            parsed,
            Parsed::Show(ShowArgs {
                handle: "0123abcd".into(),
                lines: vec![range(68, 89), range(3, 3), range(7, 9)],
                grep: Some("^error".into()),
                ..ShowArgs::default()
            })
        );
    }

    #[test]
    fn show_list_takes_an_optional_count() {
        let list = |n| {
            Parsed::Show(ShowArgs {
                list: Some(n),
                ..ShowArgs::default()
            })
        };
        assert_eq!(parse_str("show --list").unwrap(), list(DEFAULT_LIST));
        assert_eq!(parse_str("show --list 5").unwrap(), list(5));
        assert_eq!(parse_str("show --list=7").unwrap(), list(7));
        assert_eq!(parse_str("show --list --stderr").unwrap(), {
            let Parsed::Show(mut args) = list(DEFAULT_LIST) else {
                unreachable!()
            };
            args.stderr = true;
            Parsed::Show(args)
        });
    }

    #[test]
    fn usage_errors_after_show_give_shows_usage() {
        let usage = "(usage: lens show <handle>|last [--level N] [--stdout|--stderr] \
                     [--lines A-B]... [--grep RE], or lens show --list [N])";
        let cases = [
            (
                "show",
                format!("`lens show` needs a handle, `last` or `--list` {usage}"),
            ),
            (
                "show 0123abcd --bogus",
                format!("unknown option `--bogus` {usage}"),
            ),
            (
                "show 0123abcd extra",
                format!("unexpected argument `extra` {usage}"),
            ),
            (
                "show --list 3 0123abcd",
                format!("unexpected argument `0123abcd` {usage}"),
            ),
            (
                "show 0123abcd --lines 9-3",
                "`--lines` takes line ranges such as `10-51` or `3,7-9` (1-based, first not \
                 after last), not `9-3`"
                    .into(),
            ),
            (
                "show 0123abcd --lines 0-3",
                "`--lines` takes line ranges such as `10-51` or `3,7-9` (1-based, first not \
                 after last), not `0-3`"
                    .into(),
            ),
            (
                "show 0123abcd --lines 1-",
                "`--lines` takes line ranges such as `10-51` or `3,7-9` (1-based, first not \
                 after last), not `1-`"
                    .into(),
            ),
            ("show 0123abcd --lines", "`--lines` needs a value".into()),
            (
                "show 0123abcd --grep (unclosed",
                "`--grep` takes a regular expression, not `(unclosed`: error: unclosed group"
                    .into(),
            ),
            (
                "show --list x",
                "unexpected argument `x` ".to_owned() + usage,
            ),
        ];
        for (line, message) in cases {
            let error = parse_str(line).expect_err(line);
            assert_eq!(error.to_string(), message, "for `{line}`");
            assert!(!error.to_string().contains('\n'));
        }
    }

    #[test]
    fn stats_is_a_subcommand_and_double_dash_runs_a_program_named_stats() {
        assert_eq!(
            parse_str("stats").unwrap(),
            Parsed::Stats(StatsArgs {
                json: false,
                since_days: None,
                top: DEFAULT_TOP
            })
        );
        assert_eq!(
            parse_str("stats --json --since 7 --top=3").unwrap(),
            Parsed::Stats(StatsArgs {
                json: true,
                since_days: Some(7),
                top: 3
            })
        );
        assert_eq!(
            parse_str("-- stats --json").unwrap(),
            run(None, None, "stats --json")
        );
        let usage = "(usage: lens stats [--json] [--since DAYS] [--top N])";
        let cases = [
            ("stats --frob", format!("unknown option `--frob` {usage}")),
            ("stats now", format!("unexpected argument `now` {usage}")),
            (
                "stats --since -1",
                "`--since` takes a whole number of days, not `-1`".into(),
            ),
            ("stats --top", "`--top` needs a value".into()),
        ];
        for (line, message) in cases {
            assert_eq!(parse_str(line).unwrap_err().to_string(), message, "{line}");
        }
    }

    #[test]
    fn help_documents_every_option_of_show_and_stats_in_80_columns() {
        for option in [
            "--level N",
            "--budget N",
            "--stdout",
            "--stderr",
            "--lines A-B",
            "--grep RE",
            "--list [N]",
            "last",
            "--json",
            "--since DAYS",
            "--top N",
        ] {
            assert!(
                HELP.contains(option),
                "`lens --help` does not mention {option}"
            );
        }
        for line in HELP.lines() {
            assert!(line.chars().count() <= 80, "too wide: {line}");
        }
    }

    #[test]
    fn non_utf8_arguments_reach_the_child_untouched() {
        use std::os::unix::ffi::OsStringExt;
        let odd = OsString::from_vec(vec![b'f', 0xff, b'o']);
        let parsed = parse(vec![OsString::from("cat"), odd.clone()]).unwrap();
        assert_eq!(
            parsed,
            Parsed::Run(Args {
                command: vec!["cat".into(), odd],
                ..Args::default()
            })
        );
    }

    #[test]
    fn short_clusters_are_split() {
        assert_eq!(parse_str("-hV").unwrap(), Parsed::Help);
        assert_eq!(parse_str("-Vh").unwrap(), Parsed::Version);
    }

    #[test]
    fn hook_and_init_take_their_options_after_the_word() {
        assert_eq!(
            parse_str("hook claude --post").unwrap(),
            Parsed::Hook(HookArgs {
                agent: "claude".into(),
                post: true
            })
        );
        assert_eq!(
            parse_str("init claude --project --dry-run").unwrap(),
            Parsed::Init(InitArgs {
                agent: Some("claude".into()),
                project: true,
                dry_run: true,
                ..InitArgs::default()
            })
        );
        assert_eq!(
            parse_str("init --list").unwrap(),
            Parsed::Init(InitArgs {
                list: true,
                ..InitArgs::default()
            })
        );
        assert_eq!(
            parse_str("-- hook claude").unwrap(),
            run(None, None, "hook claude")
        );
        for (line, message) in [
            (
                "hook",
                "`lens hook` needs an agent (`lens init --list` shows them)",
            ),
            (
                "init",
                "`lens init` needs an agent (`lens init --list` shows them)",
            ),
            (
                "hook claude --pre",
                "unknown option `--pre` (options go before the command; see `lens --help`)",
            ),
            (
                "init claude codex",
                "unexpected argument `codex` (usage: lens init <agent> [--dry-run] [--uninstall] [--project] | --list)",
            ),
        ] {
            assert_eq!(
                parse_str(line).unwrap_err().to_string(),
                message,
                "for `{line}`"
            );
        }
    }

    #[test]
    fn a_lone_dash_is_a_command() {
        assert_eq!(parse_str("- x").unwrap(), run(None, None, "- x"));
    }
}
