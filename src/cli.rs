//! The command line: a small lexer and the grammar of `lens [OPTIONS] [--] <command>`.
//!
//! The shape is lexopt's, in our own hundred lines: the lexer yields long options, short
//! options and values; `--name=value` splits; `value()` takes the next argument even when
//! it starts with `-`, so `--level -1` is an out-of-range level rather than an unknown
//! option. The first positional ends lens's options: from there on argv belongs to the
//! child untouched, so `lens mytool --budget 3` runs `mytool --budget 3`. `show` is
//! matched at that position, before any `--`; `lens -- show` runs a program named `show`.
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
}

/// `lens [OPTIONS] <command> [args...]`: options as typed, and the command.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub level: Option<Level>,
    pub budget: Option<usize>,
    pub command: Vec<OsString>,
}

/// `lens show <handle> [--level N] [--budget N] [--stderr]`.
#[derive(Debug, PartialEq, Eq)]
pub struct ShowArgs {
    /// As typed; `lens::show` parses it strictly.
    pub handle: String,
    pub level: Option<Level>,
    pub budget: Option<usize>,
    pub stderr: bool,
}

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
    Unexpected(String),
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
                "`lens show` needs a handle (usage: lens show <handle> [--level N] [--stderr])"
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
            Error::Unexpected(arg) => write!(f, "unexpected argument `{arg}` (see `lens --help`)"),
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
        handle: String::new(),
        level: before.level,
        budget: before.budget,
        stderr: false,
    };
    while let Some(arg) = lex.next() {
        match arg {
            Arg::Long("level") => show.level = Some(lex.level("--level")?),
            Arg::Long("budget") => show.budget = Some(lex.budget("--budget")?),
            Arg::Long("stderr") => show.stderr = true,
            Arg::Long("help") | Arg::Short('h') => return Ok(Parsed::Help),
            Arg::Value(value) if handle.is_none() => {
                handle = Some(value.to_string_lossy().into_owned())
            }
            Arg::Value(value) => {
                return Err(Error::Unexpected(value.to_string_lossy().into_owned()));
            }
            other => return Err(Error::Unknown(other.to_string())),
        }
    }
    show.handle = handle.ok_or(Error::NoHandle)?;
    Ok(Parsed::Show(show))
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
    args: std::vec::IntoIter<OsString>,
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
            args: args.into_iter(),
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

/// `lens --help`.
pub const HELP: &str = "\
lens: run a command and show the part of its output that matters

Usage:
  lens [OPTIONS] [--] <command> [args...]        run, filter, store
  lens show <handle> [--level N] [--stderr]       re-render a stored run
  lens --help | --version

Options (only before the command; everything after it belongs to the command):
  --level N     how much to show, 0 to 3 (default 2):
                  2  the filtered view: progress and repetition elided, one cause
                     reported once, failures with their context, the rest ranked
                  1  the failures, or the first twenty kept lines if nothing failed
                  0  counts and one line: the failure, or the last line
                  3  the raw output, unfiltered
  --budget N    bytes per stream that ranking may keep beyond the failures and
                their context (default 16000)
  -h, --help    print this help
  -V, --version print the version

`lens show` takes --level, --budget and --stderr (the stderr stream instead of
stdout) after the word `show`; --level 3 prints the stored bytes exactly.

Every removal is announced by a marker line in the stream it stands in, e.g.
  [lens: 42 lines elided, 10-51, 1a2b3c4d]
(count, original line range, handle). The full output is kept in the store.
Interactive and never-ending commands (REPLs, editors, pagers, `git add -p`,
`tail -f`, dev servers) are run directly, unfiltered and unstored.

Exit status: the command's own; 128+N if it died of signal N; 127 if it was not
found, 126 if it could not be executed; 2 for a usage error of lens itself.

Environment: LENS_STORE (store directory), LENS_LOG_DIR (log directory),
LENS_CONFIG (config file). Defaults follow XDG: ~/.cache/lens, ~/.local/state/lens,
~/.config/lens/config.toml.
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
            (
                "show",
                "`lens show` needs a handle (usage: lens show <handle> [--level N] [--stderr])",
            ),
            (
                "show abc def",
                "unexpected argument `def` (see `lens --help`)",
            ),
            (
                "show abc --bogus",
                "unknown option `--bogus` (options go before the command; see `lens --help`)",
            ),
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
                budget: None,
                stderr: true
            })
        );
        let parsed = parse_str("--level 1 show 0123abcd").unwrap();
        assert_eq!(
            parsed,
            Parsed::Show(ShowArgs {
                handle: "0123abcd".into(),
                level: Some(Level::Failures),
                budget: None,
                stderr: false
            })
        );
    }

    #[test]
    fn stats_is_not_a_subcommand_yet() {
        assert_eq!(
            parse_str("stats --json").unwrap(),
            run(None, None, "stats --json")
        );
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
    fn a_lone_dash_is_a_command() {
        assert_eq!(parse_str("- x").unwrap(), run(None, None, "- x"));
    }
}
