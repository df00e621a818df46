//! What mocha prints with its default spec reporter: each test's result under the titles
//! of its `describe` blocks (`✔ name` when it passed, `3) name` when it failed, numbered
//! in the order it failed), the tallies `19 passing (27ms)`, `28 failing`, `2 pending`,
//! and then one section per failure:
//!
//! ```text
//!   3) mimeTypes
//!        .lookup(extension)
//!          should return mime type for ".html":
//!      TypeError: extname is not a function
//!       at Object.lookup (index.js:138:19)
//! ```
//!
//! The section's head is its numbered line; the test's title is that line and the
//! indented titles under it, down to the one ending in `:`. The lines from there to the
//! first stack frame are the failure's message and its values (an assertion's quoted
//! source, node's `+ actual - expected` diff), so two tests that failed at one matcher
//! with other values failed differently.
//!
//! A numbered line is anybody's list item by itself: only a run that printed mocha's
//! `N failing` tally has them read as tests, in [`restated`] where the whole run is in view.
//! A failing test's line in the listing is said again by its section's title, and marked
//! so: with it gone, a describe block whose tests all passed or failed in sections below
//! has nothing left to title (jest's module reads those titles).

use std::collections::HashSet;

use super::Tool;
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Lines(title),
    payload: super::bare,
    tally_count,
    cut_detail: super::no_detail,
};

/// How many lines a test's title may run to under its numbered line: the describe
/// blocks it is nested in, then the test.
const TITLE_LINES: usize = 8;

fn role(t: &str) -> Option<Role> {
    tally(t).map(|_| Role::Summary)
}

fn marks(t: &str, role: Role) -> Marks {
    if role == Role::Summary && tally(t.trim_start()).is_some() {
        Marks::TALLY
    } else {
        Marks::NONE
    }
}

/// `28 failing`, `19 passing (27ms)`, `2 pending`: the count and its word.
fn tally(t: &str) -> Option<(usize, &str)> {
    let (n, rest) = t.split_once(' ')?;
    let n = n.parse().ok()?;
    let (word, timing) = rest.split_once(' ').unwrap_or((rest, ""));
    let timed = timing.is_empty()
        || timing.starts_with('(')
            && timing.ends_with(')')
            && timing[1..timing.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.');
    (matches!(word, "passing" | "failing" | "pending") && timed).then_some((n, word))
}

/// The count a mocha tally gives level 0's `failed`: `28 failing` is 28 failed.
fn tally_count(t: &str, word: &str) -> Option<usize> {
    match tally(t.trim_start())? {
        (n, "failing") if word == "failed" => Some(n),
        _ => None,
    }
}

/// `  3) name`: the running number mocha gives a failing test, and what follows it.
fn numbered(t: &str) -> Option<&str> {
    let t = t.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = t.get(digits..)?.strip_prefix(") ")?;
    (digits > 0 && !rest.trim().is_empty()).then_some(rest)
}

/// The lines of the title a failure section's head opens: the head and the titles under
/// it, each indented deeper than the one above, down to the test's own, which ends in
/// `:`. A suite's title may end in `:` too (`POSIX: From the test suite ... code:`); the
/// message under the title is indented less than its last line, or after a blank line.
fn title_lines(doc: &Doc, head: usize) -> Option<std::ops::Range<usize>> {
    let indent = |i: usize| {
        let t = doc.clean(i);
        t.len() - t.trim_start().len()
    };
    let mut end = head;
    for i in head + 1..doc.lines.len().min(head + TITLE_LINES) {
        if doc.clean(i).trim().is_empty() || indent(i) <= indent(end) {
            break;
        }
        end = i;
    }
    doc.clean(end)
        .trim_end()
        .ends_with(':')
        .then_some(head..end + 1)
}

/// `mimeTypes .lookup(extension) should return mime type for ".html"`: the test's full
/// title, as mocha names it (its suites' titles and its own, joined by spaces).
fn title(doc: &Doc, head: usize) -> Option<String> {
    let first = numbered(&doc.clean(head))?.trim().to_owned();
    let lines = title_lines(doc, head)?;
    let mut title = first;
    for i in lines.skip(1) {
        title.push(' ');
        title.push_str(doc.clean(i).trim());
    }
    Some(title.strip_suffix(':').unwrap_or(&title).to_owned())
}

/// Read mocha's numbered lines, once the run's tallies say they are mocha's: above the
/// tally each names a failing test, below it each opens a failure's section, whose
/// message runs from under its title to its first stack frame. Every line mocha prints is
/// indented, so the roles classify gave them by the block they fell in (a stream that
/// opens with a dot reporter's progress, or a tally) are set here, where the run's shape
/// is known.
fn restated(doc: &mut Doc) {
    let n = doc.lines.len();
    let said = |i: usize, word: &str| {
        doc.lines[i].role != Role::Blank
            && tally(doc.clean(i).trim_start()).is_some_and(|(_, w)| w == word)
    };
    // `N failing` comes under `N passing` (and `N pending`), which mocha prints always.
    let failing = (1..n)
        .find(|&i| said(i, "failing") && (i.saturating_sub(2)..i).any(|j| said(j, "passing")));
    let Some(failing) = failing else {
        return;
    };
    for i in failing.saturating_sub(2)..=failing {
        if tally(doc.clean(i).trim_start()).is_some() {
            doc.lines[i].role = Role::Summary;
            doc.lines[i].marks = Marks::TALLY;
        }
    }
    let mut sections = HashSet::new();
    let mut i = failing + 1;
    while i < n {
        let heads = numbered(&doc.clean(i)).is_some() && doc.raw(i).starts_with("  ");
        let Some(title) = heads.then(|| title_lines(doc, i)).flatten() else {
            i += 1;
            continue;
        };
        doc.lines[i].role = Role::Fail;
        doc.lines[i].marks = Marks::TEST_SECTION;
        sections.insert(number(&doc.clean(i)).to_owned());
        for j in title.start + 1..title.end {
            doc.lines[j].role = Role::Plain;
            doc.lines[j].marks = Marks::NONE;
        }
        i = title.end;
        while i < n && doc.lines[i].role != Role::Location {
            if numbered(&doc.clean(i)).is_some() && title_lines(doc, i).is_some() {
                break;
            }
            if doc.lines[i].role != Role::Blank {
                doc.lines[i].role = Role::Error;
                doc.lines[i].marks = Marks::NONE;
            }
            i += 1;
        }
        while i < n && matches!(doc.lines[i].role, Role::Location | Role::Blank) {
            i += 1;
        }
    }
    // A failing test's line in the listing says again what its section's title says.
    for i in 0..failing {
        let role = doc.lines[i].role;
        if matches!(role, Role::Plain | Role::Pass | Role::Progress)
            && numbered(&doc.clean(i)).is_some()
        {
            doc.lines[i].role = Role::Fail;
            doc.lines[i].marks = Marks::TEST_FAILED;
            if sections.contains(number(&doc.clean(i))) {
                doc.lines[i].marks.add(Marks::RESTATED);
            }
        }
    }
}

/// The running number of a numbered line: `3` of `  3) name`.
fn number(t: &str) -> &str {
    let t = t.trim_start();
    &t[..t.find(')').unwrap_or(0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    #[test]
    fn tallies_with_and_without_a_timing() {
        assert_eq!(tally("19 passing (27ms)"), Some((19, "passing")));
        assert_eq!(tally("1933 passing (2s)"), Some((1933, "passing")));
        assert_eq!(tally("28 failing"), Some((28, "failing")));
        assert_eq!(tally("2 pending"), Some((2, "pending")));
        assert_eq!(tally("3 failing tests were retried"), None);
        assert_eq!(tally("two failing"), None);
        assert_eq!(tally_count("  28 failing", "failed"), Some(28));
        assert_eq!(tally_count("  19 passing (27ms)", "failed"), None);
    }

    #[test]
    fn numbered_lines_are_tests_only_in_a_run_with_a_failing_tally() {
        let run = "  a\n    1) fails\n    ✔ passes\n\n  1 passing (2ms)\n  1 failing\n\n  \
                   1) a\n       fails:\n     TypeError: x is not a function\n      at f (a.js:1:2)\n";
        let mut doc = parse(run);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let line = |i: usize| (doc.lines[i].role, doc.lines[i].marks);
        assert_eq!(line(1), (Role::Fail, Marks::TEST_FAILED | Marks::RESTATED));
        assert_eq!(line(5), (Role::Summary, Marks::TALLY));
        assert_eq!(line(7), (Role::Fail, Marks::TEST_SECTION));
        assert_eq!(line(8).0, Role::Plain);
        assert_eq!(line(9).0, Role::Error);
        assert_eq!(line(10).0, Role::Location);
        assert_eq!(title(&doc, 7).as_deref(), Some("a fails"));
        // A suite's title that ends in `:` is not the test's.
        let run = "  0 passing (1ms)\n  1 failing\n\n  1) posix\n       POSIX: classes:\n         \
                   match words:\n     TypeError: no\n      at f (a.js:1:2)\n";
        let mut doc = parse(run);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(
            title(&doc, 3).as_deref(),
            Some("posix POSIX: classes: match words")
        );
        assert_eq!(doc.lines[5].role, Role::Plain);
        assert_eq!(doc.lines[6].role, Role::Error);
        // A numbered list with no tally is a list.
        let mut doc = parse("Steps:\n  1) build it\n  2) run it\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert!(
            doc.lines
                .iter()
                .all(|l| l.role == Role::Plain && l.marks == Marks::NONE)
        );
    }

    #[test]
    fn tests_outside_a_describe_block_are_not_a_passing_tests_output() {
        // mocha's run of `it('passes')`, `it('fails')` at the top of a file: the stream
        // opens with `✔ passes`, and every line under it is indented.
        let run = "\n\n  ✔ passes\n  1) fails\n\n\n  1 passing (11ms)\n  1 failing\n\n  \
                   1) fails:\n\n      AssertionError [ERR_ASSERTION]: Expected values to be \
                   strictly equal:\n\n1 !== 2\n\n      at Context.<anonymous> (test/a.js:3:28)\n";
        let mut doc = parse(run);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let roles: Vec<Role> = doc.lines.iter().map(|l| l.role).collect();
        assert_eq!(roles[2], Role::Pass, "{roles:?}");
        assert_eq!(roles[3], Role::Fail, "{roles:?}");
        assert_eq!(roles[6..8], [Role::Summary, Role::Summary], "{roles:?}");
        assert_eq!(roles[9], Role::Fail, "{roles:?}");
        assert_eq!(roles[11], Role::Error, "{roles:?}");
        assert_eq!(roles[13], Role::Error, "{roles:?}");
        assert_eq!(title(&doc, 9).as_deref(), Some("fails"));
        // When all passed, the tally under them is the run's, not a test's.
        let mut doc = parse("\n\n  ✔ a\n  ✔ b\n\n\n  2 passing (3ms)\n\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(doc.lines[6].role, Role::Summary);
        assert_eq!(doc.lines[6].marks, Marks::TALLY);
    }

    #[test]
    fn a_message_runs_to_the_first_frame_with_its_values() {
        let run = "  0 passing (1ms)\n  1 failing\n\n  1) t\n       eq:\n\n      \
                   AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\
                   + actual - expected\n\n+ 'utf-8'\n- 'UTF-8'\n      \n      \
                   at Context.<anonymous> (test/test.js:7:14)\n";
        let mut doc = parse(run);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let roles: Vec<Role> = doc.lines.iter().map(|l| l.role).collect();
        assert_eq!(roles[6], Role::Error, "{roles:?}");
        assert_eq!(roles[7], Role::Error, "{roles:?}");
        assert_eq!(roles[9], Role::Error, "{roles:?}");
        assert_eq!(roles[10], Role::Error, "{roles:?}");
        assert_eq!(roles[12], Role::Location, "{roles:?}");
    }
}
