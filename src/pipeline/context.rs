//! Force-keep what a failure needs: the error, its neighbours, the failing stream's end.
//!
//! Every block holding a failure (an error or a failing test) is forced, with `around`
//! kept lines on either side, so rank can never trade it for budget. Tallies are forced
//! too when the stream reports a failure (`test result: FAILED`, `Found 3 errors`). When
//! the command exited non-zero, the last `tail` kept lines of stderr are forced, and of
//! stdout too when no recognised error explains the exit (there at most 2 KiB of them, or
//! two lines).
//!
//! Only lines still kept are forced. A report cause grouped away as another of a cause
//! already in the view is not that error's context: rescuing it is how a cascade returns
//! one neighbour at a time, so context leaves every removal of the earlier stages alone.

use crate::block::{Doc, Fate, Role, Stream};

/// Bytes of a failing stdout's tail kept when nothing in it failed, beyond its last two lines.
const GUESSED_TAIL_BYTES: usize = 2048;

/// Mark failure blocks, their neighbours, tallies and a failing stream's end as forced.
/// Returns whether the stream reports a failure of its own.
pub fn context(doc: &mut Doc, around: usize, tail: usize, exit_code: i32, stream: Stream) -> bool {
    let mut reported = false;
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        let fails = block
            .lines()
            .any(|i| doc.lines[i].role.is_failure() && doc.lines[i].fate == Fate::Keep);
        if !fails {
            continue;
        }
        reported = true;
        for i in block.lines() {
            force(doc, i);
        }
        // The line before is context unless it closes another finding: that finding's
        // note, help or quoted source (gcc's `   |   ^` caret), shown alone, would read as
        // this one's. (The notes after a finding are its own: gcc and mypy print them
        // there.)
        let own = |doc: &Doc, i: usize| {
            !matches!(doc.lines[i].role, Role::Note | Role::Help | Role::Source)
        };
        let mut before = block.first as usize;
        for _ in 0..around {
            match previous_kept(doc, before).filter(|&i| own(doc, i)) {
                Some(i) => {
                    force(doc, i);
                    before = i;
                }
                None => break,
            }
        }
        // The lines after are context until a warning begins: its header alone (`warning:
        // unused import`, its location and source cut) is half a unit. (A note after an
        // error is the error's: gcc prints `note: declared here` there.)
        let mut after = block.end as usize;
        let mut taken = 0;
        while taken < around && after < doc.lines.len() {
            let line = doc.lines[after];
            // Nor is a line past a fold.
            if line.role == Role::Warning || line.fate == Fate::Repeat {
                break;
            }
            if line.fate == Fate::Keep {
                force(doc, after);
                taken += 1;
            }
            after += 1;
        }
    }
    if reported {
        for line in doc.lines.iter_mut() {
            if line.role == Role::Summary && line.fate == Fate::Keep {
                line.force();
            }
        }
    }
    if exit_code != 0 && (stream == Stream::Stderr || !reported) {
        let mut taken = 0;
        let mut earliest = None;
        // A stdout with no failure of its own is guessed at: its tail holds the failure
        // only maybe, and make's compiler commands there are 600 bytes a line.
        let guessed = stream == Stream::Stdout && !reported;
        let mut bytes = 0;
        for i in (0..doc.lines.len()).rev() {
            // The tail says how the stream ended; it stops at a failure it reaches, whose own
            // context was chosen above: going past it would show the end of whatever came
            // before (the caret of another finding's note).
            if taken == tail
                || reported && doc.lines[i].forced() && doc.lines[i].role.is_failure()
                || guessed && taken >= 2 && bytes >= GUESSED_TAIL_BYTES
            {
                break;
            }
            if doc.lines[i].fate == Fate::Keep && doc.lines[i].role != Role::Blank {
                force(doc, i);
                taken += 1;
                bytes += doc.line_end(i) - doc.lines[i].start as usize + 1;
                earliest = Some(i);
            }
        }
        // The tail begins with a whole finding: one cut after its head would show its
        // quoted source without the warning and the file it is about.
        let head = earliest.and_then(|earliest| {
            let block = doc
                .blocks()
                .find(|b| (b.first as usize..b.end as usize).contains(&earliest))?;
            let first = block.first as usize;
            doc.lines[first]
                .role
                .is_finding()
                .then_some(first..earliest)
        });
        for i in head.into_iter().flatten() {
            force(doc, i);
        }
    }
    reported
}

/// The kept line before `before`, across removed lines but not across a fold: a line on
/// the far side of two hundred folded requests is not a neighbour. (Across a traceback's
/// hidden library frames or grouped reports it is: pytest's `tests/a.py:1: in <module>`
/// under `ImportError while importing test module`.)
fn previous_kept(doc: &Doc, before: usize) -> Option<usize> {
    (0..before)
        .rev()
        .find(|&i| matches!(doc.lines[i].fate, Fate::Keep | Fate::Repeat))
        .filter(|&i| doc.lines[i].fate == Fate::Keep)
}

fn force(doc: &mut Doc, i: usize) {
    if doc.lines[i].fate == Fate::Keep {
        doc.lines[i].force();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn forced(text: &str, exit: i32, stream: Stream) -> (Vec<bool>, bool) {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, stream);
        let reported = context(&mut doc, 1, 2, exit, stream);
        (doc.lines.iter().map(|l| l.forced()).collect(), reported)
    }

    #[test]
    fn another_findings_note_is_not_an_errors_neighbour() {
        let text = "warning: unused import: `std::fmt`\n --> src/a.rs:1:5\n  = note: `#[warn(unused_imports)]` on by default\nerror[E0599]: no method named `x`\n --> src/a.rs:9:7\n";
        let (f, _) = forced(text, 0, Stream::Stderr);
        assert_eq!(f, [false, false, false, true, true], "{f:?}");
    }

    #[test]
    fn another_findings_caret_is_not_an_errors_neighbour() {
        let text = "a.c:9:5: warning: unused variable 'x'\n    9 |   int x;\n      |       ^\n[13/93] Building C object b.c.o\nFAILED: b.c.o\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        context(&mut doc, 2, 0, 0, Stream::Stdout);
        let f: Vec<bool> = doc.lines.iter().map(|l| l.forced()).collect();
        assert_eq!(f, [false, false, false, true, true], "{f:?}");
    }

    #[test]
    fn a_warning_after_an_error_is_not_its_neighbour() {
        let text = "error: x\n --> a.rs:1:1\n\nwarning: unused import\n --> a.rs:3:5\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        context(&mut doc, 2, 0, 0, Stream::Stderr);
        let f: Vec<bool> = doc.lines.iter().map(|l| l.forced()).collect();
        assert_eq!(f, [true, true, true, false, false], "{f:?}");
    }

    #[test]
    fn a_failing_streams_tail_begins_with_a_whole_finding() {
        let text = "warning: unused variable: `x`\n --> src/main.rs:10:9\n   |\n10 |     let x = 5;\n   |         ^\n";
        let (f, _) = forced(text, 101, Stream::Stderr);
        assert_eq!(f, [true; 5], "{f:?}");
    }

    #[test]
    fn an_error_and_one_neighbour_each_side_are_forced() {
        let text = "a\nb\nerror: x\n  --> a.rs:1:1\nc\nd\n";
        let (f, reported) = forced(text, 0, Stream::Stdout);
        assert!(reported);
        assert_eq!(f, [false, true, true, true, true, false]);
    }

    #[test]
    fn a_failing_streams_tail_stops_at_the_failure_it_reaches() {
        let text = "a.c:1:1: warning: w\n    1 | x\n      | ^\nb.c:2:2: error: boom\n";
        let (f, _) = forced(text, 2, Stream::Stderr);
        assert_eq!(f, [false, false, false, true], "{f:?}");
    }

    #[test]
    fn a_failing_stream_without_a_recognised_error_keeps_its_end() {
        let (f, reported) = forced("a\nb\nc\n\n", 1, Stream::Stdout);
        assert!(!reported);
        assert_eq!(f, [false, true, true, false]);
    }

    #[test]
    fn a_guessed_tail_of_long_lines_is_short() {
        // make's stdout: compiler commands of 600 bytes, the errors on stderr.
        let command = format!("gcc {} -c -o a.o a.c", "-Wall ".repeat(100));
        let text = format!("{command}\n").repeat(10);
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        context(&mut doc, 1, 10, 2, Stream::Stdout);
        let f: Vec<bool> = doc.lines.iter().map(|l| l.forced()).collect();
        assert_eq!(f.iter().filter(|&&f| f).count(), 4, "{f:?}");
        assert!(f[9] && !f[5]);
        // On stderr the tail is the failure's own end, whole.
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        context(&mut doc, 1, 10, 2, Stream::Stderr);
        assert!(doc.lines.iter().all(|l| l.forced()));
    }

    #[test]
    fn tallies_are_forced_when_something_failed() {
        let text = "test a ... FAILED\nx\ny\nz\ntest result: FAILED. 0 passed; 1 failed\n";
        let (f, _) = forced(text, 0, Stream::Stdout);
        assert_eq!(f, [true, true, false, false, true]);
    }

    #[test]
    fn a_line_past_a_fold_is_not_a_neighbour() {
        let mut doc = parse("a\nb\nerror: x\nc\nd\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        doc.lines[1].fate = Fate::Repeat;
        doc.lines[3].fate = Fate::Repeat;
        context(&mut doc, 1, 0, 0, Stream::Stdout);
        let f: Vec<bool> = doc.lines.iter().map(|l| l.forced()).collect();
        assert_eq!(f, [false, false, true, false, false], "{f:?}");
    }

    #[test]
    fn removed_lines_are_not_rescued() {
        let mut doc = parse("a\nerror: x\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        doc.lines[0].fate = Fate::Grouped;
        context(&mut doc, 2, 0, 1, Stream::Stdout);
        assert!(!doc.lines[0].forced() && doc.lines[1].forced());
    }
}
