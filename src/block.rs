//! The unit the pipeline works on: one stream's text, split into lines and blocks.
//!
//! A child's two streams never mix: every line the pipeline sees belongs to exactly one
//! [`Stream`], which is what lets a failing command's stderr be treated differently from
//! its stdout.
//!
//! Lines are small records over the borrowed text (byte offsets, a role, a fate), never
//! copies: a 200 MB build log becomes a few bytes per line on top of the text the runner
//! already holds. A [`Block`] is a head line with its continuation (indented lines, a
//! rustc gutter, an attached `help:`), a range of line indices. Stages decide a line's
//! [`Fate`]; only `render` turns fates into text, so every removal passes through the one
//! place that writes markers.

use std::borrow::Cow;

/// Which of the child's output streams a piece of text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    /// The name used in markers, the store and the log.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// What a line is, as `classify` recognised it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Nothing recognised: ordinary text.
    #[default]
    Plain,
    /// Empty or whitespace only.
    Blank,
    /// A reported error: a diagnostic head, an assertion line, a panic, an exception.
    Error,
    /// A reported warning or lint finding of warning severity.
    Warning,
    /// `note:` / `= note:` lines attached to a finding.
    Note,
    /// `help:` / `= help:` lines: what to do about a finding.
    Help,
    /// Where a finding is: `--> src/a.rs:3:5`, `File "x.py", line 3`, an eslint file head.
    Location,
    /// Quoted source: a rustc gutter, a caret line, a traceback's code line.
    Source,
    /// A closing status line: `test result:`, `Finished`, `Found 3 errors.`.
    Summary,
    /// A transient state: `Compiling x`, a percentage bar, a `\r`-rewritten line.
    Progress,
    /// A test that passed.
    Pass,
    /// A test that failed (named).
    Fail,
    /// A section title: `failures:`, `=== FAILURES ===`, `---- t stdout ----`.
    Header,
    /// A line the tool prints that carries nothing (git's `(use "git add" ...)` hints,
    /// configured noise patterns).
    Noise,
}

impl Role {
    /// A role that reports something wrong: what context force-keeps.
    pub fn is_failure(self) -> bool {
        matches!(self, Role::Error | Role::Fail)
    }

    /// A role that opens a finding that cause may group.
    pub fn is_finding(self) -> bool {
        matches!(self, Role::Error | Role::Warning)
    }
}

/// What happens to a line in the view. Everything but `Keep` is a removal, and `render`
/// announces every removal with a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fate {
    #[default]
    Keep,
    /// A copy of an earlier block (dedupe).
    Repeat,
    /// A transient state superseded by a later one, a passing test, or noise (progress).
    Progress,
    /// Another report of a cause already in the view (cause).
    Grouped,
    /// Quoted source dropped because the view holds many findings (excerpt).
    Source,
    /// Did not fit the budget (rank).
    Ranked,
}

/// What a shape module knows about a line beyond its role: the facts later stages would
/// otherwise have to read out of the text again. A family module in `pipeline::shapes`
/// sets them during classify; the stages after it only read them. A set of flags, since
/// one line can be two of these (go's `--- FAIL: X` names a failing test and opens its
/// section).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Marks(u8);

impl Marks {
    pub const NONE: Marks = Marks(0);
    /// The one line per failing test in the shape its runner prints exactly once per test:
    /// cargo's `test x ... FAILED`, pytest's `FAILED x - msg`, go's `--- FAIL: X`, jest's
    /// and vitest's `✕ name`. What level 0 counts and names.
    pub const TEST_FAILED: Marks = Marks(1);
    /// The head of a failing test's section of output: pytest's `____ test_b ____`, go's
    /// `--- FAIL: X`, jest's `● suite › name`, cargo's `---- name stdout ----`.
    pub const TEST_SECTION: Marks = Marks(2);
    /// A line another line of the same run says again: cargo's `test x ... FAILED` once the
    /// closing `failures:` list names the test, pytest -v's `x FAILED [ 40%]` once the short
    /// summary does, the closing list itself when every test in it had a section, go's
    /// `=== RUN X` once `--- PASS: X` says the test ran.
    pub const RESTATED: Marks = Marks(4);
    /// The tool's own closing tally: `test result: FAILED. 1 passed; 2 failed`, pytest's
    /// `=== 2 failed, 5 passed in 0.1s ===`, `Found 3 errors`, `Tests: 1 failed, 1 total`.
    pub const TALLY: Marks = Marks(8);
    /// A commit's first line in a log (`commit 1a2b3c...`).
    pub const COMMIT: Marks = Marks(16);
    /// A file's header in a diff (`diff --git a/x b/x`).
    pub const DIFF_FILE: Marks = Marks(32);
    /// A hunk's header in a diff (`@@ -1,3 +1,4 @@`).
    pub const HUNK: Marks = Marks(64);
    /// A line that closes any failing test's section open above it (pytest's
    /// `=== short test summary info ===`).
    pub const BOUNDARY: Marks = Marks(128);

    pub fn has(self, mark: Marks) -> bool {
        self.0 & mark.0 != 0
    }

    pub fn add(&mut self, mark: Marks) {
        self.0 |= mark.0;
    }

    pub fn remove(&mut self, mark: Marks) {
        self.0 &= !mark.0;
    }
}

impl std::ops::BitOr for Marks {
    type Output = Marks;
    fn bitor(self, other: Marks) -> Marks {
        Marks(self.0 | other.0)
    }
}

/// One line of the stream: where it starts in the text (it ends before the next line's
/// `\n`; a `\r` before that stays, so a kept line is reproduced byte for byte) and what
/// the stages decided. Eight bytes, so a 200 MB log of short lines costs a fraction of
/// its size here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub start: u32,
    pub role: Role,
    pub fate: Fate,
    pub marks: Marks,
    flags: u8,
}

const FORCED: u8 = 1;
const REDRAWN: u8 = 2;

impl Line {
    pub fn new(start: u32, redrawn: bool) -> Line {
        Line {
            start,
            role: Role::default(),
            fate: Fate::default(),
            marks: Marks::NONE,
            flags: if redrawn { REDRAWN } else { 0 },
        }
    }

    /// Set by context: rank may not remove this line.
    pub fn forced(&self) -> bool {
        self.flags & FORCED != 0
    }

    pub fn force(&mut self) {
        self.flags |= FORCED;
    }

    /// Set by parse: the line holds a `\r` before its end or an escape sequence, so what
    /// a terminal shows differs from its bytes (see [`Doc::clean`]).
    pub fn redrawn(&self) -> bool {
        self.flags & REDRAWN != 0
    }
}

// The per-line record is what a log of short lines costs: keep it at eight bytes.
const _: () = assert!(std::mem::size_of::<Line>() == 8);

/// A head line and its continuation: lines `first..end` of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub first: u32,
    pub end: u32,
}

impl Block {
    pub fn lines(self) -> std::ops::Range<usize> {
        self.first as usize..self.end as usize
    }
}

/// The whole stream as the stages see it. Blocks are stored as the index of each head
/// line; a block runs to the next head.
#[derive(Debug, Clone)]
pub struct Doc<'a> {
    pub text: &'a str,
    pub lines: Vec<Line>,
    pub heads: Vec<u32>,
}

impl<'a> Doc<'a> {
    /// Line `i` exactly as printed, without its `\n`.
    pub fn raw(&self, i: usize) -> &'a str {
        &self.text[self.lines[i].start as usize..self.line_end(i)]
    }

    /// Byte offset just past line `i` (before its `\n`, if it has one).
    pub fn line_end(&self, i: usize) -> usize {
        match self.lines.get(i + 1) {
            Some(next) => next.start as usize - 1,
            None => self.text.strip_suffix('\n').unwrap_or(self.text).len(),
        }
    }

    pub fn block_count(&self) -> usize {
        self.heads.len()
    }

    /// Block `b`: from its head to the next block's head.
    pub fn block(&self, b: usize) -> Block {
        let end = match self.heads.get(b + 1) {
            Some(&next) => next,
            None => self.lines.len() as u32,
        };
        Block {
            first: self.heads[b],
            end,
        }
    }

    /// Is line `i` a block of its own?
    pub fn is_whole_block(&self, i: usize) -> bool {
        let head = |k: usize| self.heads.binary_search(&(k as u32)).is_ok();
        head(i) && (i + 1 == self.lines.len() || head(i + 1))
    }

    pub fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        (0..self.heads.len()).map(|b| self.block(b))
    }

    /// Line `i` as a terminal would leave it: the part after the last `\r`, without
    /// ANSI escape sequences. Classification and keys read this; the view never does.
    pub fn clean(&self, i: usize) -> Cow<'a, str> {
        let raw = self.raw(i);
        if self.lines[i].redrawn() {
            clean(raw)
        } else {
            Cow::Borrowed(raw.strip_suffix('\r').unwrap_or(raw))
        }
    }
}

/// Does `raw` need [`clean`] (a `\r` before its end, or an escape sequence)?
pub fn is_redrawn(raw: &str) -> bool {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    raw.contains('\r') || raw.contains('\x1b')
}

/// See [`Doc::clean`].
pub fn clean(raw: &str) -> Cow<'_, str> {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let shown = match raw.rfind('\r') {
        Some(at) => &raw[at + 1..],
        None => raw,
    };
    if shown.contains('\x1b') {
        Cow::Owned(strip_ansi(shown))
    } else {
        Cow::Borrowed(shown)
    }
}

/// Remove CSI (`ESC [ ... final`) and OSC (`ESC ] ... BEL|ESC \`) sequences, character
/// set designations (`ESC ( B`, which term's `sgr0` sends and rustfmt's diff prints), and
/// lone two-byte escapes.
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' {
                        break;
                    }
                    if c == '\x1b' {
                        chars.next();
                        break;
                    }
                }
            }
            Some('(' | ')' | '*' | '+') => {
                chars.next();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names_match_the_store_file_names() {
        assert_eq!(Stream::Stdout.name(), "stdout");
        assert_eq!(Stream::Stderr.name(), "stderr");
    }

    #[test]
    fn clean_keeps_what_a_terminal_shows() {
        assert_eq!(clean("plain"), "plain");
        assert_eq!(clean("crlf\r"), "crlf");
        assert_eq!(clean(" 10%\r 55%\r100%"), "100%");
        assert_eq!(clean("\x1b[1m\x1b[31merror\x1b[0m: x"), "error: x");
        assert_eq!(clean("\x1b]8;;http://x\x07link\x1b]8;;\x07"), "link");
        assert_eq!(
            clean("\x1b(B\x1b[m\x1b[32m+    let a = 1;"),
            "+    let a = 1;"
        );
    }

    #[test]
    fn roles_that_fail_and_roles_that_find() {
        assert!(Role::Error.is_failure() && Role::Fail.is_failure());
        assert!(!Role::Warning.is_failure());
        assert!(Role::Warning.is_finding() && !Role::Fail.is_finding());
    }
}
