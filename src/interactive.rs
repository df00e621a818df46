//! Which commands must keep the terminal: decided from argv alone, before anything runs.
//!
//! A command that talks to a person (a REPL, an editor, a pager, `git add -p`, a prompt
//! printed on stdout) or never ends by itself (`tail -f`, a dev server, a watch mode) cannot
//! be captured: holding its output until exit hangs the caller. Those are exec'd, so they
//! get the terminal exactly as if lens were not there. The two errors are not symmetric:
//! capturing an interactive command hangs the user's terminal, exec'ing a batch command
//! only costs a filter. So every doubtful case is exec'd: a git subcommand lens does not
//! know (an alias may open an editor), `cargo run`, `docker run IMAGE` with the image's own
//! command, an option whose value lens cannot find, a command word computed by the shell.
//!
//! The survey lives in `interactive/table.rs`, one row per program (or program and
//! subcommand); its header explains the row notation. This file reads a row: a small
//! option lexer finds the options and operands, then the first tier with an option or word
//! present decides (`exec_if`, `capture_if`), else a wrapped command is classified instead
//! (`sudo CMD`, `python -m MOD`, `ssh HOST CMD`, `sh -c STRING`), else the row's outcome.
//! A shell string is read into its simple commands as `sh` reads it, quotes and all, by
//! `interactive/script.rs`.
//! A program no row names is captured; any program given a bare `--watch` is exec'd. To
//! add a program, add a row and a case beside it in `table.rs`.

mod script;
mod table;

use std::ffi::OsString;
use table::TABLE;

/// How lens runs a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Capture both streams, store them and print the view.
    Capture,
    /// Replace lens with the command; the reason is what the log records.
    Exec(&'static str),
}

/// Decide how to run `argv` (argv[0] is the program).
pub fn mode(argv: &[OsString]) -> Mode {
    survey(argv).0
}

/// Decide how to run `argv`, and return the command lines the survey read on the way,
/// outermost first: `timeout 30 sh -c 'cd x && git log'` reads `timeout 30 sh -c ...`,
/// `sh -c ...`, then `git log` (of a script, the last simple command that is not a shell
/// builtin). [`crate::command`] resolves the program from this trail, so the pipeline and
/// the config see through wrappers exactly as this decision does.
pub fn survey(argv: &[OsString]) -> (Mode, Vec<Vec<String>>) {
    let words: Vec<String> = argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut trail = Vec::new();
    let mode = decide(&words, 8, &mut trail);
    (mode, trail)
}

/// The first operand of `args` as the rows of `program` read it: its subcommand, when it
/// has rows for subcommands (`git -C x log` is `log`), else the first word that is not an
/// option.
pub fn subcommand<'a>(program: &str, args: &[&'a str]) -> Option<&'a str> {
    let name = known(program).unwrap_or(program);
    let base = TABLE.iter().find(|r| r.names(name) && r.sub.is_empty());
    if base.is_some() || TABLE.iter().any(|r| r.names(name)) {
        let lexed = lex(args, base.unwrap_or(&cmd("", "")), Some(0));
        return lexed.operands.first().map(|&i| args[i]);
    }
    args.iter().copied().find(|a| !a.starts_with('-'))
}

/// The trail of command lines a survey reads; see [`survey`].
type Trail = Vec<Vec<String>>;

/// Classify one command line; `depth` bounds wrappers inside wrappers.
fn decide(argv: &[&str], depth: u8, trail: &mut Trail) -> Mode {
    let start = argv.iter().take_while(|w| is_assignment(w)).count();
    let Some((program, args)) = argv[start..].split_first() else {
        return Mode::Capture;
    };
    trail.push(argv[start..].iter().map(|w| (*w).to_owned()).collect());
    if depth == 0 {
        return Mode::Exec("wrappers nested too deep to read");
    }
    let name = program.rsplit('/').next().unwrap_or(program);
    // Whatever the program, a bare `--watch` is a watch mode (`deno test --watch`, a
    // linter lens has never heard of); `--watch=false` is left to the rows. A wrapper's
    // arguments are its command's: that command is read for it.
    let wrapper = known(name).is_some_and(|n| {
        TABLE
            .iter()
            .any(|r| r.names(n) && r.sub.is_empty() && r.reason == table::WRAPPED)
    });
    if !wrapper && args.iter().any(|a| matches!(*a, "--watch" | "--watchAll")) {
        return Mode::Exec("watch mode");
    }
    let Some(name) = known(name) else {
        return Mode::Capture;
    };
    let rows: Vec<&'static Row> = TABLE.iter().filter(|r| r.names(name)).collect();
    let base = rows.iter().copied().find(|r| r.sub.is_empty());
    if rows.iter().any(|r| !r.sub.is_empty()) {
        let lexed = lex(args, base.unwrap_or(&cmd("", "")), Some(0));
        if let Some(&i) = lexed.operands.first()
            && let Some(row) = rows.iter().find(|r| r.subs(args[i]))
        {
            return evaluate(row, &args[i + 1..], depth - 1, trail);
        }
    }
    base.map_or(Mode::Capture, |row| evaluate(row, args, depth - 1, trail))
}

/// Why a command is exec'd when what keeps it from being captured is only that it runs
/// until it is stopped, not that it needs a person: a server, a watch mode, a log it
/// follows. (The table's reasons; a row's reason says which it is.)
const UNTIL_STOPPED: &[&str] = &[
    "dev server",
    "watch mode",
    "follows logs",
    "follows a file",
    "server",
    "local server",
    "worker",
    "monitors files",
    "watches resources",
    "live statistics",
    "samples until interrupted",
    "pings until interrupted",
    "captures until interrupted",
    "traces a process until interrupted",
    "sleeps forever",
    "dev server or watch script",
    "watch mode or dev server",
    "watch mode or server",
];

/// `timeout 20 flask run`: a wrapper that stops what it wraps after a while makes a
/// command that only runs until stopped a batch run, which ends and can be captured. An
/// agent bounds a dev server this way to read what it printed when it started, and that
/// is what a view is for. A command that needs a person still gets the terminal, and a
/// duration of 0 (no limit) bounds nothing.
fn bounded(row: &Row, lexed: &Lexed, args: &[&str], mode: Mode) -> Mode {
    let Mode::Exec(reason) = mode else {
        return mode;
    };
    let limit = lexed.operands.first().map(|&i| args[i]);
    let limited = limit.is_some_and(|d| {
        d.trim_end_matches(['s', 'm', 'h', 'd'])
            .parse::<f64>()
            .is_ok_and(|n| n > 0.0)
    });
    if row.names("timeout") && limited && UNTIL_STOPPED.contains(&reason) {
        Mode::Capture
    } else {
        mode
    }
}

/// The name rows know `name` by: itself, or without a version suffix (`python3.12`).
fn known(name: &str) -> Option<&str> {
    let bare = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    let mut candidates = [name, bare].into_iter();
    if bare == name {
        candidates.next();
    }
    candidates.find(|n| !n.is_empty() && TABLE.iter().any(|r| r.names(n)))
}

fn evaluate(row: &'static Row, args: &[&str], depth: u8, trail: &mut Trail) -> Mode {
    #[cfg(test)]
    table::tests::visit(row);
    let lexed = lex(args, row, row.stop());
    let verdict = |outcome: Outcome| match outcome {
        Outcome::Exec => Mode::Exec(row.reason),
        Outcome::Capture => Mode::Capture,
    };
    for (outcome, specs) in &row.tiers[..row.n_tiers] {
        if words(specs).any(|s| lexed.has(s, args)) {
            return verdict(*outcome);
        }
    }
    for inner in &row.inner[..row.n_inner] {
        if let Some(mode) = inner.classify(&lexed, args, depth, trail) {
            return bounded(row, &lexed, args, mode);
        }
    }
    if row.batch_with > 0 && lexed.operands.len() >= row.batch_with {
        return Mode::Capture;
    }
    match row.bare {
        Some(outcome) if lexed.operands.is_empty() => verdict(outcome),
        _ => verdict(row.default),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Exec,
    Capture,
}

/// Where a row finds the command it wraps.
#[derive(Debug, Clone, Copy)]
enum Inner {
    None,
    /// Operand `k` and everything after it (`sudo CMD`, `timeout 5 CMD`, `python SCRIPT`).
    At(usize),
    /// Operand `k` on, joined and read as a shell script (`ssh HOST CMD`).
    ShellAt(usize),
    /// The value of one of these options, and the words after it (`python -m MOD ARGS`).
    Value(&'static str),
    /// The value of one of these options, read as a shell script (`sh -c STRING`).
    ShellValue(&'static str),
    /// All the arguments, read as a command of this pseudo-program (`npm run SCRIPT`).
    As(&'static str),
}

impl Inner {
    fn classify(self, lexed: &Lexed, args: &[&str], depth: u8, trail: &mut Trail) -> Option<Mode> {
        let operand = |k: usize| lexed.operands.get(k).map(|&i| &args[i..]);
        let value = |names: &str| {
            let opt = lexed.opts.iter().find(|o| has_word(names, &o.name))?;
            let value = opt.value.as_deref()?;
            let after = &args[(opt.at + 1 + usize::from(opt.separate)).min(args.len())..];
            Some((value, after))
        };
        match self {
            Inner::None => None,
            Inner::At(k) => operand(k).map(|words| decide(words, depth, trail)),
            Inner::ShellAt(k) => operand(k).map(|words| shell(&words.join(" "), depth, trail)),
            Inner::Value(names) => value(names).map(|(first, rest)| {
                let words: Vec<&str> = std::iter::once(first).chain(rest.iter().copied()).collect();
                decide(&words, depth, trail)
            }),
            Inner::ShellValue(names) => value(names).map(|(script, _)| shell(script, depth, trail)),
            Inner::As(name) => {
                let words: Vec<&str> = std::iter::once(name).chain(args.iter().copied()).collect();
                Some(decide(&words, depth, trail))
            }
        }
    }
}

/// Classify each simple command of a shell script; any that must be exec'd decides.
///
/// The script is read as `sh` reads it ([`script::read`]), so quoting inside it changes
/// nothing about which program runs: `sh -c "grep -rn 'unwrap()' src"` is grep with the
/// same arguments as the bare command. The trail gains the command whose output the
/// script prints: the last one that prints anything (`cd x && cargo test` is cargo), and
/// of a pipeline, see [`STREAM_CUTS`]. A command word the shell computes (`$EDITOR`,
/// `` `which vim` ``) cannot be read from argv at all, and is exec'd.
///
/// A script the reader refuses (a heredoc, `case`, an open quote) adds nothing to the
/// trail, so the command resolves to the shell itself, as an opaque script should. Its
/// mode is still decided, by [`shell_fallback`]: the terminal cannot wait for a reader
/// that understands more.
fn shell(script: &str, depth: u8, trail: &mut Trail) -> Mode {
    const KEYWORDS: &[&str] = &[
        "!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "exec",
        "command", "builtin",
    ];
    let Some(commands) = script::read(script) else {
        return shell_fallback(script, depth);
    };
    let mut last = Vec::new();
    // Whether `last` is the command a pipe is feeding from, and whether the pipeline so
    // far printed only what `last` printed.
    let mut cut_of_last = false;
    for command in commands {
        let words: Vec<&script::Word> = command
            .words
            .iter()
            .skip_while(|w| {
                (w.literal && KEYWORDS.contains(&w.text.as_str())) || is_assignment(&w.text)
            })
            .collect();
        let Some(first) = words.first() else { continue };
        if first.computed || first.text.is_empty() {
            return Mode::Exec("command word computed by the shell");
        }
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let mut read = Vec::new();
        let mode = decide(&texts, depth, &mut read);
        if let Mode::Exec(reason) = mode {
            trail.append(&mut read);
            return Mode::Exec(reason);
        }
        if command.nested {
            continue;
        }
        let name = first.text.rsplit('/').next().unwrap_or(&first.text);
        let cuts = command.piped && STREAM_CUTS.contains(&name);
        if command.piped && cuts && cut_of_last {
            continue;
        }
        cut_of_last = !SILENT_BUILTINS.contains(&name);
        if cut_of_last {
            last = read;
        }
    }
    trail.append(&mut last);
    Mode::Capture
}

/// The mode of a script [`script::read`] refuses: split on every operator byte, quoted
/// or not, and classify each piece. Splitting without reading quotes can only invent
/// commands, never hide one, so its errors are on the exec side. It reads no trail.
fn shell_fallback(script: &str, depth: u8) -> Mode {
    let pieces = script.split([';', '\n', '|', '&', '(', ')', '`', '<', '>']);
    for piece in pieces {
        let words = shell_words(piece);
        let words: Vec<&str> = words
            .iter()
            .map(String::as_str)
            .skip_while(|w| is_assignment(w))
            .collect();
        let Some(first) = words.first() else { continue };
        if first.contains(['$', '`']) {
            return Mode::Exec("command word computed by the shell");
        }
        if let Mode::Exec(reason) = decide(&words, depth, &mut Vec::new()) {
            return Mode::Exec(reason);
        }
    }
    Mode::Capture
}

/// Programs that, fed by a pipe, print a selection of the lines the command before them
/// printed, each line as it was: what `cargo build 2>&1 | tail -80` prints is a cut of
/// cargo's output, and it is read as cargo's (its family, its `[commands.cargo]` table),
/// so a wrapped, cut command gets the view its shape calls for rather than a guess at a
/// generic one. A program that rewrites each line (`cut`, `nl`, `column`, `awk`, `sed`)
/// or prints its own output (`wc -l`, `jq`) is not a cut: the pipeline resolves to it.
const STREAM_CUTS: &[&str] = &[
    "tail", "head", "grep", "egrep", "fgrep", "rg", "sort", "uniq", "tee", "cat",
];

/// Shell builtins that print nothing a reader runs the script for: the script's output is
/// the output of the commands around them (`cd x && cargo test`).
const SILENT_BUILTINS: &[&str] = &[
    "cd", "pushd", "popd", "export", "unset", "set", "shopt", "source", ".", "alias", "umask",
    "ulimit", "true", "false", ":", "trap", "wait",
];

/// The words of one simple command, with quotes and backslashes taken off as the shell
/// would (`sh -c 'tail -f x'` is three words). A quote left open runs to the end.
fn shell_words(segment: &str) -> Vec<String> {
    let (mut words, mut word, mut quote) = (Vec::new(), None::<String>, None);
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.get_or_insert_default().push(c),
            (_, '\\') => word.get_or_insert_default().extend(chars.next()),
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    words
}

/// `NAME=value`, as `env` and shells take before a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// One option as typed: `-m` (from `-m mod`, `-mmod` or a cluster `-am`) or `--message`.
#[derive(Debug)]
struct Opt {
    name: String,
    value: Option<String>,
    /// Index of the argument that held the option.
    at: usize,
    /// Whether the value was the next argument.
    separate: bool,
}

#[derive(Debug, Default)]
struct Lexed {
    opts: Vec<Opt>,
    /// Indices of the arguments that are operands.
    operands: Vec<usize>,
}

impl Lexed {
    /// Is `spec` (an option, `--opt=prefix`, or an operand word) present?
    fn has(&self, spec: &str, args: &[&str]) -> bool {
        if !spec.starts_with(['-', '+']) {
            return self.operands.iter().any(|&i| glob(spec, args[i]));
        }
        match spec.split_once('=') {
            Some((name, prefix)) => self.opts.iter().any(|o| {
                o.name == name && o.value.as_deref().is_some_and(|v| v.starts_with(prefix))
            }),
            None => self.opts.iter().any(|o| o.name == spec),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    Switch,
    Value,
    Attached,
}

/// Split `args` into options and operands the way `row` reads them. Once operand `stop`
/// is seen (or an option whose value is a command), the rest are the wrapped command's.
fn lex(args: &[&str], row: &Row, stop: Option<usize>) -> Lexed {
    let spec = row.opts;
    let arity = |name: &str| {
        for token in words(spec) {
            match token.strip_prefix(name) {
                Some("") => return Arity::Switch,
                Some("=") => return Arity::Value,
                Some(":") => return Arity::Attached,
                _ => {}
            }
        }
        if has_word(spec, "*=") {
            Arity::Value
        } else {
            Arity::Switch
        }
    };
    let ends = |name: &str| {
        row.inner[..row.n_inner].iter().any(|i| match i {
            Inner::Value(names) | Inner::ShellValue(names) => has_word(names, name),
            _ => false,
        })
    };
    let mut lexed = Lexed::default();
    let mut stopped = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i];
        let at = i;
        i += 1;
        let is_plus = arg.starts_with('+') && arg.len() > 1 && has_word(spec, "+");
        if stopped || arg == "-" || !(arg.starts_with('-') || is_plus) {
            lexed.operands.push(at);
            stopped |= stop.is_some_and(|k| lexed.operands.len() > k);
            continue;
        }
        if arg == "--" {
            stopped = !has_word(spec, "--");
            continue;
        }
        let mut push = |lexed: &mut Lexed, name: String, value: Option<String>, i: &mut usize| {
            let separate = value.is_none() && arity(&name) == Arity::Value && *i < args.len();
            let value = if separate {
                *i += 1;
                Some(args[*i - 1].to_owned())
            } else {
                value
            };
            stopped |= ends(&name);
            lexed.opts.push(Opt {
                name,
                value,
                at,
                separate,
            });
        };
        let (word, attached) = match arg.split_once('=') {
            Some((w, v)) => (w, Some(v.to_owned())),
            None => (arg, None),
        };
        let whole = arg.starts_with("--") || is_plus || word.len() == 2;
        if whole || has_word(spec, "-word") || spec_lists(spec, word) {
            push(&mut lexed, word.to_owned(), attached, &mut i);
            continue;
        }
        // A cluster: `-it`, `-am msg`, `-n5`. The whole word is kept too, for rows that
        // name one-dash words (`vim -es`); its letters stop at the first that takes a value.
        lexed.opts.push(Opt {
            name: word.to_owned(),
            value: None,
            at,
            separate: false,
        });
        for (pos, c) in arg[1..].char_indices() {
            let name = format!("-{c}");
            let rest = &arg[1 + pos + c.len_utf8()..];
            match arity(&name) {
                Arity::Switch => push(&mut lexed, name, None, &mut i),
                _ if !rest.is_empty() => {
                    push(&mut lexed, name, Some(rest.to_owned()), &mut i);
                    break;
                }
                Arity::Attached => {
                    push(&mut lexed, name, Some(String::new()), &mut i);
                    break;
                }
                Arity::Value => {
                    push(&mut lexed, name, None, &mut i);
                    break;
                }
            }
        }
    }
    lexed
}

/// Does the option spec list `word` itself (as switch or value), not just its letters?
fn spec_lists(spec: &str, word: &str) -> bool {
    words(spec).any(|t| t.trim_end_matches(['=', ':']) == word)
}

/// The space-separated words of a table string. Splitting on the byte, not on Unicode
/// whitespace, is what keeps a scan of the whole table to a few microseconds.
fn words(list: &str) -> impl Iterator<Item = &str> {
    list.split(' ').filter(|w| !w.is_empty())
}

fn has_word(list: &str, word: &str) -> bool {
    words(list).any(|w| w == word)
}

/// `pattern` against `word`, ASCII case ignored; `*` at either end matches anything.
fn glob(pattern: &str, word: &str) -> bool {
    let same = |a: Option<&[u8]>, b: &str| a.is_some_and(|a| a.eq_ignore_ascii_case(b.as_bytes()));
    let word = word.as_bytes();
    if let Some(prefix) = pattern.strip_suffix('*') {
        same(word.get(..prefix.len()), prefix)
    } else if let Some(suffix) = pattern.strip_prefix('*') {
        same(
            word.len().checked_sub(suffix.len()).map(|at| &word[at..]),
            suffix,
        )
    } else {
        word.eq_ignore_ascii_case(pattern.as_bytes())
    }
}

/// One row of the survey. Built with [`cmd`] or [`sub`] and the methods below.
#[derive(Debug, Clone, Copy)]
struct Row {
    /// Program file names, space separated.
    names: &'static str,
    /// Subcommands this row is for (space separated), or empty for the program itself.
    sub: &'static str,
    /// What the log records when this row exec's.
    reason: &'static str,
    opts: &'static str,
    tiers: [(Outcome, &'static str); 3],
    n_tiers: usize,
    inner: [Inner; 3],
    n_inner: usize,
    /// This many operands make it a batch run (`sqlite3 DB SQL`); 0 = no such rule.
    batch_with: usize,
    /// The outcome with no operand at all, when it differs from `default`.
    bare: Option<Outcome>,
    default: Outcome,
}

const fn cmd(names: &'static str, reason: &'static str) -> Row {
    Row {
        names,
        sub: "",
        reason,
        opts: "",
        tiers: [(Outcome::Capture, ""); 3],
        n_tiers: 0,
        inner: [Inner::None; 3],
        n_inner: 0,
        batch_with: 0,
        bare: None,
        default: Outcome::Capture,
    }
}

const fn sub(names: &'static str, subs: &'static str, reason: &'static str) -> Row {
    let mut row = cmd(names, reason);
    row.sub = subs;
    row
}

impl Row {
    /// Exec whatever the arguments (unless a tier says otherwise).
    const fn exec(mut self) -> Row {
        self.default = Outcome::Exec;
        self
    }
    const fn bare_exec(mut self) -> Row {
        self.bare = Some(Outcome::Exec);
        self
    }
    const fn bare_capture(mut self) -> Row {
        self.bare = Some(Outcome::Capture);
        self
    }
    const fn opts(mut self, opts: &'static str) -> Row {
        self.opts = opts;
        self
    }
    const fn exec_if(self, specs: &'static str) -> Row {
        self.tier(Outcome::Exec, specs)
    }
    const fn capture_if(self, specs: &'static str) -> Row {
        self.tier(Outcome::Capture, specs)
    }
    const fn tier(mut self, outcome: Outcome, specs: &'static str) -> Row {
        self.tiers[self.n_tiers] = (outcome, specs);
        self.n_tiers += 1;
        self
    }
    const fn inner(mut self, inner: Inner) -> Row {
        self.inner[self.n_inner] = inner;
        self.n_inner += 1;
        self
    }
    const fn batch_with(mut self, operands: usize) -> Row {
        self.batch_with = operands;
        self
    }

    /// Does this row name the program? A trailing `*` matches a family (`create-*`).
    fn names(&self, name: &str) -> bool {
        words(self.names).any(|n| match n.strip_suffix('*') {
            Some(prefix) => name.len() > prefix.len() && name.starts_with(prefix),
            None => n == name,
        })
    }
    fn subs(&self, word: &str) -> bool {
        words(self.sub).any(|s| glob(s, word))
    }
    /// The operand after which the rest belongs to the wrapped command.
    fn stop(&self) -> Option<usize> {
        self.inner[..self.n_inner]
            .iter()
            .filter_map(|i| match i {
                Inner::At(k) | Inner::ShellAt(k) => Some(*k),
                _ => None,
            })
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::table::tests::argv;
    use super::*;

    #[test]
    fn the_reason_names_the_row() {
        let reason = |line: &str| mode(&argv(line));
        assert_eq!(reason("vim notes.txt"), Mode::Exec("editor"));
        assert_eq!(reason("tail -f app.log"), Mode::Exec("follows a file"));
        assert_eq!(reason("sudo -u me less x"), Mode::Exec("pager"));
        assert_eq!(
            reason("git commit"),
            Mode::Exec("git commit opens an editor")
        );
        assert_eq!(reason("cargo build"), Mode::Capture);
    }

    #[test]
    fn an_empty_command_line_is_captured() {
        assert_eq!(mode(&[]), Mode::Capture);
        assert_eq!(mode(&argv("FOO=1")), Mode::Capture);
    }

    #[test]
    fn non_utf8_arguments_do_not_panic() {
        use std::os::unix::ffi::OsStringExt;
        let bad = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
        let vim = [OsString::from("vim"), bad(b"\xff\xfe.txt")];
        assert_eq!(mode(&vim), Mode::Exec("editor"));
        let tail = [bad(b"/opt/\xff/tail"), bad(b"-\xfff")];
        assert_eq!(mode(&tail), Mode::Exec("follows a file"));
        let tail = [OsString::from("tail"), bad(b"-\xff")];
        assert_eq!(mode(&tail), Mode::Capture);
        let cluster = [OsString::from("tail"), bad(b"-\xc3\xa9f")];
        assert_eq!(mode(&cluster), Mode::Exec("follows a file"));
        let shell = [OsString::from("sh"), OsString::from("-c"), bad(b"\xffvim")];
        assert_eq!(mode(&shell), Mode::Capture);
    }

    #[test]
    fn shell_scripts_split_into_simple_commands() {
        assert_eq!(
            shell("make && make test", 4, &mut Vec::new()),
            Mode::Capture
        );
        assert_eq!(
            shell("make 2>&1 &>log >&2", 4, &mut Vec::new()),
            Mode::Capture
        );
        assert_eq!(
            shell("cd web; npm start", 4, &mut Vec::new()),
            Mode::Exec("dev server or watch script")
        );
        assert_eq!(
            shell("echo $(less x)", 4, &mut Vec::new()),
            Mode::Exec("pager")
        );
        assert_eq!(
            shell("if true; then vim x; fi", 4, &mut Vec::new()),
            Mode::Exec("editor")
        );
        assert_eq!(
            shell("\"$EDITOR\" x", 4, &mut Vec::new()),
            Mode::Exec("command word computed by the shell")
        );
    }

    #[test]
    fn shell_words_take_quotes_off_like_the_shell() {
        assert_eq!(
            shell_words(r#" sh -c 'tail -f x' "a \"b\"" c\ d '' "#),
            ["sh", "-c", "tail -f x", "a \"b\"", "c d", ""]
        );
        assert_eq!(shell_words("vim 'open"), ["vim", "open"]);
        assert_eq!(
            shell("sh -c \"sh -c 'tail -f x'\"", 8, &mut Vec::new()),
            Mode::Exec("follows a file")
        );
    }

    #[test]
    fn lexer_skips_option_values_and_reads_clusters() {
        let row = cmd("t", "").opts("-m= -p: -v");
        let args = ["-vm", "-x", "-psecret", "--file", "f", "--", "-z"];
        let lexed = lex(&args, &row, None);
        let names: Vec<&str> = lexed.opts.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["-vm", "-v", "-m", "-psecret", "-p", "--file"]);
        assert_eq!(lexed.opts[2].value.as_deref(), Some("-x"));
        assert_eq!(lexed.opts[4].value.as_deref(), Some("secret"));
        // `--file` is unlisted, so a switch: `f` is an operand, as is `-z` after `--`.
        assert_eq!(lexed.operands, [4, 6]);
    }

    #[test]
    fn unlisted_options_take_a_value_when_the_row_says_so() {
        let row = cmd("t", "").opts("-q *=");
        let lexed = lex(&["-q", "-x", "1", "cmd"], &row, Some(0));
        assert_eq!(lexed.operands, [3]);
    }

    #[test]
    fn version_suffixes_and_paths_are_stripped_from_the_program() {
        assert_eq!(known("python3.12"), Some("python"));
        assert_eq!(known("ping6"), Some("ping6"));
        assert_eq!(known("cc1plus"), None);
    }
}
