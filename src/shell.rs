//! Which shell command lines an agent's hook may put `lens` in front of, and where.
//!
//! [`rewrite`] takes the command string an agent is about to hand to `sh -c` (or `bash
//! -c`) and returns the same string with `lens ` inserted before each simple command that
//! lens helps, or `None`: leave the line alone. It is a recogniser, not a parser. It
//! accepts one small language and refuses everything outside it:
//!
//! - one line: no newline, carriage return, NUL or other control character, at most
//!   [`MAX_LEN`] bytes (a heredoc, a line continuation or a multi-line script is refused);
//! - words made of plain characters, `\x` escapes, `'single'` quotes, and `"double"`
//!   quotes holding no `$`, backquote, backslash or `!`;
//! - simple commands joined by `&&`, `||` and `;` (one optional trailing `;`).
//!
//! Any other shell metacharacter outside quotes (`|`, `&`, `<`, `>`, `(`, `)`, `$`,
//! backquote, `#`, `!`) refuses the whole line, so pipelines, redirections (`2>&1`,
//! `|&`, `>`), subshells, command, process and parameter substitution, background jobs
//! and comments never reach the rewriting step. The line is also refused when one of its
//! commands starts with an assignment (`FOO=1 cmd`: `lens` cannot carry it, and `PATH=x`
//! would change where the shell finds `lens`), or is a keyword or a builtin that can
//! change how the shell runs what follows (`source`, `alias`, `eval`, `exec`, `set`,
//! `export PATH=...`). The builtins that cannot (`cd`, `pwd`, `echo`, `true`...) are left
//! in place and the commands around them are still rewritten: `cd dir && cargo test`
//! becomes `cd dir && lens cargo test`.
//!
//! A simple command is rewritten only when its program is one lens helps (a build, test,
//! lint, package or search tool, [`HELPED`], looked up through launchers by
//! `pipeline::program_name`, so `npx jest` and `python -m pytest` count), its command
//! word is a plain literal (no quoting, globbing, tilde or braces: the text the shell
//! runs is the text lens reads), and `interactive::mode` would capture it: a command lens
//! would exec gains nothing and may be a prompt. `env NAME=v prog` is a program like any
//! other; `sudo`, `time`, `nohup` and other wrappers are left alone.
//!
//! Why the rewrite is exactly equivalent where it happens: `lens` runs its argv directly
//! (execvp's PATH lookup, no shell), passes stdin through, prints only to the streams the
//! command had, and exits with the command's status (128 + N for a signal, as the shell
//! reports it), so `&&`, `||` and `;` take the same branches. The argument words are
//! untouched text, expanded by the same shell as before. What it cannot see is the
//! agent's shell state: an alias or a function named `cargo` is bypassed by `lens cargo`.
//! tests/hook_rewrite_table.rs holds the table of real command lines and
//! tests/hook_rewrite_shells.rs runs generated lines through bash and dash with recording
//! stubs to prove the equivalence.
//!
//! `interactive::script` reads shell strings too, for the other question (what does `sh
//! -c STRING` run?), and reads far more: pipelines, redirections, expansions, nested
//! substitutions. It is not this module's tokenizer because the two fail in opposite
//! directions on purpose. The reader must understand as much as it can, since what it
//! refuses is run as the shell's own opaque command; this recogniser must understand
//! as little as it can, since each form it accepts is a rewrite that must run exactly as
//! typed, proven so against bash and dash. A shared tokenizer would have to do both, and
//! a form added for the reader would become a form the rewrite touches.
//!
//! Rejected: a POSIX parser crate. brush-parser and yash-syntax parse far more than this
//! (and yash-syntax is async), conch-parser has been unmaintained since 2019; each would be
//! the largest dependency in the tree, and a full parse still leaves the question this
//! module answers (which of the parsed forms is safe to touch) to code of our own. A
//! recogniser that refuses what it does not tokenize fails in the safe direction.

use crate::interactive::{self, Mode};
use std::ffi::OsString;

/// The longest line considered; longer ones are left alone.
pub const MAX_LEN: usize = 16 * 1024;

/// Programs whose output lens makes smaller without losing what matters: builds, tests,
/// linters, type checkers, package managers, version control and search. A program not
/// named here runs as written: `cat`, `echo`, `rm` gain nothing, and a data tool's output
/// may be read by a person who wants every byte.
pub const HELPED: &[&str] = &[
    "cargo",
    "rustc",
    "go",
    "gcc",
    "g++",
    "cc",
    "c++",
    "clang",
    "clang++",
    "make",
    "gmake",
    "cmake",
    "ninja",
    "meson",
    "bazel",
    "mvn",
    "gradle",
    "gradlew",
    "mvnw",
    "dotnet",
    "swift",
    "zig",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "deno",
    "tsc",
    "eslint",
    "jest",
    "vitest",
    "mocha",
    "playwright",
    "pytest",
    "py.test",
    "tox",
    "nox",
    "mypy",
    "pyright",
    "ruff",
    "flake8",
    "pylint",
    "black",
    "pip",
    "pip3",
    "uv",
    "poetry",
    "bundle",
    "rake",
    "rspec",
    "mix",
    "git",
    "grep",
    "rg",
    "find",
    "fd",
    "ls",
    "du",
    "tree",
    "docker",
    "kubectl",
    "terraform",
    "helm",
];

/// Builtins that leave the shell's command lookup and the environment of later commands
/// as they were (or change only the directory, which `lens` inherits).
const TRANSPARENT: &[&str] = &[
    "cd", "pushd", "popd", "pwd", "echo", "printf", "true", "false", ":", "test", "[",
];

/// Keywords and builtins of bash and dash. A line using one of these as a command word
/// (other than [`TRANSPARENT`] ones, and `export`/`unset` of ordinary names) is left alone.
const SHELL_WORDS: &[&str] = &[
    "!",
    "[[",
    "]]",
    "{",
    "}",
    "case",
    "do",
    "done",
    "elif",
    "else",
    "esac",
    "fi",
    "for",
    "function",
    "if",
    "in",
    "select",
    "then",
    "time",
    "until",
    "while",
    "coproc",
    ".",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "times",
    "trap",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// One word of a command: where its text starts in the line, and its value once quotes and
/// escapes are taken off.
#[derive(Debug)]
struct Word {
    start: usize,
    /// Where its text ends (exclusive).
    end: usize,
    value: String,
    /// Whether the word was typed without any quoting or escaping.
    plain: bool,
}

#[derive(Debug, PartialEq)]
enum Token {
    Word,
    And,
    Or,
    Semi,
}

/// The line with `lens ` before each simple command that gains from it, or `None` when the
/// line is to be left exactly as written.
pub fn rewrite(line: &str) -> Option<String> {
    let commands = commands(line)?;
    let mut inserts = Vec::new();
    for words in &commands {
        match judge(words)? {
            Judgement::Rewrite => inserts.push(words[0].start),
            Judgement::Keep => {}
        }
    }
    if inserts.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(line.len() + 5 * inserts.len());
    let mut from = 0;
    for at in inserts {
        out.push_str(&line[from..at]);
        out.push_str("lens ");
        from = at;
    }
    out.push_str(&line[from..]);
    Some(out)
}

/// For each simple command of a line [`rewrite`] can read, the command's text from each
/// of its words to its end (`FOO=1 git push`, `git push`, `push`): what a permission rule
/// written against the command, or against a command a wrapper runs, could match.
pub fn command_texts(line: &str) -> Option<Vec<Vec<&str>>> {
    let commands = commands(line)?;
    Some(
        commands
            .iter()
            .map(|words| {
                let end = words.last().map_or(0, |w| w.end);
                words.iter().map(|w| &line[w.start..end]).collect()
            })
            .collect(),
    )
}

/// The argv of a line that is exactly one simple command without assignments, quotes and
/// escapes taken off; `None` for anything else.
pub fn simple_argv(line: &str) -> Option<Vec<String>> {
    let mut commands = commands(line)?;
    let words = commands.pop()?;
    if !commands.is_empty() || is_assignment(&words[0].value) {
        return None;
    }
    Some(words.into_iter().map(|w| w.value).collect())
}

enum Judgement {
    Rewrite,
    Keep,
}

/// Programs that run another program as themselves: the one they launch decides.
const LAUNCHERS: &[&str] = &[
    "npx", "pnpx", "bunx", "yarn", "pnpm", "npm", "bun", "uv", "poetry", "pipenv", "hatch",
    "python", "python3",
];

/// What to do with one simple command; `None` refuses the whole line.
fn judge(words: &[Word]) -> Option<Judgement> {
    let first = &words[0];
    if is_assignment(&first.value) {
        return None;
    }
    let name = first.value.as_str();
    if TRANSPARENT.contains(&name) {
        return Some(Judgement::Keep);
    }
    if matches!(name, "export" | "unset") {
        let ordinary = words[1..].iter().all(|w| {
            let key = w.value.split('=').next().unwrap_or("");
            is_name(key) && !matches!(key, "PATH" | "ENV" | "BASH_ENV" | "IFS" | "CDPATH")
        });
        return ordinary.then_some(Judgement::Keep);
    }
    if SHELL_WORDS.contains(&name) || !first.plain || !is_plain_command_word(name) {
        return None;
    }
    let argv: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
    let base = name.rsplit('/').next().unwrap_or(name);
    if base == "lens" {
        return Some(Judgement::Keep);
    }
    let inner = if base == "env" {
        // `env NAME=v... prog args`: the program is what follows the assignments; an
        // option (`-i`, `-u`, `-S`) changes what runs and is left alone.
        let rest: Vec<String> = argv[1..]
            .iter()
            .skip_while(|w| is_assignment(w))
            .cloned()
            .collect();
        if rest.is_empty() || rest[0].starts_with('-') || !is_plain_command_word(&rest[0]) {
            return Some(Judgement::Keep);
        }
        rest
    } else {
        argv.clone()
    };
    // Launchers are seen through (`npx jest` is jest, `python3 -m pytest` is pytest), but
    // a wrapper that changes who or how a command runs (`sudo`, `nice`) is kept as typed.
    let resolved = crate::command::CommandLine::from_words(&inner);
    let launched = resolved
        .wrappers
        .iter()
        .all(|w| LAUNCHERS.contains(&w.as_str()));
    // A yarn, pnpm or bun script (`pnpm test`) is a name only the manifest resolves: it
    // is helped only when it names a helped program itself (`yarn jest`). npm's own
    // `run`/`test` is npm, which lens helps, as the reviewed table says.
    let program = match resolved.script {
        Some(script) if resolved.program != "npm" => script,
        _ if launched => resolved.program,
        _ => inner[0].rsplit('/').next().unwrap_or(&inner[0]).to_owned(),
    };
    if !HELPED.contains(&program.as_str()) {
        return Some(Judgement::Keep);
    }
    let os: Vec<OsString> = argv.iter().map(OsString::from).collect();
    match interactive::mode(&os) {
        Mode::Capture => Some(Judgement::Rewrite),
        Mode::Exec(_) => Some(Judgement::Keep),
    }
}

/// The line split into simple commands, or `None` when it holds anything this module does
/// not fully understand.
fn commands(line: &str) -> Option<Vec<Vec<Word>>> {
    if line.len() > MAX_LEN || line.chars().any(|c| c.is_control() && c != '\t') {
        return None;
    }
    let (tokens, words) = tokenize(line)?;
    let mut commands = Vec::new();
    let mut current = Vec::new();
    let mut words = words.into_iter();
    let last = tokens.len();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            Token::Word => current.push(words.next()?),
            op => {
                if current.is_empty() {
                    return None;
                }
                commands.push(std::mem::take(&mut current));
                // Only `;` may end the line; `a &&` continues on the next line.
                if i + 1 == last && *op != Token::Semi {
                    return None;
                }
            }
        }
    }
    if !current.is_empty() {
        commands.push(current);
    }
    (!commands.is_empty()).then_some(commands)
}

/// Words and operators, or `None` on any character outside the accepted language.
fn tokenize(line: &str) -> Option<(Vec<Token>, Vec<Word>)> {
    let mut tokens = Vec::new();
    let mut words = Vec::new();
    let mut chars = line.char_indices().peekable();
    let mut word: Option<Word> = None;
    let finish = |word: &mut Option<Word>, tokens: &mut Vec<Token>, words: &mut Vec<Word>, end| {
        if let Some(mut w) = word.take() {
            w.end = end;
            tokens.push(Token::Word);
            words.push(w);
        }
    };
    while let Some((at, c)) = chars.next() {
        match c {
            ' ' | '\t' => finish(&mut word, &mut tokens, &mut words, at),
            ';' => {
                finish(&mut word, &mut tokens, &mut words, at);
                if chars.peek().is_some_and(|&(_, n)| n == ';' || n == '&') {
                    return None;
                }
                tokens.push(Token::Semi);
            }
            '&' | '|' => {
                finish(&mut word, &mut tokens, &mut words, at);
                // A lone `&` (background) or `|` (pipeline, `|&`) refuses the line.
                chars.next_if(|&(_, n)| n == c)?;
                if chars
                    .peek()
                    .is_some_and(|&(_, n)| matches!(n, '&' | '|' | ';'))
                {
                    return None;
                }
                tokens.push(if c == '&' { Token::And } else { Token::Or });
            }
            '\'' => {
                let w = word.get_or_insert_with(|| new_word(at));
                w.plain = false;
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, ch)) => w.value.push(ch),
                        None => return None,
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(|| new_word(at));
                w.plain = false;
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '$' | '`' | '\\' | '!')) | None => return None,
                        Some((_, ch)) => w.value.push(ch),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(|| new_word(at));
                w.plain = false;
                let (_, ch) = chars.next()?;
                w.value.push(ch);
            }
            c if is_word_char(c) => word.get_or_insert_with(|| new_word(at)).value.push(c),
            _ => return None,
        }
    }
    finish(&mut word, &mut tokens, &mut words, line.len());
    Some((tokens, words))
}

fn new_word(start: usize) -> Word {
    Word {
        start,
        end: start,
        value: String::new(),
        plain: true,
    }
}

/// Characters that are literal in an unquoted word for both bash and dash, or that expand
/// the same way whatever command word comes first (globs, tilde, braces).
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '_' | '.'
                | '/'
                | ':'
                | '='
                | '@'
                | '%'
                | '+'
                | ','
                | '-'
                | '~'
                | '^'
                | '*'
                | '?'
                | '['
                | ']'
                | '{'
                | '}'
        )
        || (!c.is_ascii() && !c.is_control() && !c.is_whitespace())
}

/// A command word whose text is exactly what the shell looks up: no glob, tilde or brace
/// that the shell would expand, and not an option.
fn is_plain_command_word(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with('-')
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '+' | '-'))
}

/// `NAME=value`, as the shell reads an assignment before a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| is_name(name))
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cases: &[(&str, Option<&str>)]) {
        for (line, expected) in cases {
            assert_eq!(rewrite(line).as_deref(), *expected, "for `{line}`");
        }
    }

    #[test]
    fn a_helped_simple_command_gets_lens_in_front() {
        check(&[
            ("cargo test", Some("lens cargo test")),
            (
                "  cargo   build --release  ",
                Some("  lens cargo   build --release  "),
            ),
            ("npx jest --ci", Some("lens npx jest --ci")),
            (
                "python3 -m pytest -q tests/",
                Some("lens python3 -m pytest -q tests/"),
            ),
            (
                "env RUST_LOG=debug cargo test",
                Some("lens env RUST_LOG=debug cargo test"),
            ),
            ("./gradlew test", Some("lens ./gradlew test")),
        ]);
    }

    #[test]
    fn lists_rewrite_each_helped_command_and_keep_the_rest() {
        check(&[
            ("cd dir && cargo test", Some("cd dir && lens cargo test")),
            (
                "cargo fmt; cargo clippy",
                Some("lens cargo fmt; lens cargo clippy"),
            ),
            ("make || echo failed", Some("lens make || echo failed")),
            ("cargo build;", Some("lens cargo build;")),
            (
                "export RUST_BACKTRACE=1 && cargo test",
                Some("export RUST_BACKTRACE=1 && lens cargo test"),
            ),
            (
                "lens cargo test && cargo build",
                Some("lens cargo test && lens cargo build"),
            ),
        ]);
    }

    #[test]
    fn shell_structure_leaves_the_line_alone() {
        check(&[
            ("ls | grep -v keep | xargs rm", None),
            ("cargo test 2>&1", None),
            ("cargo test |& tail", None),
            ("cargo test > out.txt", None),
            ("(cd x && make)", None),
            ("git log $(git rev-parse HEAD)", None),
            ("git log `git rev-parse HEAD`", None),
            ("cat <<EOF\nx\nEOF", None),
            ("cargo build &", None),
            ("cargo test \\\n  --release", None),
            ("cargo test # run tests", None),
            ("cargo test\ncargo build", None),
            ("diff <(ls a) <(ls b)", None),
            ("case x in a) ls;; esac", None),
            ("cargo test &&", None),
            ("&& cargo test", None),
            ("cargo test ;; cargo build", None),
            ("cargo test && || make", None),
            ("git commit -m \"$MSG\"", None),
            ("grep 'unterminated", None),
        ]);
    }

    #[test]
    fn assignments_keywords_and_state_changing_builtins_leave_the_line_alone() {
        check(&[
            ("FOO=1 cargo test", None),
            ("PATH=/opt/bin; cargo test", None),
            ("export PATH=/opt/bin && cargo test", None),
            ("source env.sh && cargo test", None),
            ("alias cargo=echo; cargo test", None),
            ("time cargo test", None),
            ("if true; then cargo test; fi", None),
            ("exec cargo test", None),
            ("{ cargo test; }", None),
            ("\"cargo\" test", None),
        ]);
    }

    #[test]
    fn unhelped_interactive_and_wrapped_commands_are_kept() {
        check(&[
            ("echo hi", None),
            ("cat README.md", None),
            ("sudo cargo test", None),
            ("cargo run", None),
            ("git add -p", None),
            ("npm run dev", None),
            ("env -i cargo test", None),
            ("lens cargo test", None),
            ("cd x && vim y", None),
        ]);
    }

    #[test]
    fn quoting_it_understands_is_carried_through_untouched() {
        check(&[
            (
                "git commit -m 'fix: a && b | c'",
                Some("lens git commit -m 'fix: a && b | c'"),
            ),
            (
                "grep -rn \"fn main\" src",
                Some("lens grep -rn \"fn main\" src"),
            ),
            (
                "find . -name '*.rs' -exec grep -l x {} \\;",
                Some("lens find . -name '*.rs' -exec grep -l x {} \\;"),
            ),
            ("grep -r ünïcødé docs", Some("lens grep -r ünïcødé docs")),
            ("ls *.toml", Some("lens ls *.toml")),
        ]);
    }

    #[test]
    fn lens_subcommand_names_are_not_helped_programs() {
        for word in ["show", "stats", "init", "hook"] {
            assert!(!HELPED.contains(&word), "{word}");
        }
    }

    #[test]
    fn command_texts_name_every_suffix_of_every_command() {
        assert_eq!(
            command_texts("cd 'a b' && env X=1 git push;").unwrap(),
            vec![
                vec!["cd 'a b'", "'a b'"],
                vec!["env X=1 git push", "X=1 git push", "git push", "push"]
            ]
        );
        assert_eq!(command_texts("ls | wc"), None);
    }

    #[test]
    fn simple_argv_is_one_command_unquoted() {
        assert_eq!(
            simple_argv("git log --format='%h %s'").unwrap(),
            ["git", "log", "--format=%h %s"]
        );
        assert_eq!(simple_argv("a && b"), None);
        assert_eq!(simple_argv("FOO=1 make"), None);
    }

    #[test]
    fn overlong_lines_are_left_alone() {
        let line = format!("grep {}", "x".repeat(MAX_LEN));
        assert_eq!(rewrite(&line), None);
    }
}
