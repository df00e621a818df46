//! Drop quoted source once the view holds more than a handful of findings and does not
//! fit the budget (the pipeline runs this stage only then).
//!
//! The source a finding quotes is the one part of it the reader already has: it is in
//! the file, at the line the finding just named. With many findings that quoting is most
//! of the bytes, so past `after` visible findings every quoted-source line goes (gutters,
//! caret lines, a traceback's code, pytest's test body); message, location, notes and the
//! help that says what to do stay, and so does the quoted line a tool marks as the one
//! that failed (pytest's and jest's `>`). A cascade that cause reduced to three findings keeps
//! its source, which is what makes three findings actionable.

use crate::block::{Block, Doc, Fate, Marks, Role};
use crate::pipeline::cause;

/// Count the findings still in the view; past `after`, mark quoted source `Fate::Source`.
/// Returns the number of visible findings.
pub fn excerpt(doc: &mut Doc, after: usize) -> usize {
    let findings = doc.blocks().map(|b| findings_in(doc, b)).sum::<usize>();
    if findings > after {
        for i in 0..doc.lines.len() {
            let line = doc.lines[i];
            // pytest's `>       assert x == y` and jest's `> 4 | expect(...)` point at the
            // line that failed, among the quoted ones: the reader's first stop.
            if line.role == Role::Source && line.fate == Fate::Keep && !doc.raw(i).starts_with('>')
            {
                doc.lines[i].fate = Fate::Source;
            }
        }
    }
    findings
}

/// Findings a block shows: a located diagnostic, each eslint line under a file, a
/// failing test's section (`____ test_b ____`, `--- FAIL: TestB`, `● suite › b`). Tallies,
/// pytest's short summary and assertion lines are parts of findings already counted.
fn findings_in(doc: &Doc, block: Block) -> usize {
    let head = doc.lines[block.first as usize];
    if head.fate != Fate::Keep {
        return 0;
    }
    match head.role {
        Role::Location => block
            .lines()
            .filter(|&i| doc.lines[i].role.is_finding() && doc.lines[i].fate == Fate::Keep)
            .count(),
        Role::Error | Role::Warning => cause::is_locatable(doc, block) as usize,
        // A failing test's section, as its runner's family module marked it.
        _ => block
            .lines()
            .filter(|&i| doc.lines[i].marks.has(Marks::TEST_SECTION))
            .filter(|&i| doc.lines[i].fate == Fate::Keep)
            .count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    const FINDING: &str = "F401 [*] `os` imported but unused\n --> a.py:1:8\n  |\n1 | import os\n  |        ^^\n  |\nhelp: Remove unused import: `os`\n";

    fn fates(text: &str, after: usize) -> Vec<Fate> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        excerpt(&mut doc, after);
        doc.lines.iter().map(|l| l.fate).collect()
    }

    use Fate::*;

    #[test]
    fn few_findings_keep_their_source() {
        assert!(fates(FINDING, 1).iter().all(|f| *f == Keep));
    }

    #[test]
    fn many_findings_keep_message_location_and_help() {
        let text = FINDING.repeat(2);
        let fates = fates(&text, 1);
        assert_eq!(
            &fates[..7],
            [Keep, Keep, Source, Source, Source, Source, Keep]
        );
        assert_eq!(fates[7..], fates[..7]);
    }

    #[test]
    fn the_line_that_failed_stays() {
        let section = "____ test_a ____\n\n    def test_a():\n>       assert f(1) == 2\nE       assert 3 == 2\n\ntests/t.py:2: AssertionError\n";
        let text = format!("=== FAILURES ===\n{}", section.repeat(3));
        let fates = fates(&text, 1);
        assert_eq!(&fates[3..5], [Source, Keep], "{fates:?}");
    }
}
