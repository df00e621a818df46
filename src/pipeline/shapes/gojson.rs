//! What `go test -json` prints: one JSON event per line, `{"Time":..,"Action":..,
//! "Package":..,"Test":..,"Elapsed":..,"Output":..}`, as test2json writes it.
//!
//! The envelope is this module's; what an `output` event carries is `go test -v`'s own
//! text, so its role is read by the `go` module's shapes on the decoded `Output`, plus the
//! `file.go:12: message` a failing test prints (classify reads that shape under a `=== RUN`
//! line; here every output line stands alone). The events themselves: `run`, `pause`,
//! `cont` and `start` are progress, `pass` and `skip` of a test are passing tests, `fail`
//! of a test is the one line per failing test ([`Marks::TEST_FAILED`]), and a package's
//! `pass`, `fail` or `skip` (no `Test`) is its tally ([`Marks::TALLY`]). The `--- FAIL: X`,
//! `FAIL\tpkg` and `ok  \tpkg` outputs say again what the event after them says, so they
//! are [`Marks::RESTATED`].
//!
//! The JSON is read by hand, not with serde_json: classify asks every line of every
//! stream, and nearly all of them are refused on their first two bytes. test2json writes
//! its fields in one fixed order with `Output` last, so a field is found by its key in the
//! part of the line before `Output`, and the output is the rest of the line up to the
//! closing `"}`. A line that does not have that shape is not an event, and stays with the
//! other shapes (Plain when none claims it).
//!
//! A failing test's section, for cause to group tests that failed alike, runs from its
//! `run` event to its `fail` event. cause reads sections by position, so a section is
//! marked only when every event between the two belongs to that test: parallel tests
//! interleave (`=== CONT`), and a parent test holds its subtests' events; those stay
//! whole, ungrouped.

use std::borrow::Cow;
use std::collections::HashMap;

use super::{Tool, go, sw};
use crate::block::{Doc, Marks, Role};
use crate::pipeline::locate;

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Line(test_name),
    payload,
    tally_count: super::no_tally,
    cut_detail: super::no_detail,
};

/// One event line, its string fields still JSON-escaped.
#[derive(Debug, PartialEq, Eq)]
struct Event<'a> {
    action: &'a str,
    package: Option<&'a str>,
    test: Option<&'a str>,
    /// The `Output` value, escaped, without its closing quote.
    output: Option<&'a str>,
}

/// Read `t` as a test2json event, or refuse it.
fn event(t: &str) -> Option<Event<'_>> {
    if !sw(t, "{\"") || !t.ends_with('}') {
        return None;
    }
    let (fields, output) = match t.find(",\"Output\":\"") {
        Some(at) => {
            let value = t[at + 11..].strip_suffix("\"}")?;
            (&t[..at], Some(value))
        }
        None => (t, None),
    };
    Some(Event {
        action: string_field(fields, "\"Action\":\"")?,
        package: string_field(fields, "\"Package\":\""),
        test: string_field(fields, "\"Test\":\""),
        output,
    })
}

/// The value of the string field whose key (with its opening quote) is `key`.
fn string_field<'a>(fields: &'a str, key: &str) -> Option<&'a str> {
    let at = fields.find(key)? + key.len();
    let rest = &fields[at..];
    // A test or package name holds no quote, but step over escapes all the same.
    let mut escaped = false;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'\\' if !escaped => escaped = true,
            b'"' if !escaped => return Some(&rest[..i]),
            _ => escaped = false,
        }
    }
    None
}

/// A JSON string's escaped contents, decoded; borrowed when it holds no escape. An escape
/// JSON does not define is kept as written.
fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) => out.push(decoded),
                    // A lone surrogate half (test2json writes invalid UTF-8 as U+FFFD,
                    // so this is rare): keep it as written.
                    None => {
                        out.push_str("\\u");
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    Cow::Owned(out)
}

/// What an output event prints, decoded, without the newline that ends it.
fn output_text(escaped: &str) -> Cow<'_, str> {
    let escaped = escaped.strip_suffix("\\n").unwrap_or(escaped);
    unescape(escaped)
}

/// The text a `go test -json` line carries: an output event's `Output`, decoded.
fn payload(t: &str) -> Option<Cow<'_, str>> {
    event(t)?.output.map(output_text)
}

/// The test an event is for: a section head's name.
fn test_name(t: &str) -> Option<&str> {
    event(t)?.test
}

fn role(t: &str) -> Option<Role> {
    let event = event(t)?;
    let tested = event.test.is_some();
    Some(match event.action {
        "run" | "pause" | "cont" | "start" => Role::Progress,
        "pass" | "skip" | "bench" if tested => Role::Pass,
        "fail" if tested => Role::Fail,
        "pass" | "fail" | "skip" => Role::Summary,
        "output" => match event.output {
            Some(output) => output_role(&output_text(output), tested),
            None => Role::Plain,
        },
        _ => Role::Plain,
    })
}

/// The role of what an output event prints, as `go test -v` would print it.
fn output_role(text: &str, tested: bool) -> Role {
    let trimmed = text.trim_start();
    if sw(trimmed, "=== NAME ") {
        // Go 1.20's name of the test a line after it is for: like `=== CONT`.
        return Role::Progress;
    }
    if let Some(role) = (go::TOOL.role)(trimmed) {
        return role;
    }
    let located = locate::prefix(trimmed).is_some_and(|(path, _, _)| path.ends_with(".go"));
    if tested && located {
        // `    money_test.go:7: Cents(2, 49) = 2049, want 249`: t.Errorf's message.
        return Role::Error;
    }
    Role::Plain
}

fn marks(t: &str, role: Role) -> Marks {
    let Some(event) = event(t) else {
        return Marks::NONE;
    };
    match (event.action, role) {
        ("fail", Role::Fail) => Marks::TEST_FAILED,
        ("pass" | "fail" | "skip", Role::Summary) => Marks::TALLY,
        // `--- FAIL: X (0.00s)`, `FAIL\tpkg\t0.01s`, `ok  \tpkg`, `FAIL`, `PASS`: the
        // event after each says it again.
        ("output", Role::Fail | Role::Summary) => Marks::RESTATED,
        _ => Marks::NONE,
    }
}

/// What takes the whole stream to tell: each failing test's section, and the progress
/// events of the tests that passed.
fn restated(doc: &mut Doc) {
    sections(doc);
    passed_progress(doc);
}

/// Mark the progress events of a test whose next result is `pass` or `skip` (its `run`,
/// `pause` and `cont` events, `=== RUN` and `--- PASS` outputs): that event says it ran, and
/// a marker's tally counts the test once, by its event. Read from
/// the end, so each event meets the result that follows it.
fn passed_progress(doc: &mut Doc) {
    let mut passed: HashMap<(String, String), bool> = HashMap::new();
    for i in (0..doc.lines.len()).rev() {
        let role = doc.lines[i].role;
        if !matches!(role, Role::Pass | Role::Fail | Role::Progress) {
            continue;
        }
        let t = doc.clean(i);
        let Some(e) = event(&t) else {
            continue;
        };
        let Some(test) = e.test else {
            continue;
        };
        let key = (e.package.unwrap_or("").to_owned(), test.to_owned());
        match role {
            Role::Pass if e.action != "output" => {
                passed.insert(key, true);
            }
            Role::Fail if e.action != "output" => {
                passed.insert(key, false);
            }
            // Its `--- PASS: X` output too: the event says it again.
            Role::Pass | Role::Progress if passed.get(&key) == Some(&true) => {
                doc.lines[i].marks.add(Marks::RESTATED);
            }
            _ => {}
        }
    }
}

/// Mark each failing test's section: its `run` event opens it, and the line after its
/// `fail` event closes it, when nothing of another test or package lies between.
fn sections(doc: &mut Doc) {
    let mut open: Option<(usize, String, String)> = None;
    for i in 0..doc.lines.len() {
        let t = doc.clean(i);
        let Some(event) = event(&t) else {
            open = None;
            continue;
        };
        let (package, test) = (event.package.unwrap_or(""), event.test.unwrap_or(""));
        if event.action == "run" && !test.is_empty() {
            open = Some((i, package.to_owned(), test.to_owned()));
            continue;
        }
        let Some((head, p, name)) = open.take() else {
            continue;
        };
        if p != package || name != test {
            continue;
        }
        if event.action != "fail" {
            open = Some((head, p, name));
            continue;
        }
        doc.lines[head].marks.add(Marks::TEST_SECTION);
        if let Some(next) = doc.lines.get_mut(i + 1) {
            next.marks.add(Marks::BOUNDARY);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::{Fate, Stream};
    use crate::pipeline::cause::group;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    const T: &str = r#"{"Time":"2026-12-01T15:00:03.9Z","#;

    fn line(action: &str, test: Option<&str>, output: Option<&str>) -> String {
        let mut l = format!(r#"{T}"Action":"{action}","Package":"example.com/m""#);
        if let Some(test) = test {
            l.push_str(&format!(r#","Test":"{test}""#));
        }
        match output {
            Some(output) => l.push_str(&format!(r#","Output":"{output}"}}"#)),
            None => l.push_str(r#","Elapsed":0}"#),
        }
        l
    }

    /// The five events of one failing test, as test2json writes them.
    fn failing(test: &str, message: &str) -> Vec<String> {
        vec![
            line("run", Some(test), None),
            line("output", Some(test), Some(&format!(r"=== RUN   {test}\n"))),
            line("output", Some(test), Some(&format!(r"    {message}\n"))),
            line(
                "output",
                Some(test),
                Some(&format!(r"--- FAIL: {test} (0.00s)\n")),
            ),
            line("fail", Some(test), None),
        ]
    }

    fn joined(lines: &[String]) -> String {
        format!("{}\n", lines.join("\n"))
    }

    fn classified(text: &str) -> Doc<'_> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        doc
    }

    #[test]
    fn events_are_read_by_their_fields() {
        let l = line("output", Some("TestA"), Some(r#"say \"hi\"\n"#));
        assert_eq!(
            event(&l),
            Some(Event {
                action: "output",
                package: Some("example.com/m"),
                test: Some("TestA"),
                output: Some(r#"say \"hi\"\n"#),
            })
        );
        assert_eq!(payload(&l).as_deref(), Some(r#"say "hi""#));
        assert_eq!(event(r#"{"Action":"run""#), None, "unclosed object");
        assert_eq!(event(r#"{"Time":"x"}"#), None, "no action");
        assert_eq!(event("=== RUN   TestA"), None);
    }

    #[test]
    fn escapes_are_decoded_and_unknown_ones_kept() {
        assert_eq!(unescape(r"FAIL\tpkg\t0.1s"), "FAIL\tpkg\t0.1s");
        assert_eq!(unescape(r"a\u003cb\u00e9"), "a<bé");
        assert_eq!(unescape(r"\ud800x"), r"\ud800x");
        assert!(matches!(unescape("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn every_event_has_its_role_and_marks() {
        let cases = [
            (
                line("run", Some("TestA"), None),
                Role::Progress,
                Marks::NONE,
            ),
            (
                line("pause", Some("TestA"), None),
                Role::Progress,
                Marks::NONE,
            ),
            (line("pass", Some("TestA"), None), Role::Pass, Marks::NONE),
            (line("skip", Some("TestA"), None), Role::Pass, Marks::NONE),
            (
                line("fail", Some("TestA"), None),
                Role::Fail,
                Marks::TEST_FAILED,
            ),
            (line("fail", None, None), Role::Summary, Marks::TALLY),
            (line("pass", None, None), Role::Summary, Marks::TALLY),
            (
                line("output", Some("TestA"), Some(r"=== RUN   TestA\n")),
                Role::Progress,
                Marks::NONE,
            ),
            (
                line(
                    "output",
                    Some("TestA"),
                    Some(r"    a_test.go:12: got 1 want 2\n"),
                ),
                Role::Error,
                Marks::NONE,
            ),
            (
                line("output", Some("TestA"), Some(r"--- FAIL: TestA (0.00s)\n")),
                Role::Fail,
                Marks::RESTATED,
            ),
            (
                line("output", Some("TestA"), Some(r"--- PASS: TestA (0.00s)\n")),
                Role::Pass,
                Marks::NONE,
            ),
            (
                line("output", None, Some(r"FAIL\texample.com/m\t0.01s\n")),
                Role::Summary,
                Marks::RESTATED,
            ),
            (
                line("output", None, Some(r"ok  \texample.com/m\t0.01s\n")),
                Role::Summary,
                Marks::RESTATED,
            ),
            (
                line("output", Some("TestA"), Some(r"panic: boom\n")),
                Role::Error,
                Marks::NONE,
            ),
            (
                line("output", Some("TestA"), Some(r"    just text\n")),
                Role::Plain,
                Marks::NONE,
            ),
            // t.Log("") prints an empty line: the event is still a whole line of text.
            (
                line("output", Some("TestA"), Some(r"\n")),
                Role::Plain,
                Marks::NONE,
            ),
        ];
        for (l, role, marks) in cases {
            let text = joined(std::slice::from_ref(&l));
            let doc = classified(&text);
            assert_eq!(
                (doc.lines[0].role, doc.lines[0].marks),
                (role, marks),
                "{l}"
            );
        }
    }

    #[test]
    fn a_passing_test_is_counted_once_though_two_lines_say_it_passed() {
        let mut lines = failing("TestA", "a_test.go:3: got 1 want 2");
        for test in ["TestB", "TestC"] {
            lines.push(line("run", Some(test), None));
            let status = format!(r"--- PASS: {test} (0.00s)\n");
            lines.push(line("output", Some(test), Some(&status)));
            lines.push(line("pass", Some(test), None));
        }
        lines.push(line("fail", None, None));
        let text = joined(&lines);
        let settings = crate::pipeline::Settings::default();
        let command = crate::command::CommandLine::from_words(&["go".into(), "test".into()]);
        let request = crate::pipeline::Request {
            stream: Stream::Stdout,
            level: crate::level::Level::Filtered,
            budget: crate::cli::DEFAULT_BUDGET,
            handle: "0123abcd",
            exit_code: 1,
            command: &command,
            settings: &settings,
        };
        let view = crate::pipeline::view(&text, &request);
        assert!(view.contains(": 2 passed]"), "{view}");
    }

    #[test]
    fn lines_not_in_the_envelope_are_left_to_other_shapes() {
        assert_eq!(role("{\"a\": 1}"), None);
        assert_eq!(role("--- FAIL: TestA (0.00s)"), None);
        assert_eq!(role(r#"{"Time":"x","Action":"output","Output":"x"#), None);
    }

    #[test]
    fn a_failing_test_is_a_section_from_run_to_fail() {
        let mut lines = failing("TestA", "a_test.go:3: got 1 want 2");
        lines.push(line("run", Some("TestB"), None));
        lines.push(line("pass", Some("TestB"), None));
        let text = joined(&lines);
        let doc = classified(&text);
        let marks: Vec<Marks> = doc.lines.iter().map(|l| l.marks).collect();
        assert_eq!(marks[0], Marks::TEST_SECTION);
        assert_eq!(marks[4], Marks::TEST_FAILED);
        assert_eq!(
            marks[5],
            Marks::BOUNDARY | Marks::RESTATED,
            "the next test's run closes it, and its pass says it ran"
        );
        assert_eq!(test_name(&lines[0]), Some("TestA"));
    }

    #[test]
    fn interleaved_tests_are_not_sections() {
        let lines = [
            line("run", Some("TestA"), None),
            line("run", Some("TestA/sub"), None),
            line("fail", Some("TestA/sub"), None),
            line("fail", Some("TestA"), None),
        ];
        let text = joined(&lines);
        let doc = classified(&text);
        let sections: Vec<bool> = doc
            .lines
            .iter()
            .map(|l| l.marks.has(Marks::TEST_SECTION))
            .collect();
        assert_eq!(sections, [false, true, false, false]);
        let parallel = [
            line("run", Some("TestA"), None),
            line("output", Some("TestB"), Some(r"=== CONT  TestB\n")),
            line("fail", Some("TestA"), None),
        ];
        let interleaved = joined(&parallel);
        let doc = classified(&interleaved);
        assert!(
            !doc.lines[0].marks.has(Marks::TEST_SECTION),
            "TestB's line is inside"
        );
    }

    #[test]
    fn tests_that_failed_alike_are_grouped_and_a_different_one_is_not() {
        let mut lines = Vec::new();
        for (test, n) in [("TestA", 3), ("TestB", 9), ("TestC", 15)] {
            lines.extend(failing(
                test,
                &format!("a_test.go:{n}: Cents({n}) = {n}00, want {n}0"),
            ));
        }
        lines.extend(failing(
            "TestD",
            r#"b_test.go:4: parsing \"1,2\": invalid syntax"#,
        ));
        let text = joined(&lines);
        let mut doc = classified(&text);
        let causes = group(&mut doc, 2, 2, 2);
        let fates: Vec<Fate> = doc.lines.iter().map(|l| l.fate).collect();
        assert!(fates[..5].iter().all(|f| *f == Fate::Keep), "{fates:?}");
        assert!(
            fates[5..15].iter().all(|f| *f == Fate::Grouped),
            "{fates:?}"
        );
        assert!(fates[15..].iter().all(|f| *f == Fate::Keep), "{fates:?}");
        let names: Vec<(&str, &str)> = causes
            .members
            .iter()
            .map(|m| (m.file.as_str(), m.line_number.as_str()))
            .collect();
        assert_eq!(names, [("TestB", "a_test.go:9"), ("TestC", "a_test.go:15")]);
        let group = &causes.groups[causes.members[0].group as usize];
        assert!(group.tests);
        // The message all three share: one test's values are not said of the others.
        assert_eq!(group.message, "a_test.go:#: Cents(#) = #, want #");
    }
}
