//! One cause is reported once: group findings that share a message.
//!
//! A wrong field type is reported at every use site: 150 diagnostics, one edit. dedupe
//! cannot see it (each report names another line and quotes other source), so cause keys
//! a finding on its message alone, with the location taken off and quoted names, numbers
//! and ids masked (`` unused variable: `x` `` and `` `y` `` are one cause). The first
//! report stays whole; every later one becomes `Fate::Grouped`, and its location is
//! recorded so the marker that replaces it names the place: fifty files with one finding
//! each lose their excerpts, never their names. A place whose report quotes other names
//! than the report shown says them (`b.py:48 "cast"`): `Name "…" is not defined` alone
//! would not say what is missing there.
//!
//! Only findings with a location are grouped: a member is removed on the promise that its
//! marker says where it was, and a finding without a place cannot keep that promise.
//! Two unrelated errors opening with the same sentence are grouped too; the second is
//! announced rather than shown, and the store has it. Runs after classify (which says
//! what a finding is) and before context, which would otherwise force every error back.
//!
//! A group needs a few reports: two findings that share a message are both shown (see
//! [`FINDINGS_AT`]), and failing tests are grouped only when they flood ([`TESTS_AT`]):
//! six tests failing `assert_eq!` with six different values are six faults to read. So
//! are a few findings of one shape that each quote other values ([`DISTINCT_AT`]).

use std::collections::HashMap;

use crate::block::{Doc, Fate, Marks, Role};
use crate::pipeline::dedupe::Hasher;
use crate::pipeline::locate;
use crate::pipeline::shapes;

/// The findings that share one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// 1-based line of the report that stays in the view.
    pub first_line: u32,
    /// The rule or code the tool named (`E0308`, `clippy::needless_return`, `F401`,
    /// `no-unused-vars`), when it named one.
    pub label: Option<String>,
    /// The message the group's reports share, as its first report says it; the marker
    /// quotes it, so a reader knows what was grouped without finding that line.
    pub message: String,
    /// The group is of failing tests: its members' `file` is the test's name.
    pub tests: bool,
    /// Where the report that stays is, as a member's place is written (`file` is the
    /// test's name for a group of tests): for a marker that hides it too (level 1).
    pub first: (String, String),
}

/// A report elided as another of its group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// 0-based index of the report's first line.
    pub line: u32,
    pub group: u32,
    pub file: String,
    pub line_number: String,
    /// The quoted names in which the report's message differs from the one the view
    /// shows (`"cast"` where it shows `Name "normalize_timestamp" is not defined`), so its
    /// place says what is there; empty when they are the same.
    pub quoted: String,
    /// The line of the macro call the report was expanded from (rustc's `155 |
    /// integer!(u8, ...)` over `in this macro invocation`): thirteen warnings at one place
    /// in a macro are told apart by it. Empty when the report names none.
    pub invoked: String,
}

/// What cause decided, for render's markers. Members are in line order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Causes {
    pub groups: Vec<Group>,
    pub members: Vec<Member>,
}

/// One finding: lines `first..end` (a whole block, or one eslint line), where it is, what
/// it says.
struct Finding {
    first: usize,
    end: usize,
    file: String,
    line_number: String,
    key: u64,
    label: Option<String>,
    message: String,
    invoked: String,
}

/// Findings that share a message are grouped from this many on.
pub const FINDINGS_AT: usize = 3;

/// Failing tests that failed alike are grouped from this many on.
pub const TESTS_AT: usize = 10;

/// Findings that share a message's shape but each quote other values (`got "list[str]",
/// expected "str"` and `got "str | None", expected "bool"`) are grouped from this many on:
/// a few of them are a few different edits, each worth its lines; a flood (150 `unused
/// import` reports, each naming its import) is one kind of edit made many times.
pub const DISTINCT_AT: usize = 10;

/// Group findings by message; mark every report after a group's first as grouped.
pub fn cause(doc: &mut Doc) -> Causes {
    group(doc, FINDINGS_AT, TESTS_AT, DISTINCT_AT)
}

/// [`cause`], with findings grouped from `findings_at` reports on (from `distinct_at` when
/// each quotes values of its own) and tests from `tests_at` on.
pub(crate) fn group(
    doc: &mut Doc,
    findings_at: usize,
    tests_at: usize,
    distinct_at: usize,
) -> Causes {
    let mut causes = Causes::default();
    let mut by_key: HashMap<u64, u32> = HashMap::new();
    let mut blocks: Vec<(crate::block::Block, Vec<Finding>)> = Vec::new();
    // Each group's first message, as the view shows it.
    let mut shown: Vec<String> = Vec::new();
    let mut reports: HashMap<u64, usize> = HashMap::new();
    // Each key's reports by their exact message: the key masks names and numbers.
    let mut variants: HashMap<u64, HashMap<String, usize>> = HashMap::new();
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        let head = doc.lines[block.first as usize];
        if head.fate != Fate::Keep {
            continue;
        }
        let findings = if head.role == Role::Location {
            eslint_findings(doc, block.lines())
        } else if head.role.is_finding() {
            block_finding(doc, block.lines()).into_iter().collect()
        } else {
            continue;
        };
        for finding in &findings {
            *reports.entry(finding.key).or_insert(0) += 1;
            *variants
                .entry(finding.key)
                .or_default()
                .entry(finding.message.clone())
                .or_insert(0) += 1;
        }
        blocks.push((block, findings));
    }
    for (block, findings) in blocks {
        let head = doc.lines[block.first as usize];
        let mut all_grouped = !findings.is_empty();
        for finding in findings {
            let count = reports[&finding.key];
            let each_its_own = variants[&finding.key].len() == count && count < distinct_at;
            if count < findings_at || each_its_own || is_odd_one(&variants, &reports, &finding) {
                all_grouped = false;
                continue;
            }
            let next = causes.groups.len() as u32;
            let group = *by_key.entry(finding.key).or_insert(next);
            if group == next {
                shown.push(finding.message.clone());
                causes.groups.push(Group {
                    first_line: finding.first as u32 + 1,
                    label: finding.label,
                    message: finding.message,
                    tests: false,
                    first: (finding.file, finding.line_number),
                });
                all_grouped = false;
                continue;
            }
            let common = &mut causes.groups[group as usize].message;
            if *common != finding.message {
                *common = common_message(common, &finding.message);
            }
            for i in finding.first..finding.end {
                doc.lines[i].fate = Fate::Grouped;
            }
            causes.members.push(Member {
                line: finding.first as u32,
                group,
                file: finding.file,
                line_number: finding.line_number,
                quoted: quoted_that_differ(&shown[group as usize], &finding.message),
                invoked: finding.invoked,
            });
        }
        if head.role == Role::Location && all_grouped {
            // Every finding under this eslint file head went: the head goes with them,
            // and the members' locations name the file.
            doc.lines[block.first as usize].fate = Fate::Grouped;
        }
    }
    attach_notes(doc);
    group_tests(doc, &mut causes, tests_at);
    causes.members.sort_by_key(|m| m.line);
    causes
}

/// A report alone in saying what it says among many that say one thing (the one
/// `Argument 1 to "Tag" has incompatible type "*tuple[str, str, str]"` among 344
/// `Argument 3 to "Tag" has incompatible type "str"`): its own finding, not one more of
/// theirs, though the key that masks names and numbers makes them alike.
fn is_odd_one(
    variants: &HashMap<u64, HashMap<String, usize>>,
    reports: &HashMap<u64, usize>,
    finding: &Finding,
) -> bool {
    let Some(variants) = variants.get(&finding.key) else {
        return false;
    };
    let top = variants.values().copied().max().unwrap_or(0);
    variants.get(&finding.message) == Some(&1) && top > 1 && top * 10 >= reports[&finding.key] * 9
}

/// gcc writes the notes of a finding as findings of their own, each with its place (`a.h:3:9:
/// note: in definition of macro 'X'`) and its quoted source: they go with the finding
/// grouped before them, instead of standing under the marker as if another's. So does a
/// context line that introduces such a note (`In function ‘new_expr’,` / `inlined from
/// ...`, `In file included from b.c:28:` over `a.h:58:9: note: ‘type’ declared here`); one
/// that introduces the next finding (`b.c: In function ‘main’:`) is that finding's.
fn attach_notes(doc: &mut Doc) {
    let introduces = |doc: &Doc, b: usize| {
        shapes::is_gcc_context(&doc.clean(doc.block(b).first as usize), false)
    };
    let mut after_grouped = false;
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        let head = doc.lines[block.first as usize];
        if head.role == Role::Blank {
            continue;
        }
        // A note already folded as a repeat still belongs to the finding: the chain goes on.
        let note = if introduces(doc, b) {
            (b + 1..doc.block_count())
                .find(|&n| {
                    doc.lines[doc.block(n).first as usize].role != Role::Blank
                        && !introduces(doc, n)
                })
                .is_some_and(|n| doc.lines[doc.block(n).first as usize].role == Role::Note)
        } else {
            head.role == Role::Note
        };
        if after_grouped && note {
            for i in block.lines() {
                if doc.lines[i].fate == Fate::Keep {
                    doc.lines[i].fate = Fate::Grouped;
                }
            }
            continue;
        }
        after_grouped = head.fate == Fate::Grouped && head.role.is_finding();
    }
}

/// A failing test's two keys: its message with its values, and, when it says where it
/// failed, that place with the message's quoted values masked.
type TestKeys = (u64, Option<u64>);

/// Failing tests that failed the same way are one cause: 120 tests asserting one wrong
/// constant print 120 sections that differ in the test's name and the two numbers. The
/// first section of each message stays whole, under its own header; every later one goes
/// whole, and its marker names the test and where it failed. A section runs from its
/// head (marked by the runner's module) to the next head, header, tally or boundary, so
/// no kept line can end up under another test's header.
fn group_tests(doc: &mut Doc, causes: &mut Causes, at: usize) {
    let mut by_message: HashMap<u64, u32> = HashMap::new();
    // Each section, with its test's name and the message it failed with.
    let mut sections: Vec<(usize, usize, String, String, TestKeys)> = Vec::new();
    for (head, end) in test_sections(doc) {
        // A section the runner prints again (jest's summary) goes as said again, and is
        // not one more test that failed alike.
        if doc.lines[head].marks.has(Marks::RESTATED) {
            continue;
        }
        let Some(name) = shapes::test_name(doc, head) else {
            continue;
        };
        let Some((message, headline)) = test_message(doc, head + 1..end, &name) else {
            continue;
        };
        // A test's message is its values (`assert '13rd' == '13th'`): quoted text is
        // compared, and only measures are masked, unlike a finding's message. Tests that
        // failed at one assertion (a parametrized test's cases) are alike whatever their
        // values: the place, and the message with its quoted values masked.
        let mut hash = Hasher::new(Role::Error as u64 ^ 0x7e57);
        hash.line(message.trim(), None);
        let by_values = hash.finish();
        let places = || (head + 1..end).filter_map(|j| place_in(&shapes::payload(&doc.clean(j))));
        let at_place = |place: &String| {
            // The place's digits are what tells it apart: hashed as they are.
            use std::hash::{Hash, Hasher as _};
            let mut hash = std::collections::hash_map::DefaultHasher::new();
            (key(Role::Error, &headline), place).hash(&mut hash);
            hash.finish()
        };
        let by_place = places().next().as_ref().map(at_place);
        // A bare exception (`E       AssertionError`, `AssertionError` with nothing after
        // it) says how a test failed, not why: tests that failed so are alike only where
        // it was raised, the last place of the section (pytest's `test/common.py:10:
        // AssertionError` under every test that called one helper), at one place.
        let by_values = if states_a_value(&message) || message.contains(": ") {
            by_values
        } else {
            match places().next_back().as_ref().map(at_place) {
                Some(raised) => raised,
                None => continue,
            }
        };
        sections.push((head, end, name, message, (by_values, by_place)));
    }
    let mut alike: HashMap<u64, usize> = HashMap::new();
    for (_, _, _, _, (by_values, by_place)) in &sections {
        *alike.entry(*by_values).or_insert(0) += 1;
        if let Some(by_place) = by_place {
            *alike.entry(*by_place).or_insert(0) += 1;
        }
    }
    for (head, end, name, message, (by_values, by_place)) in sections {
        let key = match by_place {
            Some(by_place) if alike[&by_values] < at => by_place,
            _ => by_values,
        };
        if alike[&key] < at {
            continue;
        }
        let place = (head + 1..end)
            .find_map(|j| place_in(&shapes::payload(&doc.clean(j))))
            .unwrap_or_default();
        let next = causes.groups.len() as u32;
        let group = *by_message.entry(key).or_insert(next);
        if group == next {
            causes.groups.push(Group {
                first_line: head as u32 + 1,
                label: None,
                message,
                tests: true,
                first: (name, place),
            });
            continue;
        }
        let common = &mut causes.groups[group as usize].message;
        if *common != message {
            *common = common_message(common, &message);
        }
        for j in head..end {
            if doc.lines[j].fate == Fate::Keep {
                doc.lines[j].fate = Fate::Grouped;
            }
        }
        causes.members.push(Member {
            line: head as u32,
            group,
            file: name,
            line_number: place,
            quoted: String::new(),
            invoked: String::new(),
        });
    }
}

/// Error lines a test's message goes on to after a matcher's template, at most.
const MESSAGE_VALUES: usize = 16;

/// How a failing test failed, from the lines of its section after its head: the first
/// error that does not just name the test again (cargo's `thread 'name' panicked at`):
/// `assertion `left == right` failed`, `E  assert ...`. A line in an envelope (go test
/// -json) is read for what it carries. When that error states no value (jest's
/// `expect(received).toEqual(expected) // deep equality`, the matcher's template), the
/// values are on the error lines after it, up to the quoted source (`Expected: 1982`,
/// `Received: NaN`, or a diff's `-   "Sep",` / `+   "Sept",`), and they are the message
/// too: two tests that failed at the same matcher with other values failed differently.
/// Likewise when the error is a bare place (`toml_test.go:352:`) over its message; then
/// the message's first two lines are its headline (`Error: Values for key 'k' differ:`),
/// what tests failing at that place share when their values differ. Returns the message
/// and the headline (the message itself, but for a bare place).
fn test_message(doc: &Doc, lines: std::ops::Range<usize>, name: &str) -> Option<(String, String)> {
    let text = |j: usize| shapes::payload(&doc.clean(j)).trim().to_owned();
    let first = lines.clone().find(|&j| {
        let t = text(j);
        doc.lines[j].role == Role::Error && !t.contains(name) && !t.is_empty()
    })?;
    let mut message = text(first);
    // `toml_test.go:352:` and nothing after it: go's t.Errorf put the whole message on
    // the lines under its place, up to a blank line.
    if locate::prefix(&format!("{message} ")).is_some_and(|(_, _, rest)| rest.is_empty()) {
        let under = (first + 1..lines.end)
            .skip_while(|&j| doc.lines[j].role == Role::Blank)
            .take_while(|&j| doc.lines[j].role != Role::Blank)
            .take(MESSAGE_VALUES);
        let mut headline = message.clone();
        for (k, j) in under.enumerate() {
            message.push(' ');
            message.push_str(&text(j));
            if k < 2 {
                headline.push(' ');
                headline.push_str(&text(j));
            }
        }
        return Some((message, headline));
    }
    if states_a_value(&message) {
        return Some((message.clone(), message));
    }
    let values = (first + 1..lines.end)
        .take_while(|&j| matches!(doc.lines[j].role, Role::Error | Role::Blank))
        .filter(|&j| doc.lines[j].role == Role::Error)
        .take(MESSAGE_VALUES);
    for j in values {
        message.push(' ');
        message.push_str(&text(j));
    }
    Some((message.clone(), message))
}

/// Does an error line hold a value of its own: a digit or a quoted piece?
fn states_a_value(t: &str) -> bool {
    t.contains(|c: char| c.is_ascii_digit() || matches!(c, '\'' | '"' | '`'))
}

/// Each failing test's section, as `(head, end)`: from its head (marked by the runner's
/// module) to the next head, header, tally or boundary, so no line of it is another
/// test's or the run's.
pub fn test_sections(doc: &Doc) -> Vec<(usize, usize)> {
    let heads: Vec<usize> = (0..doc.lines.len())
        .filter(|&i| doc.lines[i].marks.has(Marks::TEST_SECTION))
        .collect();
    heads
        .iter()
        .enumerate()
        .map(|(k, &head)| {
            let limit = heads.get(k + 1).copied().unwrap_or(doc.lines.len());
            let end = (head + 1..limit)
                .find(|&j| {
                    let line = doc.lines[j];
                    matches!(line.role, Role::Header | Role::Summary)
                        && !doc.raw(j).starts_with(' ')
                        // Another failure (jest's `FAIL tests/b.test.js`) is never part of
                        // a section: grouping it away would hide a different fault. (A
                        // section's own closing result, go -json's `fail` event, is.)
                        || line.role == Role::Fail
                            && !line.marks.has(Marks::TEST_FAILED)
                            && !line.marks.has(Marks::RESTATED)
                        || line.marks.has(Marks::BOUNDARY)
                        || line.marks.has(Marks::TALLY)
                })
                .unwrap_or(limit);
            (head, end)
        })
        .collect()
}

/// The first `path:line` a line names, as a token (`panicked at src/a.rs:13:9:`,
/// `tests/test_a.py:18: AssertionError`), when the path is a real one: it holds a `/` or
/// a `.`, so `0:1` or `left:2` is not taken for a place.
fn place_in(t: &str) -> Option<String> {
    t.split_whitespace().find_map(|word| {
        let word = word
            .trim_end_matches([':', ',', ')'])
            .trim_start_matches('(');
        let (path, line) = locate::path_line(word)?;
        // A path is made of a path's characters: `parse("2012-10-26T09:33` in quoted
        // source is not `parse("2012-10-26T09` line 33.
        let pathlike = path
            .chars()
            .all(|c| c.is_alphanumeric() || "_./-+@\\".contains(c));
        (pathlike && (path.contains('/') || path.contains('.'))).then(|| format!("{path}:{line}"))
    })
}

/// ` --> src/a.rs:3:5`: the file and the place, with its column when the arrow names
/// one (rustc and ruff do), so a group's marker can say `a.py:12:5`.
fn arrow_place(t: &str) -> Option<(String, String)> {
    let (file, line) = locate::arrow(t)?;
    let after = t.trim_start().split_once(&format!("{file}:{line}"))?.1;
    let column: String = after
        .strip_prefix(':')
        .map(|c| c.chars().take_while(char::is_ascii_digit).collect())
        .unwrap_or_default();
    let place = if column.is_empty() {
        line.to_owned()
    } else {
        format!("{line}:{column}")
    };
    Some((file.to_owned(), place))
}

/// Would cause group this finding block (does it say where it is)?
pub fn is_locatable(doc: &Doc, block: crate::block::Block) -> bool {
    let head = doc.clean(block.first as usize);
    if head.starts_with("error: could not compile") || head.starts_with("E ") {
        return false;
    }
    locate::prefix(&head).is_some()
        || block
            .lines()
            .skip(1)
            .any(|i| locate::arrow(&doc.clean(i)).is_some())
}

/// A diagnostic block: the location is in the head (`a.c:3:5: error: x`) or on an arrow
/// line inside the block (`--> src/a.rs:3:5`).
fn block_finding(doc: &Doc, lines: std::ops::Range<usize>) -> Option<Finding> {
    let first = lines.start;
    let head = doc.clean(first);
    if head.starts_with("error: could not compile") || head.starts_with("E ") {
        return None;
    }
    // The message is the head after its location, when the location leads it.
    let (file, line_number, message_at) = match locate::prefix(&head) {
        Some((file, line, rest)) => {
            // `a.c:1118:32: error: x` names its column too, and the place keeps it.
            let at = &head[file.len() + 1..head.len() - rest.len()];
            let place = at.trim_end_matches([':', ' ', '-']);
            let after = &place[line.len().min(place.len())..];
            let place = if !place.starts_with(line) {
                line.to_owned()
            } else if after.starts_with(':') {
                place.to_owned()
            } else if let Some(column) = after.strip_prefix(',') {
                // tsc: `src/a.ts(429,43): error`.
                let column: String = column.chars().take_while(char::is_ascii_digit).collect();
                format!("{line}:{column}")
            } else {
                line.to_owned()
            };
            (file.to_owned(), place, head.len() - rest.len())
        }
        None => {
            let (file, line) = lines
                .clone()
                .skip(1)
                .find_map(|i| arrow_place(&doc.clean(i)))?;
            (file, line, 0)
        }
    };
    let message = wrapped_message(doc, lines.clone(), &head[message_at..]);
    let message = message.as_str();
    let label =
        label_of(message).or_else(|| lines.clone().skip(1).find_map(|i| lint_name(&doc.clean(i))));
    Some(Finding {
        first,
        end: lines.end,
        file,
        line_number,
        key: key(doc.lines[first].role, message),
        label,
        message: bare(message).to_owned(),
        invoked: invoked_at(doc, lines),
    })
}

/// The line number rustc quotes over its `in this macro invocation` label, in `lines`.
fn invoked_at(doc: &Doc, lines: std::ops::Range<usize>) -> String {
    let start = lines.start;
    lines
        .skip(1)
        .find(|&i| {
            doc.clean(i)
                .trim_end()
                .ends_with(" in this macro invocation")
        })
        .filter(|&i| i > start + 1)
        .map(|i| {
            let above = doc.clean(i - 1);
            above
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect()
        })
        .unwrap_or_default()
}

/// Lines a wrapped message continues on, at most.
const WRAPPED: usize = 3;

/// The whole message of a finding whose tool wrapped it: mypy's `--pretty` breaks a long
/// message at eighty columns and puts the rest at the start of the next lines, up to its
/// `[code]`, before the indented source. Two reports that differ only after the wrap
/// (`got "float"`, `got "str"`) are different causes. Lines are taken as the message's
/// only when they end it with that code: javac quotes its source unindented under the
/// message (`import a.b.C;`), and that is not more of the message.
fn wrapped_message(doc: &Doc, lines: std::ops::Range<usize>, first: &str) -> String {
    let first = first.trim_end();
    if first.ends_with(']') {
        return first.to_owned();
    }
    let mut message = first.to_owned();
    for i in lines.skip(1).take(WRAPPED) {
        let t = doc.clean(i);
        let continues = t.starts_with(|c: char| !c.is_whitespace()) && locate::prefix(&t).is_none();
        if !continues {
            break;
        }
        message.push(' ');
        message.push_str(t.trim_end());
        if message.ends_with(']') {
            return message;
        }
    }
    first.to_owned()
}

/// A message without the severity a marker's label already says: `error[E0308]:
/// mismatched types` is `mismatched types`.
fn bare(message: &str) -> &str {
    let message = message.trim();
    for severity in ["error", "warning", "fatal error"] {
        if let Some(rest) = message.strip_prefix(severity) {
            let rest = match rest.strip_prefix('[') {
                Some(code) => code.split_once(']').map_or(rest, |(_, after)| after),
                None => rest,
            };
            if let Some(text) = rest.strip_prefix(": ") {
                return text.trim();
            }
        }
    }
    message
}

/// eslint stylish: a bare path, then one finding per indented line.
fn eslint_findings(doc: &Doc, lines: std::ops::Range<usize>) -> Vec<Finding> {
    let path = doc.clean(lines.start).trim().to_owned();
    let mut findings = Vec::new();
    for i in lines.skip(1) {
        let line = doc.lines[i];
        if !line.role.is_finding() || line.fate != Fate::Keep {
            continue;
        }
        let t = doc.clean(i);
        let t = t.trim();
        let Some((pos, message)) = t.split_once(char::is_whitespace) else {
            continue;
        };
        // `230:5`: the column too, as a compiler's place has it; two findings on one line
        // are two places.
        let line_number = pos.to_owned();
        let label = t.rsplit(char::is_whitespace).next().map(str::to_owned);
        findings.push(Finding {
            first: i,
            end: i + 1,
            file: path.clone(),
            line_number,
            key: key(line.role, message.trim_start()),
            label,
            // eslint pads its columns: a quote of the message takes one space for each run.
            message: message.split_whitespace().collect::<Vec<_>>().join(" "),
            invoked: String::new(),
        });
    }
    findings
}

/// The code a message opens or closes with: `error[E0308]`, `F401`, `error TS2322`,
/// `[assignment]`, `[-Wunused-variable]`.
fn label_of(message: &str) -> Option<String> {
    let first = message.split(' ').next().unwrap_or("");
    if let Some(open) = first.find('[') {
        let inner = &first[open + 1..];
        return inner.find(']').map(|close| inner[..close].to_owned());
    }
    if crate::pipeline::classify::is_rule_code(first) {
        return Some(first.to_owned());
    }
    if let Some(second) = message.split(' ').nth(1)
        && second.starts_with("TS")
        && second.ends_with(':')
    {
        return Some(second.trim_end_matches(':').to_owned());
    }
    let last = message.trim_end().rsplit(' ').next().unwrap_or("");
    (last.starts_with('[') && last.ends_with(']') && last.len() > 2)
        .then(|| last[1..last.len() - 1].to_owned())
}

/// `#[warn(clippy::needless_return)]` or `#[warn(unused_variables)]` in a note.
fn lint_name(t: &str) -> Option<String> {
    let at = t.find("#[warn(").or_else(|| t.find("#[deny("))?;
    let rest = &t[at..];
    let open = rest.find('(')?;
    let close = rest.find(')')?;
    Some(rest[open + 1..close].to_owned())
}

/// A message's pieces: quoted spans (with their quotes) and the text between them.
fn quoted_pieces(message: &str) -> Vec<(&str, bool)> {
    let mut pieces = Vec::new();
    let mut text_from = 0;
    let mut at = 0;
    while let Some(c) = message[at..].chars().next() {
        let len = c.len_utf8();
        let close = match c {
            '`' | '\'' | '"' => Some(c),
            '‘' => Some('’'),
            '“' => Some('”'),
            _ => None,
        };
        if let Some(close) = close
            && let Some(inner) = message[at + len..].find(close)
        {
            if text_from < at {
                pieces.push((&message[text_from..at], false));
            }
            let end = at + len + inner + close.len_utf8();
            pieces.push((&message[at..end], true));
            at = end;
            text_from = end;
            continue;
        }
        at += len;
    }
    if text_from < message.len() {
        pieces.push((&message[text_from..], false));
    }
    pieces
}

/// What two messages of one group both say: `common` with each quoted name that differs
/// in `other` written `'…'`, and each differing number `#`, so a marker never quotes one
/// report's name for all of them (`Generic type 'KyRequest'` for a `'KyResponse'` too).
fn common_message(common: &str, other: &str) -> String {
    let (a, b) = (quoted_pieces(common), quoted_pieces(other));
    if a.len() != b.len() {
        return common.to_owned();
    }
    let mut out = String::with_capacity(common.len());
    for (&(x, quoted), &(y, _)) in a.iter().zip(&b) {
        if x == y {
            out.push_str(x);
        } else if quoted && digits_masked(x) != digits_masked(y) {
            let open = x.chars().next().unwrap_or('\'');
            let close = x.chars().next_back().unwrap_or(open);
            out.push(open);
            out.push('…');
            out.push(close);
        } else {
            out.push_str(&numbers_that_differ_masked(x, y));
        }
    }
    out
}

/// The quoted names of `other` that differ from those of `shown`, in order and once each
/// (`"cast"`); empty when the two quote the same names, or are not of one shape.
fn quoted_that_differ(shown: &str, other: &str) -> String {
    let (a, b) = (quoted_pieces(shown), quoted_pieces(other));
    if a.len() != b.len() {
        return String::new();
    }
    let mut names: Vec<&str> = Vec::new();
    for (&(x, quoted), &(y, _)) in a.iter().zip(&b) {
        if quoted && digits_masked(x) != digits_masked(y) && !names.contains(&y) {
            names.push(y);
        }
    }
    names.join(" ")
}

/// `x` with each number that `y` has otherwise written `#`, when the two differ only in
/// their numbers (`E501 Line too long (92 > 88)` and `E501 ... (95 > 88)` say `E501 Line
/// too long (# > 88)`; a `#` already in `x` stands for any number); else every number
/// of `x` masked.
fn numbers_that_differ_masked(x: &str, y: &str) -> String {
    // Runs of digits (or a `#` that masked some) and of the rest, in order.
    fn runs(text: &str) -> Vec<(&str, bool)> {
        let mut out: Vec<(&str, bool)> = Vec::new();
        let mut from = 0;
        let mut number = None;
        for (at, c) in text.char_indices() {
            let is_number = c.is_ascii_digit() || c == '#';
            if number.is_some_and(|n| n != is_number) {
                out.push((&text[from..at], number == Some(true)));
                from = at;
            }
            number = Some(is_number);
        }
        if from < text.len() {
            out.push((&text[from..], number == Some(true)));
        }
        out
    }
    let (a, b) = (runs(x), runs(y));
    let alike = a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(&(p, n), &(q, m))| n == m && (n || p == q));
    if !alike {
        return digits_masked(x);
    }
    a.iter()
        .zip(&b)
        .map(|(&(p, _), &(q, _))| if p == q { p } else { "#" })
        .collect()
}

/// `text` with each run of digits written `#`.
fn digits_masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('#');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// The message with quoted text masked, hashed with numbers masked.
fn key(role: Role, message: &str) -> u64 {
    let mut masked = String::with_capacity(message.len());
    for (piece, quoted) in quoted_pieces(message) {
        if quoted {
            masked.push('_');
            continue;
        }
        for c in piece.chars() {
            // eslint pads its columns per file: a run of spaces is one space.
            if !(c.is_whitespace() && masked.ends_with(' ')) {
                masked.push(if c.is_whitespace() { ' ' } else { c });
            }
        }
    }
    let mut hash = Hasher::new(role as u64);
    hash.line(masked.trim(), None);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    /// Grouped from two reports on, so each case needs only a few lines.
    fn run(text: &str) -> (Vec<Fate>, Causes) {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        let causes = group(&mut doc, 2, 2, 2);
        (doc.lines.iter().map(|l| l.fate).collect(), causes)
    }

    #[test]
    fn tests_that_failed_with_a_bare_exception_are_alike_only_at_one_place() {
        let run = |line: &dyn Fn(usize) -> usize| {
            let sections: String = (0..12)
                .map(|k| {
                    format!(
                        "____ test_t{k} ____\n\n    def test_t{k}():\n>       assert check({k})\n\
                         E       AssertionError\n\ntests/test_a.py:{}: AssertionError\n",
                        line(k)
                    )
                })
                .collect();
            let text = format!("==== FAILURES ====\n{sections}==== 12 failed in 0.1s ====\n");
            let mut doc = parse(&text);
            classify(&mut doc, Family::Diagnostics, Stream::Stdout);
            cause(&mut doc).members.len()
        };
        // Twelve tests, twelve places: twelve failures, whatever their one word.
        assert_eq!(run(&|k| 10 + 5 * k), 0);
        // Twelve cases of one parametrised test, failing at its one assertion.
        assert_eq!(run(&|_| 7), 11);
    }

    #[test]
    fn two_findings_alike_and_a_few_tests_alike_are_not_grouped() {
        let two = "a.py:1:8: F401 [*] `os` imported but unused\nb.py:2:8: F401 [*] `sys` imported but unused\n";
        let mut doc = parse(two);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        assert!(cause(&mut doc).groups.is_empty());
        let three = format!("{two}a.py:3:8: F401 [*] `os` imported but unused\n");
        let mut doc = parse(&three);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        assert_eq!(cause(&mut doc).members.len(), 2);
        // A few reports of one shape that each quote their own values are a few edits
        // (mypy's `got "list[str]", expected "str"`, `got "str | None", expected "bool"`);
        // a flood of them is one kind of edit.
        let distinct = |n: usize| -> String {
            (0..n)
                .map(|k| format!("m{k}.py:{k}:1: error: Incompatible return value type (got \"T{k}\", expected \"str\")  [return-value]\n"))
                .collect()
        };
        let few = distinct(DISTINCT_AT - 1);
        let mut doc = parse(&few);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        assert!(cause(&mut doc).groups.is_empty());
        let flood = distinct(DISTINCT_AT);
        let mut doc = parse(&flood);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        assert_eq!(cause(&mut doc).members.len(), DISTINCT_AT - 1);
        // Six tests failing one assertion with six values are six faults.
        let tests: String = (0..6)
            .map(|n| format!("---- t{n} stdout ----\nthread 't{n}' panicked at src/a.rs:{n}:1:\nassertion `left == right` failed\n  left: {n}\n right: 9\n\n"))
            .collect();
        let text = format!("failures:\n\n{tests}test result: FAILED. 0 passed; 6 failed\n");
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert!(cause(&mut doc).groups.is_empty());
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(
            group(&mut doc, FINDINGS_AT, 6, DISTINCT_AT).members.len(),
            5
        );
    }

    use Fate::*;

    #[test]
    fn later_reports_of_one_message_are_grouped_with_their_places() {
        let text = "error[E0308]: mismatched types\n --> src/a.rs:3:5\n  |
error[E0308]: mismatched types\n --> src/b.rs:9:1\n  |
error[E0425]: cannot find value `x`\n --> src/c.rs:1:1\n";
        let (fates, causes) = run(text);
        assert_eq!(
            fates,
            [Keep, Keep, Keep, Grouped, Grouped, Grouped, Keep, Keep]
        );
        assert_eq!(
            causes.groups[0],
            Group {
                first_line: 1,
                label: Some("E0308".into()),
                message: "mismatched types".into(),
                tests: false,
                first: ("src/a.rs".into(), "3:5".into()),
            }
        );
        assert_eq!(
            causes.members,
            [Member {
                line: 3,
                group: 0,
                file: "src/b.rs".into(),
                line_number: "9:1".into(),
                quoted: String::new(),
                invoked: String::new(),
            }]
        );
    }

    #[test]
    fn quoted_names_do_not_split_a_cause() {
        let text = "a.py:1:8: F401 [*] `os` imported but unused\nb.py:2:8: F401 [*] `sys` imported but unused\nb.py:3:1: E501 Line too long (99 > 88)\n";
        let (fates, causes) = run(text);
        assert_eq!(fates, [Keep, Grouped, Keep]);
        assert_eq!(causes.groups[0].label.as_deref(), Some("F401"));
        assert_eq!(causes.members[0].file, "b.py");
    }

    #[test]
    fn a_member_says_the_names_it_quotes_otherwise() {
        let text = "a.py:1: error: Name \"normalize\" is not defined  [name-defined]\n\
                    b.py:48: error: Name \"cast\" is not defined  [name-defined]\n\
                    b.py:90: error: Name \"normalize\" is not defined  [name-defined]\n";
        let (_, causes) = run(text);
        let quoted: Vec<&str> = causes.members.iter().map(|m| m.quoted.as_str()).collect();
        assert_eq!(quoted, ["\"cast\"", ""]);
    }

    #[test]
    fn a_group_quotes_only_what_all_its_reports_say() {
        assert_eq!(
            common_message(
                "error TS2314: Generic type 'KyRequest' requires 1 type argument(s).",
                "error TS2314: Generic type 'KyResponse' requires 1 type argument(s)."
            ),
            "error TS2314: Generic type '…' requires 1 type argument(s)."
        );
        assert_eq!(
            common_message("expected 3 items, got `a`", "expected 12 items, got `a`"),
            "expected # items, got `a`"
        );
        // A code's digits are the same in every report: only the number that varies goes.
        let once = common_message(
            "E501 Line too long (92 > 88)",
            "E501 Line too long (95 > 88)",
        );
        assert_eq!(once, "E501 Line too long (# > 88)");
        assert_eq!(
            common_message(&once, "E501 Line too long (101 > 88)"),
            "E501 Line too long (# > 88)"
        );
        let text = "src/a.ts(1,1): error TS2314: Generic type 'A' requires 1 type argument(s).\n\
                    src/b.ts(2,1): error TS2314: Generic type 'A' requires 1 type argument(s).\n\
                    src/c.ts(3,1): error TS2314: Generic type 'B' requires 1 type argument(s).\n";
        let (_, causes) = run(text);
        assert_eq!(
            causes.groups[0].message,
            "error TS2314: Generic type '…' requires 1 type argument(s)."
        );
    }

    #[test]
    fn tests_failing_with_different_quoted_values_are_not_one_cause() {
        let section = |name: &str, line: u32, message: &str| {
            format!(
                "____ {name} ____\n\n    def {name}():\n>       assert x\nE       {message}\n\ntests/t.py:{line}: AssertionError\n"
            )
        };
        let text = format!(
            "=== FAILURES ===\n{}{}{}=== 3 failed in 0.1s ===\n",
            section(
                "test_a",
                3,
                "AssertionError: assert '31.7 KiB' == '31.0 KiB'"
            ),
            section("test_b", 8, "AssertionError: assert '13rd' == '13th'"),
            section(
                "test_c",
                13,
                "AssertionError: assert '12.1 KiB' == '12.0 KiB'"
            ),
        );
        let (_, causes) = run(&text);
        let grouped: Vec<&str> = causes.members.iter().map(|m| m.file.as_str()).collect();
        assert_eq!(grouped, ["test_c"], "{causes:?}");
        assert_eq!(
            causes.groups[0].message,
            "E       AssertionError: assert '#.# KiB' == '#.0 KiB'"
        );
        // The cases of one parametrized test, failing at its one assertion, are alike
        // whatever their values.
        let text = format!(
            "=== FAILURES ===\n{}{}{}=== 3 failed in 0.1s ===\n",
            section(
                "test_p[case-cases]",
                21,
                "AssertionError: assert 'cases' == 'casees'"
            ),
            section(
                "test_p[stack-stacks]",
                21,
                "AssertionError: assert 'stacks' == 'stackes'"
            ),
            section(
                "test_p[movie-movies]",
                21,
                "AssertionError: assert 'movies' == 'moviees'"
            ),
        );
        let (_, causes) = run(&text);
        let grouped: Vec<&str> = causes.members.iter().map(|m| m.file.as_str()).collect();
        assert_eq!(
            grouped,
            ["test_p[stack-stacks]", "test_p[movie-movies]"],
            "{causes:?}"
        );
        assert_eq!(
            causes.groups[0].message,
            "E       AssertionError: assert '…' == '…'"
        );
    }

    #[test]
    fn an_arrow_names_its_column() {
        assert_eq!(
            arrow_place("   --> more_itertools/more.py:120:80"),
            Some(("more_itertools/more.py".into(), "120:80".into()))
        );
        assert_eq!(
            arrow_place("  --> src/a.rs:3"),
            Some(("src/a.rs".into(), "3".into()))
        );
    }

    #[test]
    fn a_wrapped_message_is_read_whole() {
        // mypy --pretty: the message wraps at eighty columns, before the indented source.
        let text = "src/a.py:33: error: Argument 1 to \"loads\" has incompatible type\n\
                    \"float\"; expected \"str\"  [arg-type]\n\
                    \x20       return loads(value)\n\
                    \x20                    ^~~~~\n\
                    src/b.py:54: error: Argument 1 to \"loads\" has incompatible type\n\
                    \"bytes\"; expected \"str\"  [arg-type]\n\
                    \x20       return loads(raw)\n\
                    \x20                    ^~~\n";
        let (_, causes) = run(text);
        assert_eq!(
            causes.groups[0].message,
            "Argument 1 to \"loads\" has incompatible type \"…\"; expected \"str\"  [arg-type]"
        );
    }

    #[test]
    fn source_quoted_under_a_message_is_not_more_of_it() {
        // javac quotes the line unindented, with its caret under it.
        let text = "src/A.java:19: error: package com.example.ann does not exist\n\
                    import com.example.ann.Keep;\n\
                    \x20                      ^\n\
                    src/B.java:20: error: package com.example.ann does not exist\n\
                    import com.example.ann.Drop;\n\
                    \x20                      ^\n\
                    src/C.java:21: error: package com.example.ann does not exist\n\
                    import com.example.ann.Keep;\n\
                    \x20                      ^\n";
        let (_, causes) = run(text);
        assert_eq!(
            causes.groups[0].message,
            "package com.example.ann does not exist"
        );
    }

    #[test]
    fn clippy_lint_names_label_their_group() {
        let text = "warning: unneeded `return` statement\n --> src/a.rs:3:5\n  = note: `#[warn(clippy::needless_return)]` on by default\n\nwarning: unneeded `return` statement\n --> src/a.rs:9:5\n";
        let (_, causes) = run(text);
        assert_eq!(
            causes.groups[0].label.as_deref(),
            Some("clippy::needless_return")
        );
    }

    #[test]
    fn eslint_file_whose_findings_all_went_goes_too() {
        let text = "/p/a.js\n  1:7  error  'x' is assigned a value but never used  no-unused-vars\n\n/p/b.js\n  4:2  error  'y' is assigned a value but never used     no-unused-vars\n";
        let (fates, causes) = run(text);
        assert_eq!(fates, [Keep, Keep, Keep, Grouped, Grouped]);
        assert_eq!(causes.members[0].file, "/p/b.js");
        assert_eq!(causes.members[0].line_number, "4:2");
        assert_eq!(causes.groups[0].label.as_deref(), Some("no-unused-vars"));
        // The group's message, quoted by its marker, without eslint's column padding.
        assert!(
            !causes.groups[0].message.contains("  "),
            "{:?}",
            causes.groups[0].message
        );
    }

    #[test]
    fn failing_tests_that_failed_alike_are_one_group_naming_every_test() {
        let mut text = String::from("failures:\n\n");
        for (name, line, left) in [("t::a", 3, 20), ("t::b", 8, 30), ("t::c", 13, 40)] {
            text.push_str(&format!(
                "---- {name} stdout ----\nthread '{name}' panicked at src/t.rs:{line}:9:\nassertion `left == right` failed\n  left: {left}\n right: 2\n\n"
            ));
        }
        text.push_str("---- t::d stdout ----\nthread 't::d' panicked at src/p.rs:4:20:\ncalled `Result::unwrap()` on an `Err` value: ParseIntError\n\nfailures:\n    t::a\n");
        let (fates, causes) = run(&text);
        // The first section whole, the next two grouped whole, the different one whole.
        assert!(fates[2..8].iter().all(|f| *f == Keep), "{fates:?}");
        assert!(fates[8..20].iter().all(|f| *f == Grouped), "{fates:?}");
        assert!(fates[20..23].iter().all(|f| *f == Keep), "{fates:?}");
        assert_eq!(fates[24], Keep, "the closing list is not part of a section");
        let group = &causes.groups[causes.members[0].group as usize];
        assert_eq!(group.message, "assertion `left == right` failed");
        assert!(group.tests);
        let named: Vec<(&str, &str)> = causes
            .members
            .iter()
            .map(|m| (m.file.as_str(), m.line_number.as_str()))
            .collect();
        assert_eq!(named, [("t::b", "src/t.rs:8"), ("t::c", "src/t.rs:13")]);
    }

    #[test]
    fn a_different_failure_after_a_group_is_never_grouped_into_it() {
        let section = |name: &str| {
            format!(
                "  ● vat › {name}\n\n    expect(received).toBe(expected)\n\n    Expected: 119\n\n      at Object.<anonymous> (tests/vat.test.js:5:3)\n\n"
            )
        };
        let text = format!(
            "FAIL tests/vat.test.js\n{}{}FAIL tests/parse.test.js\n  ● parses a line\n\n    TypeError: Cannot read properties of null\n\n      at parseLine (src/parse.js:2:50)\n",
            section("bread"),
            section("milk")
        );
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        group(&mut doc, 2, 2, 2);
        let hidden: Vec<&str> = (0..doc.lines.len())
            .filter(|&i| doc.lines[i].fate == Grouped)
            .map(|i| doc.raw(i))
            .collect();
        assert!(hidden.contains(&"  ● vat › milk"), "{hidden:?}");
        assert!(
            !hidden.iter().any(|l| l.contains("parse")),
            "the other file's failure went with the group: {hidden:?}"
        );
    }

    #[test]
    fn tests_failed_at_one_matcher_with_other_values_are_not_alike() {
        // jest's matcher template says nothing of the failure: its values do.
        let section = |name: &str, received: &str, line: u32| {
            format!(
                "  ● months › {name}\n\n    expect(received).toEqual(expected) // deep equality\n\n    - Expected  - 1\n    + Received  + 1\n\n    -   \"Sep\",\n    +   \"{received}\",\n\n      at Object.toEqual (test/m.test.js:{line}:5)\n\n"
            )
        };
        let text = format!(
            "FAIL test/m.test.js\n{}{}{}{}",
            section("short", "Sept", 3),
            section("long", "Sept", 9),
            section("format", "Sept", 15),
            section("standalone", "Sep.", 21)
        );
        let (_, causes) = run(&text);
        let names: Vec<&str> = causes.members.iter().map(|m| m.file.as_str()).collect();
        assert_eq!(names, ["months › long", "months › format"]);
        assert!(
            causes.groups[0].message.contains("\"Sept\""),
            "{:?}",
            causes.groups
        );
    }

    #[test]
    fn a_bare_place_reads_its_message_from_the_lines_under_it() {
        let section = |name: &str, expected: &str, got: &str| {
            format!(
                "    --- FAIL: TestToml/{name} (0.00s)\n        toml_test.go:352: \n            Error:\n            Values for key 'k' don't match:\n              Expected:     {expected}\n              Your encoder: {got}\n\n            Input:\n            k = 1\n"
            )
        };
        let text = format!(
            "--- FAIL: TestToml (0.06s)\n{}{}{}{}FAIL\n",
            section("a", "1000 (float64)", "1000 (int64)"),
            section("b", "2000 (float64)", "2000 (int64)"),
            section("c", "\\u0041", "/u0041"),
            section("d", "3000 (float64)", "3000 (int64)"),
        );
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let causes = group(&mut doc, 2, 2, 2);
        let names: Vec<&str> = causes.members.iter().map(|m| m.file.as_str()).collect();
        assert!(!names.contains(&"TestToml/c"), "{names:?} {causes:?}");
        assert!(names.contains(&"TestToml/d"), "{names:?} {causes:?}");
    }

    #[test]
    fn a_place_is_a_path_and_a_line_never_a_piece_of_quoted_source() {
        assert_eq!(
            place_in("tests/test_pickle.py:8: in test_pickle_datetime").as_deref(),
            Some("tests/test_pickle.py:8")
        );
        assert_eq!(
            place_in(">       dt = isodate.parse_datetime(\"2012-10-26T09:33+00:00\")"),
            None
        );
        assert_eq!(place_in("left:2"), None);
    }

    #[test]
    fn a_grouped_findings_notes_go_with_it() {
        let finding = |n: u32| {
            format!(
                "src/a.c:{n}:5: warning: conversion may change value [-Wconversion]\n   {n} | x = y;\n      |     ^\nsrc/a.h:3:9: note: in definition of macro 'SET'\n    3 | #define SET(a) a\n"
            )
        };
        let text = format!("{}{}{}", finding(10), finding(20), finding(30));
        let (fates, _) = run(&text);
        assert_eq!(&fates[..5], [Keep; 5], "{fates:?}");
        assert!(fates[5..].iter().all(|f| *f == Grouped), "{fates:?}");
    }

    #[test]
    fn the_odd_one_among_many_alike_is_its_own() {
        let mut text = String::new();
        for n in 1..=12 {
            text.push_str(&format!("tests/t.py:{n}: error: Argument 3 to \"Tag\" has incompatible type \"str\"; expected \"bytes\"  [arg-type]\n"));
        }
        text.push_str("tests/t.py:117: error: Argument 1 to \"Tag\" has incompatible type \"*tuple[str, str, str]\"; expected \"bytes\"  [arg-type]\n");
        let (fates, causes) = run(&text);
        assert_eq!(fates[12], Keep, "{fates:?}");
        assert!(fates[1..12].iter().all(|f| *f == Grouped), "{fates:?}");
        assert_eq!(causes.members.len(), 11);
    }

    #[test]
    fn findings_without_a_place_are_never_grouped() {
        let text = "error: linker failed\nerror: linker failed\nValueError: x\nValueError: y\n";
        let (fates, causes) = run(text);
        assert_eq!(fates, [Keep, Keep, Keep, Keep]);
        assert!(causes.members.is_empty());
    }
}
