//! Split one stream into lines and blocks, in one pass.
//!
//! A block is a head line plus its continuation: indented lines, a rustc/ruff gutter
//! (`12 |` starts at column 0 once line numbers reach two digits), rustc's `...`, an
//! attached `help:`/`note:`/`= ` line, and the exception line that closes a Python
//! traceback. Blank lines followed by more continuation stay inside the block (a pytest
//! failure section, a jest file); otherwise they form their own block.
//!
//! Cargo's right-aligned status lines (`   Compiling x`) are indented but are heads: each
//! is a progress line of its own, and treating them as continuation would glue a whole
//! build into one block.
//!
//! Whether the current block may take a continuation is tracked as the block is built;
//! asking it by rescanning the block made parsing quadratic in block length (40k
//! unindented lines took 451 ms), so nothing here looks back further than one line.

use crate::block::{Doc, Line, is_redrawn};
use crate::pipeline::locate;

/// Parse `text` into lines and blocks. The text must be shorter than 4 GiB (the caller
/// passes anything larger through raw).
pub fn parse(text: &str) -> Doc<'_> {
    let bytes = text.as_bytes();
    // Counted first so the vector is allocated once, at its final size.
    let count = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut lines = Vec::with_capacity(count);
    // Most logs hold no `\r` or escape at all: then no line needs the per-line check.
    let may_redraw = text.contains('\r') || text.contains('\x1b');
    let mut start = 0usize;
    while start < bytes.len() {
        let end = match text[start..].find('\n') {
            Some(at) => start + at,
            None => bytes.len(),
        };
        lines.push(Line::new(
            start as u32,
            may_redraw && is_redrawn(&text[start..end]),
        ));
        start = end + 1;
    }
    let mut doc = Doc {
        text,
        lines,
        heads: Vec::new(),
    };
    doc.heads = heads(&doc);
    doc
}

/// How a line relates to the block before it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Blank,
    /// Continues the open block if there is one.
    Continuation,
    /// Continues the open block only if no blank line came between (`help:` after a
    /// ruff finding, a traceback's closing exception line).
    Attached,
    Head,
}

/// The first line of every block.
fn heads(doc: &Doc) -> Vec<u32> {
    let mut heads: Vec<u32> = Vec::with_capacity(doc.lines.len());
    // Whether a block that may take continuation is open, and whether it is a Python
    // traceback still waiting for its exception line.
    let mut open = false;
    let mut in_traceback = false;
    // How far the open block's head is indented.
    let mut head_indent = 0usize;
    // Lines left of a located message its tool wrapped (mypy's `--pretty`).
    let mut wrapped = 0u8;
    // First line of a run of blank lines not yet assigned.
    let mut blank_from: Option<u32> = None;
    for i in 0..doc.lines.len() {
        let text = doc.clean(i);
        let mut shape = shape(&text, in_traceback);
        if shape == Shape::Head && is_tsc_gutter(doc.raw(i)) {
            shape = Shape::Continuation;
        }
        let i = i as u32;
        if wrapped > 0 && shape == Shape::Head && blank_from.is_none() {
            if locate::prefix(&text).is_none() {
                shape = Shape::Attached;
                wrapped = if text.trim_end().ends_with(']') {
                    0
                } else {
                    wrapped - 1
                };
            } else {
                wrapped = 0;
            }
        } else if shape != Shape::Head || blank_from.is_some() {
            wrapped = 0;
        }
        if shape == Shape::Blank {
            blank_from.get_or_insert(i);
            continue;
        }
        let joins = open
            && match shape {
                // A line no deeper than an indented head is its sibling (pip -v indents
                // all its build's output by two).
                Shape::Continuation => head_indent == 0 || indent(&text) > head_indent,
                Shape::Attached => blank_from.is_none(),
                _ => false,
            };
        if joins {
            blank_from = None;
            if in_traceback && shape == Shape::Attached {
                // The exception line closes the traceback.
                in_traceback = false;
                open = false;
            }
            continue;
        }
        if let Some(from) = blank_from.take() {
            heads.push(from);
        }
        heads.push(i);
        head_indent = indent(&text);
        open = true;
        in_traceback = text.starts_with("Traceback (most recent call last)");
        wrapped = if is_wrapped_head(&text) { WRAPPED } else { 0 };
    }
    if let Some(from) = blank_from {
        heads.push(from);
    }
    heads
}

fn indent(t: &str) -> usize {
    t.len() - t.trim_start_matches([' ', '\t']).len()
}

/// tsc --pretty's quoted source and its underline: the line number, or as many spaces,
/// in reverse video at the start of the line (`\x1b[7m68\x1b[0m  return {`, then
/// `\x1b[7m  \x1b[0m \x1b[91m ~~~~~~`). They start at the left edge, as a head would, but
/// belong to the error above them; only the colours tell them from a line that opens
/// with a number.
fn is_tsc_gutter(raw: &str) -> bool {
    raw.trim_start_matches(' ')
        .strip_prefix("\x1b[7m")
        .and_then(|rest| rest.split_once("\x1b[0m"))
        .is_some_and(|(gutter, _)| {
            !gutter.is_empty() && gutter.bytes().all(|b| b.is_ascii_digit() || b == b' ')
        })
}

/// How many lines a wrapped message may continue on.
pub(crate) const WRAPPED: u8 = 3;

/// `src/a.py:33: error: Argument 1 to "loads" has incompatible type`: a located message
/// that mypy's `--pretty` broke at eighty columns. The rest follows at the start of the
/// next lines, up to its `[code]`, before the indented source; those lines belong to it.
pub(crate) fn is_wrapped_head(text: &str) -> bool {
    let t = text.trim_end();
    !t.ends_with(']')
        && (t.contains(": error: ") || t.contains(": note: ") || t.contains(": warning: "))
        && locate::prefix(t).is_some()
}

fn shape(text: &str, in_traceback: bool) -> Shape {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return Shape::Blank;
    };
    if first == b' ' || first == b'\t' {
        if text.trim_start().is_empty() {
            return Shape::Blank;
        }
        if is_cargo_status(bytes) {
            return Shape::Head;
        }
        return Shape::Continuation;
    }
    if first.is_ascii_digit() && is_gutter(bytes) || is_elided_gutter(text) {
        return Shape::Continuation;
    }
    if text.starts_with("help: ") || text.starts_with("note: ") || text.starts_with("= ") {
        return Shape::Attached;
    }
    if in_traceback && is_exception_name(text) {
        return Shape::Attached;
    }
    Shape::Head
}

/// `ValueError: x`, `KeyError`, `requests.HTTPError: x`: what closes a traceback (a
/// class name, so `warning: x` does not).
pub(crate) fn is_exception_name(text: &str) -> bool {
    let name = text.split(':').next().unwrap_or(text);
    let class = name.rsplit('.').next().unwrap_or(name);
    class.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// `...` where rustc leaves lines out of the source it quotes, and `...  |` (or `... | |`)
/// where it does so inside a span of several lines.
pub(crate) fn is_elided_gutter(text: &str) -> bool {
    text.strip_prefix("...").is_some_and(|rest| {
        let rest = rest.trim_start();
        rest.is_empty() || rest.starts_with('|') && rest.bytes().all(|b| b == b'|' || b == b' ')
    })
}

/// `12 | code` or `12 |`: a source gutter whose line number starts the line; also
/// rustc's suggestion diffs, `12 - old` / `12 + new` / `12 ~ changed`.
pub(crate) fn is_gutter(bytes: &[u8]) -> bool {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = &bytes[digits..];
    let spaces = rest.iter().take_while(|&&b| b == b' ').count();
    match rest.get(spaces) {
        Some(b'|') => spaces > 0,
        Some(b'-' | b'+' | b'~') => {
            digits > 0 && spaces == 1 && matches!(rest.get(spaces + 1), None | Some(b' '))
        }
        _ => false,
    }
}

/// Cargo right-aligns its status verb so that it ends at column 12: `   Compiling x`,
/// `    Finished `, `  Downloaded x`. Any capitalised word ending there counts.
pub(crate) fn is_cargo_status(bytes: &[u8]) -> bool {
    let spaces = bytes.iter().take_while(|&&b| b == b' ').count();
    if !(1..=11).contains(&spaces) || bytes.len() < 13 || bytes[12] != b' ' {
        return false;
    }
    let word = &bytes[spaces..12];
    word[0].is_ascii_uppercase()
        && word[1..]
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(text: &str) -> Vec<(usize, usize)> {
        let doc = parse(text);
        doc.blocks()
            .map(|b| (b.first as usize + 1, b.end as usize))
            .collect()
    }

    #[test]
    fn lines_keep_their_bytes_and_the_last_line_may_lack_a_newline() {
        let doc = parse("a\r\nb\n\nc");
        let raws: Vec<&str> = (0..doc.lines.len()).map(|i| doc.raw(i)).collect();
        assert_eq!(raws, ["a\r", "b", "", "c"]);
        assert!(parse("").lines.is_empty());
        assert_eq!(parse("\n").lines.len(), 1);
    }

    #[test]
    fn a_rustc_diagnostic_is_one_block_including_two_digit_gutters() {
        let text = "error[E0308]: mismatched types\n  --> src/main.rs:10:18\n   |\n10 |     let x: i32 = \"a\";\n   |                  ^^^ expected `i32`\n   = note: see\nhelp: try\n\nerror: aborting due to 1 previous error\n";
        assert_eq!(shape_of(text), [(1, 7), (8, 8), (9, 9)]);
    }

    #[test]
    fn a_span_rustc_shortened_stays_in_its_diagnostic() {
        let text = "warning: missing `#[inline]` for a method\n  --> src/display.rs:34:5\n   |\n34 | /     fn fmt(&self) -> fmt::Result {\n35 | |         if x {\n...  |\n44 | |         Ok(())\n45 | |     }\n   | |_____^\n   |\n   = help: see\n\nwarning: y\n";
        assert_eq!(shape_of(text), [(1, 11), (12, 12), (13, 13)]);
    }

    #[test]
    fn cargo_status_lines_are_heads() {
        let text = "   Compiling a v0.1.0\n   Compiling b v0.1.0 (/x)\n    Finished `dev` profile\n      indented note\n";
        assert_eq!(shape_of(text), [(1, 1), (2, 2), (3, 4)]);
    }

    #[test]
    fn tsc_pretty_source_belongs_to_its_error() {
        let text = "\x1b[96msrc/a.ts\x1b[0m:\x1b[93m8\x1b[0m:\x1b[93m3\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType\n\n\x1b[7m8\x1b[0m   withStackTrace: 'false',\n\x1b[7m \x1b[0m \x1b[91m  ~~~~~~~~~~~~~~\x1b[0m\n\n\x1b[96msrc/b.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m1\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2304: \x1b[0mx\n";
        assert_eq!(shape_of(text), [(1, 4), (5, 5), (6, 6)]);
        // A line that only opens with a number is not a gutter.
        assert_eq!(shape_of("error: x\n68  return {\n"), [(1, 1), (2, 2)]);
    }

    #[test]
    fn a_line_no_deeper_than_an_indented_head_is_its_sibling() {
        // pip -v indents all of its build's output by two.
        let text = "  Collecting wheel\n    Using cached wheel.whl\n  Installing collected packages: wheel\n  running egg_info\n";
        assert_eq!(shape_of(text), [(1, 2), (3, 3), (4, 4)]);
    }

    #[test]
    fn blank_lines_stay_inside_a_block_only_before_more_continuation() {
        let text = "____ test_a ____\n\n    def test_a():\n>       assert 1 == 2\n\nnext\n";
        assert_eq!(shape_of(text), [(1, 3), (4, 4), (5, 5), (6, 6)]);
    }

    #[test]
    fn a_wrapped_message_continues_its_block_up_to_its_code() {
        let text = "src/a.py:33: error: Argument 1 to \"loads\" has incompatible type\n\
                    \"float\"; expected \"str\"  [arg-type]\n\
                    \x20       return loads(value)\n\
                    src/a.py:40: error: Name \"x\" is not defined  [name-defined]\n\
                    Found 2 errors in 1 file (checked 1 source file)\n";
        assert_eq!(shape_of(text), [(1, 3), (4, 4), (5, 5)]);
    }

    #[test]
    fn a_traceback_ends_with_its_exception_line() {
        let text = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\nNameError: name 'f' is not defined\nafter\n";
        assert_eq!(shape_of(text), [(1, 4), (5, 5)]);
    }

    #[test]
    fn only_an_exception_closes_a_traceback() {
        let text =
            "Traceback (most recent call last):\n  File \"a.py\", line 1\n=== FAILURES ===\n";
        assert_eq!(shape_of(text), [(1, 2), (3, 3)]);
    }

    #[test]
    fn unindented_lines_are_one_block_each_and_parse_is_linear() {
        let text = "x\n".repeat(40_000);
        let doc = parse(&text);
        assert_eq!(doc.block_count(), 40_000);
        let long = format!("head\n{}", "  more\n".repeat(40_000));
        assert_eq!(parse(&long).block_count(), 1);
    }

    #[test]
    fn cargo_status_needs_the_verb_to_end_at_column_twelve() {
        assert!(is_cargo_status(b"   Compiling x"));
        assert!(is_cargo_status(b"   Doc-tests x"));
        assert!(!is_cargo_status(b"  Compiling x"));
        assert!(!is_cargo_status(b"   compiling x"));
    }

    #[test]
    fn gutters_include_suggestion_diffs() {
        assert!(is_gutter(b"12 |     let x = 1;"));
        assert!(is_gutter(b"3 -     return total / 2;"));
        assert!(is_gutter(b"3 +     total / 2"));
        assert!(!is_gutter(b"2024 was a year"));
        assert!(!is_gutter(b"10 -> 11"));
        assert!(is_elided_gutter("..."));
        assert!(is_elided_gutter("...  |"));
        assert!(is_elided_gutter("...   | |"));
        assert!(!is_elided_gutter("... and 3 more"));
    }
}
