//! A shell script read into its simple commands, the way `sh` splits it into words.
//!
//! `sh -c STRING` runs what the string says, so the string decides both whether the run
//! may be captured and whose output it prints. Splitting the string on operator bytes
//! before taking quotes off reads `grep -rn 'unwrap()' src` as three commands (`(` and `)`
//! are operators only outside quotes), and then the wrapped grep is not the grep it is.
//! So this module reads the string as POSIX `sh` (and bash, for the few forms agents
//! type) tokenizes it: single quotes, double quotes with their four escapes, backslash
//! outside quotes, `\`-newline continuations, comments, the control operators (`;`, `&`,
//! `&&`, `||`, `|`, bash's `|&`, newline), subshell parentheses, and redirections with
//! their target word (`2>&1`, `>out`, `&>log`, `<<<word`), which are not arguments.
//!
//! An expansion (`$VAR`, `${VAR}`, `$(cmd)`, `` `cmd` ``, `$((1+2))`) is kept as the text
//! typed, and the word is marked [`Word::computed`]: its value is the shell's to know. The
//! commands inside a command substitution run too (and may need the terminal), so they
//! are returned, marked [`Simple::nested`]: what they print becomes a word, not output.
//!
//! What it does not read with confidence it refuses (`None`), never guesses: a quote left
//! open, a heredoc (its body is not shell words), `case` (its patterns end in `)`),
//! `[[ ]]` and `(( ))` (their `<` and `>` are not redirections), process substitution,
//! a function definition, `$'...'`, and parentheses that do not pair. The caller then
//! treats the string as opaque: the command is the shell's own.
//!
//! Rejected: a parser crate (see `shell.rs` for why none fits), and keeping the byte
//! split with exceptions for the quotes a recorded run happened to use, which is how
//! single quotes, then backslash escapes, each changed what a wrapped grep resolved to.

/// One word as the shell would pass it, quotes and escapes taken off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Typed with no quote, escape or expansion: a reserved word can only be this.
    pub literal: bool,
    /// Holds an expansion, kept as typed: the shell decides its value.
    pub computed: bool,
}

/// One simple command: its words, redirections left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    pub words: Vec<Word>,
    /// Its stdin is the previous command's stdout (`a | b`, `a |& b`).
    pub piped: bool,
    /// It runs inside a command substitution: its stdout becomes a word.
    pub nested: bool,
}

/// The simple commands of `script`, in order, or `None` when it holds a form this reader
/// does not fully understand.
pub fn read(script: &str) -> Option<Vec<Simple>> {
    read_within(script, 0)
}

/// How many groups and substitutions may nest: more is refused rather than read by a
/// recursion as deep as an argument is long (128 KiB of `$(` would overflow the stack).
const MAX_NESTING: usize = 32;

fn read_within(script: &str, nesting: usize) -> Option<Vec<Simple>> {
    if nesting > MAX_NESTING {
        return None;
    }
    let chars: Vec<char> = script.chars().collect();
    let mut reader = Reader {
        chars: &chars,
        at: 0,
        nesting,
        out: Vec::new(),
    };
    reader.list(false, false)?;
    (reader.at == chars.len()).then_some(reader.out)
}

struct Reader<'a> {
    chars: &'a [char],
    at: usize,
    /// Groups and substitutions open around the point being read.
    nesting: usize,
    out: Vec<Simple>,
}

/// Operators that end a word wherever they appear outside quotes.
fn is_operator(c: char) -> bool {
    matches!(c, ';' | '&' | '|' | '(' | ')' | '<' | '>' | '\n')
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Read commands until the end, or until the `)` that closes a group or a command
    /// substitution (`closing`), which is consumed. `nested` marks the commands read.
    fn list(&mut self, closing: bool, nested: bool) -> Option<()> {
        self.nesting += usize::from(closing);
        if self.nesting > MAX_NESTING {
            return None;
        }
        let read = self.commands(closing, nested);
        self.nesting -= usize::from(closing);
        read
    }

    fn commands(&mut self, closing: bool, nested: bool) -> Option<()> {
        let mut command = Simple {
            words: Vec::new(),
            piped: false,
            nested,
        };
        // Whether the next command starts after a pipe.
        let mut piped = false;
        loop {
            let Some(c) = self.peek() else {
                self.finish(&mut command, piped)?;
                return (!closing).then_some(());
            };
            match c {
                ' ' | '\t' => self.at += 1,
                // A continuation between words joins the lines: it is not a word.
                '\\' if self.peek_at(1) == Some('\n') => self.at += 2,
                '#' => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                }
                '\n' | ';' => {
                    self.at += 1;
                    if c == ';' && matches!(self.peek(), Some(';' | '&')) {
                        return None;
                    }
                    self.finish(&mut command, piped)?;
                    piped = false;
                }
                '&' | '|' if self.peek_at(1) == Some(c) => {
                    self.at += 2;
                    self.finish(&mut command, piped)?;
                    piped = false;
                }
                '&' if self.peek_at(1) == Some('>') => self.redirect()?,
                '&' => {
                    self.at += 1;
                    self.finish(&mut command, piped)?;
                    piped = false;
                }
                '|' => {
                    if command.words.is_empty() && !self.closed_group() {
                        return None;
                    }
                    self.at += 1;
                    if self.peek() == Some('&') {
                        self.at += 1;
                    }
                    self.finish(&mut command, piped)?;
                    piped = true;
                }
                '(' => {
                    // A group opens only where a command starts; after a word it is a
                    // function definition (`f() {`), which declares and runs nothing.
                    if !command.words.is_empty() || self.peek_at(1) == Some('(') {
                        return None;
                    }
                    self.at += 1;
                    let first = self.out.len();
                    self.list(true, nested)?;
                    if let Some(first) = self.out.get_mut(first) {
                        first.piped |= piped;
                    }
                    piped = false;
                }
                ')' => {
                    self.at += 1;
                    self.finish(&mut command, piped)?;
                    return closing.then_some(());
                }
                '<' | '>' => self.redirect()?,
                _ => {
                    let word = self.word()?;
                    // `2>&1`: digits right before a redirection name its descriptor.
                    if word.literal
                        && !word.text.is_empty()
                        && word.text.bytes().all(|b| b.is_ascii_digit())
                        && matches!(self.peek(), Some('<' | '>'))
                    {
                        self.redirect()?;
                        continue;
                    }
                    if command.words.is_empty() && !self.starts_command(&word) {
                        return None;
                    }
                    command.words.push(word);
                }
            }
        }
    }

    /// Whether the last thing read was a group's `)`, which a pipe may follow.
    fn closed_group(&self) -> bool {
        self.chars[..self.at]
            .iter()
            .rev()
            .find(|c| !matches!(c, ' ' | '\t'))
            == Some(&')')
    }

    /// Whether `word` may open a command this reader understands.
    fn starts_command(&self, word: &Word) -> bool {
        !(word.literal && matches!(word.text.as_str(), "case" | "[[" | "function"))
    }

    /// End the command being read, keeping it if it has words. A `for`/`select` header
    /// (`for f in *.rs`) names a loop variable and its values: it runs nothing.
    fn finish(&mut self, command: &mut Simple, piped: bool) -> Option<()> {
        let words = std::mem::take(&mut command.words);
        let header = words
            .first()
            .is_some_and(|w| w.literal && matches!(w.text.as_str(), "for" | "select"));
        if !words.is_empty() && !header {
            self.out.push(Simple {
                words,
                piped,
                nested: command.nested,
            });
        }
        Some(())
    }

    /// Skip one redirection operator and its target word.
    fn redirect(&mut self) -> Option<()> {
        let op: String = self.chars[self.at..]
            .iter()
            .take(3)
            .take_while(|c| matches!(c, '<' | '>' | '&' | '|'))
            .collect();
        let len = match op.as_str() {
            s if s.starts_with("<<<") => 3,
            s if s.starts_with("<<") => return None,
            s if s.starts_with("&>>") => 3,
            s if s.starts_with(">>")
                || s.starts_with(">&")
                || s.starts_with("<&")
                || s.starts_with(">|")
                || s.starts_with("<>")
                || s.starts_with("&>") =>
            {
                2
            }
            _ => 1,
        };
        self.at += len;
        if self.peek() == Some('(') {
            return None;
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.at += 1;
        }
        match self.peek() {
            Some(c) if !is_operator(c) && c != '#' => self.word().map(drop),
            _ => None,
        }
    }

    /// Read one word starting here, up to an unquoted blank or operator.
    fn word(&mut self) -> Option<Word> {
        let mut word = Word {
            text: String::new(),
            literal: true,
            computed: false,
        };
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' => break,
                c if is_operator(c) => break,
                '\'' => {
                    self.at += 1;
                    word.literal = false;
                    loop {
                        let c = self.peek()?;
                        self.at += 1;
                        if c == '\'' {
                            break;
                        }
                        word.text.push(c);
                    }
                }
                '"' => {
                    self.at += 1;
                    word.literal = false;
                    self.double_quoted(&mut word)?;
                }
                '\\' => {
                    self.at += 1;
                    let escaped = self.peek()?;
                    self.at += 1;
                    if escaped != '\n' {
                        word.literal = false;
                        word.text.push(escaped);
                    }
                }
                '$' | '`' => self.expansion(&mut word)?,
                c => {
                    self.at += 1;
                    word.text.push(c);
                }
            }
        }
        Some(word)
    }

    /// The inside of `"..."`, the opening quote already read.
    fn double_quoted(&mut self, word: &mut Word) -> Option<()> {
        loop {
            match self.peek()? {
                '"' => {
                    self.at += 1;
                    return Some(());
                }
                '\\' => {
                    self.at += 1;
                    let escaped = self.peek()?;
                    self.at += 1;
                    match escaped {
                        '\n' => {}
                        '$' | '`' | '"' | '\\' => word.text.push(escaped),
                        other => {
                            word.text.push('\\');
                            word.text.push(other);
                        }
                    }
                }
                '$' | '`' => self.expansion(word)?,
                c => {
                    self.at += 1;
                    word.text.push(c);
                }
            }
        }
    }

    /// An expansion starting at `$` or a backquote, appended to `word` as typed.
    fn expansion(&mut self, word: &mut Word) -> Option<()> {
        let start = self.at;
        match (self.peek()?, self.peek_at(1)) {
            ('`', _) => {
                self.at += 1;
                let mut inner = String::new();
                loop {
                    match self.peek()? {
                        '`' => break,
                        '\\' if matches!(self.peek_at(1), Some('`' | '\\' | '$')) => {
                            inner.push(self.peek_at(1)?);
                            self.at += 2;
                        }
                        c => {
                            inner.push(c);
                            self.at += 1;
                        }
                    }
                }
                self.at += 1;
                let commands = read_within(&inner, self.nesting + 1)?;
                self.out.extend(commands.into_iter().map(|mut c| {
                    c.nested = true;
                    c
                }));
            }
            ('$', Some('(')) if self.peek_at(2) == Some('(') => {
                // Arithmetic: `$((n + 1))` runs no command.
                self.at += 3;
                let mut depth = 2;
                while depth > 0 {
                    match self.peek()? {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            ('$', Some('(')) => {
                self.at += 2;
                self.list(true, true)?;
            }
            ('$', Some('{')) => {
                self.at += 2;
                while self.peek()? != '}' {
                    if matches!(self.peek()?, '\'' | '"' | '`' | '$' | '\\') {
                        return None;
                    }
                    self.at += 1;
                }
                self.at += 1;
            }
            ('$', Some('\'')) => return None,
            ('$', Some(c)) if c == '_' || c.is_ascii_alphabetic() => {
                self.at += 1;
                while self
                    .peek()
                    .is_some_and(|c| c == '_' || c.is_ascii_alphanumeric())
                {
                    self.at += 1;
                }
            }
            ('$', Some(c)) if c.is_ascii_digit() || "@*#?-$!".contains(c) => self.at += 2,
            // A `$` that starts no expansion is a literal dollar sign.
            _ => {
                self.at += 1;
                word.text.push('$');
                return Some(());
            }
        }
        word.literal = false;
        word.computed = true;
        word.text.extend(&self.chars[start..self.at]);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each command's words joined by spaces, `|` before a piped one, `$` before a nested
    /// one; `None` when refused.
    fn commands(script: &str) -> Option<Vec<String>> {
        let commands = read(script)?;
        Some(
            commands
                .iter()
                .map(|c| {
                    let words: Vec<&str> = c.words.iter().map(|w| w.text.as_str()).collect();
                    let mark = match (c.piped, c.nested) {
                        (true, _) => "| ",
                        (_, true) => "$ ",
                        _ => "",
                    };
                    format!("{mark}{}", words.join(" "))
                })
                .collect(),
        )
    }

    fn check(cases: &[(&str, &[&str])]) {
        for (script, expected) in cases {
            let expected: Vec<String> = expected.iter().map(|e| (*e).to_owned()).collect();
            assert_eq!(commands(script), Some(expected), "for `{script}`");
        }
    }

    #[test]
    fn quotes_and_escapes_are_taken_off_as_sh_does() {
        check(&[
            (
                "grep -rn 'unwrap()' src tests",
                &["grep -rn unwrap() src tests"],
            ),
            (
                "grep -rn unwrap\\(\\) src tests",
                &["grep -rn unwrap() src tests"],
            ),
            ("grep -rn \"unwrap()\" src", &["grep -rn unwrap() src"]),
            (
                "grep \"a \\\"b\\\" \\x\" c\\ d ''",
                &["grep a \"b\" \\x c d "],
            ),
            ("echo 'it'\\''s'", &["echo it's"]),
            ("grep 'a;b|c&&d' x", &["grep a;b|c&&d x"]),
            ("cargo \\\n  test", &["cargo test"]),
            (
                "find . -name '*.rs' -exec grep -l 'a|b' {} \\;",
                &["find . -name *.rs -exec grep -l a|b {} ;"],
            ),
            ("echo \"a'b\" 'c\"d'", &["echo a'b c\"d"]),
        ]);
    }

    #[test]
    fn operators_split_commands_and_mark_pipes() {
        check(&[
            ("cd x && cargo test", &["cd x", "cargo test"]),
            (
                "make || tail -n 5 log; ls",
                &["make", "tail -n 5 log", "ls"],
            ),
            (
                "cargo build 2>&1 | tail -40",
                &["cargo build", "| tail -40"],
            ),
            ("cargo test |& grep -v ok", &["cargo test", "| grep -v ok"]),
            ("a &\nb", &["a", "b"]),
            ("(cd x && make) | tail", &["cd x", "make", "| tail"]),
            ("make # build it", &["make"]),
            (
                "cargo test 2>/dev/null >&2 && ! make",
                &["cargo test", "! make"],
            ),
            (
                &format!("{}make{}", "( ".repeat(30), " )".repeat(30)),
                &["make"],
            ),
        ]);
    }

    #[test]
    fn redirections_and_their_targets_are_not_words() {
        check(&[
            ("cargo test 2>&1", &["cargo test"]),
            ("make >build.log 2> err.log", &["make"]),
            ("make &> log; cat <in x >> out", &["make", "cat x"]),
            ("grep x <<< 'a b'", &["grep x"]),
            ("echo 2 > x 12", &["echo 2 12"]),
        ]);
    }

    #[test]
    fn expansions_are_kept_as_typed_and_substitutions_read() {
        check(&[
            ("grep \"$PAT\" src", &["grep $PAT src"]),
            (
                "ls ${HOME}/x $1 $((1 + 2))",
                &["ls ${HOME}/x $1 $((1 + 2))"],
            ),
            ("echo $(less x) done", &["$ less x", "echo $(less x) done"]),
            (
                "echo `git rev-parse HEAD`",
                &["$ git rev-parse HEAD", "echo `git rev-parse HEAD`"],
            ),
            ("echo 5$", &["echo 5$"]),
        ]);
        let words = &read("\"$EDITOR\" x").unwrap()[0].words;
        assert!(words[0].computed && !words[0].literal);
        assert!(!words[1].computed && words[1].literal);
    }

    #[test]
    fn loop_headers_run_nothing_and_keywords_stay_words() {
        check(&[
            ("for f in a b; do wc -l $f; done", &["do wc -l $f", "done"]),
            ("if true; then vim x; fi", &["if true", "then vim x", "fi"]),
        ]);
    }

    #[test]
    fn what_it_cannot_read_is_refused() {
        for script in [
            "grep 'open",
            "grep \"open",
            "cat <<EOF\nx\nEOF",
            "case $x in a) ls;; esac",
            "[[ -f x ]] && make",
            "diff <(ls a) <(ls b)",
            "f() { make; }",
            "(make",
            "make)",
            "echo $'a\\tb'",
            "| tail",
            "make >",
            "echo \\",
            "echo `unclosed",
            "echo ${x:-'a'}",
            &format!("echo {}x{}", "$(".repeat(40_000), ")".repeat(40_000)),
        ] {
            assert_eq!(commands(script), None, "for `{script}`");
        }
    }
}
