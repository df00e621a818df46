//! `lens show` against the built binary: replaying a run on both streams, the raw bytes at
//! level 3, the lines a marker names, grep, the list, `last`, incomplete entries, the log
//! record each use leaves, and the usage errors of show's own grammar.

mod util;

use util::{TestDir, assert_bytes_eq, status_code};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A stdout with CRLF lines, an invalid UTF-8 byte and no final newline, and a stderr of
/// the same kinds, as `printf` writes them; the run exits 3.
const AWKWARD: &str = "printf 'one\\r\\ntwo \\377 bytes\\nthree\\nfour'; \
                       printf 'e1\\ne2 \\376\\r\\ne3' >&2; exit 3";
const AWKWARD_OUT: &[u8] = b"one\r\ntwo \xff bytes\nthree\nfour";
const AWKWARD_ERR: &[u8] = b"e1\ne2 \xfe\r\ne3";

#[test]
fn show_replays_both_views_on_their_own_streams() {
    let dir = TestDir::new("show-replay");
    let run = dir.sh("seq 1 3000; echo warning: careful >&2; seq 1 2000 >&2; exit 1");
    assert_eq!(status_code(run.status), 1);
    assert!(run.stdout.len() < 200, "the long stdout is filtered");
    let handle = dir.last_handle();
    let shown = dir.run(["show", &handle]);
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    assert_bytes_eq(&shown.stdout, &run.stdout, "replayed stdout view");
    assert_bytes_eq(&shown.stderr, &run.stderr, "replayed stderr view");
    let last = dir.run(["show", "last"]);
    assert_bytes_eq(&last.stdout, &run.stdout, "`last` names the newest run");
}

#[test]
fn show_under_2_and_1_interleaves_the_views_as_the_run_did() {
    // One render path for a run and its replay: merged, they must not disagree either.
    let dir = TestDir::new("show-merged");
    let script = "echo start >&2; sleep 0.1; seq 1 3000; sleep 0.1; echo middle >&2; \
                  sleep 0.1; seq 5000 5100; sleep 0.1; echo end >&2; exit 1";
    let live = dir.merged(["sh", "-c", script]);
    let lines: Vec<&str> = live.lines().collect();
    assert_eq!(lines.first(), Some(&"start"), "{live}");
    assert_eq!(lines.last(), Some(&"end"), "{live}");
    let handle = dir.last_handle();
    assert_eq!(dir.merged(["show", &handle]), live);
    let raw = dir.merged(["show", &handle, "--level", "3"]);
    let at = |needle: &str| raw.find(needle).unwrap();
    assert!(
        at("start") < at("\n1\n") && at("3000\n") < at("middle"),
        "{raw}"
    );
    assert!(
        at("middle") < at("5000\n") && raw.ends_with("5100\nend\n"),
        "{raw}"
    );
}

#[test]
fn show_level_3_replays_both_streams_byte_for_byte() {
    let dir = TestDir::new("show-raw");
    let run = dir.sh(AWKWARD);
    assert_eq!(status_code(run.status), 3);
    let handle = dir.last_handle();
    let shown = dir.run(["show", &handle, "--level", "3"]);
    assert!(shown.status.success());
    assert_bytes_eq(&shown.stdout, AWKWARD_OUT, "raw stdout");
    assert_bytes_eq(&shown.stderr, AWKWARD_ERR, "raw stderr");
    let one = dir.run(["show", &handle, "--level", "3", "--stderr"]);
    assert_bytes_eq(
        &one.stdout,
        AWKWARD_ERR,
        "one stream selected goes to stdout",
    );
    assert!(one.stderr.is_empty(), "{}", text(&one.stderr));
}

#[test]
fn show_lines_prints_exactly_the_raw_lines_of_either_stream() {
    let dir = TestDir::new("show-lines");
    dir.sh(AWKWARD);
    let handle = dir.last_handle();
    let cases: [(&[&str], &[u8]); 6] = [
        (&["--stdout", "--lines", "1-2"], b"one\r\ntwo \xff bytes\n"),
        (&["--stdout", "--lines", "4"], b"four"),
        (&["--stdout", "--lines", "1,3-9"], b"one\r\nthree\nfour"),
        (&["--stdout", "--lines", "5-9"], b""),
        (&["--stderr", "--lines", "2-3"], b"e2 \xfe\r\ne3"),
        (&["--stderr", "--lines", "1-1", "--lines", "3-3"], b"e1\ne3"),
    ];
    for (options, expected) in cases {
        let output = dir.run(["show", &handle].iter().chain(options));
        assert!(output.status.success(), "{options:?}");
        assert_bytes_eq(&output.stdout, expected, &format!("{options:?}"));
    }
    let both = dir.run(["show", &handle, "--lines", "2-3"]);
    assert_bytes_eq(&both.stdout, b"two \xff bytes\nthree\n", "stdout's lines");
    assert_bytes_eq(&both.stderr, b"e2 \xfe\r\ne3", "stderr's lines");
}

#[test]
fn show_lines_returns_what_a_marker_names() {
    let dir = TestDir::new("show-marker");
    let run = dir.sh("seq 1 3000 >&2; exit 1");
    let view = text(&run.stderr);
    let marker =
        regex::Regex::new(r"(?m)^\[lens: (\d+) lines? elided, (\d+)-(\d+), [0-9a-f]{8}").unwrap();
    let found = marker.captures(&view).expect("the view has a marker");
    let (first, last): (usize, usize) = (found[2].parse().unwrap(), found[3].parse().unwrap());
    let handle = dir.last_handle();
    let range = format!("{first}-{last}");
    let output = dir.run(["show", &handle, "--stderr", "--lines", &range]);
    let expected: String = (first..=last).map(|n| format!("{n}\n")).collect();
    assert_bytes_eq(&output.stdout, expected.as_bytes(), "the elided lines");
    assert_eq!(found[1].parse::<usize>().unwrap(), last - first + 1);
}

#[test]
fn show_grep_numbers_raw_lines_and_counts_them() {
    let dir = TestDir::new("show-grep");
    dir.sh(AWKWARD);
    let handle = dir.last_handle();
    // `one$` matches the CRLF line: `$` is the end of the text, before `\r\n`.
    let output = dir.run(["show", &handle, "--stdout", "--grep", "^t|r$|one$"]);
    assert!(output.status.success());
    assert_bytes_eq(
        &output.stdout,
        b"1:one\r\n2:two \xff bytes\n3:three\n4:four\n",
        "matches",
    );
    assert_eq!(text(&output.stderr), "lens: 4 of 4 stdout lines match\n");
    let output = dir.run(["show", &handle, "--stderr", "--grep", "^e[23]$"]);
    assert_bytes_eq(&output.stdout, b"3:e3\n", "stderr matches");
    let output = dir.run(["show", &handle, "--stderr", "--grep", "e2 "]);
    assert_bytes_eq(&output.stdout, b"2:e2 \xfe\r\n", "a CRLF line as stored");
    let both = dir.run(["show", &handle, "--grep", "o|e1"]);
    assert_bytes_eq(
        &both.stdout,
        b"1:one\r\n2:two \xff bytes\n4:four\n",
        "stdout",
    );
    assert_eq!(
        text(&both.stderr),
        "1:e1\nlens: 3 of 4 stdout lines match\nlens: 1 of 3 stderr lines match\n"
    );
}

#[test]
fn show_list_names_recent_runs_complete_or_not() {
    let dir = TestDir::new("show-list");
    dir.sh("seq 1 3000; exit 4");
    let handle = dir.last_handle();
    // An entry with no meta.json: a run still being written, or whose writer died.
    let partial = dir.store().join("deadbeef");
    std::fs::create_dir_all(&partial).unwrap();
    std::fs::write(partial.join("stdout"), "half a li").unwrap();
    let output = dir.run(["show", "--list"]);
    assert!(output.status.success());
    let listing = text(&output.stdout);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 3, "{listing}");
    assert_eq!(lines[0], "handle      age  exit      raw    shown  command");
    assert_eq!(
        lines[1], "deadbeef     0s     ?       9B        ?  (incomplete)",
        "{listing}"
    );
    assert!(
        lines[2].starts_with(&format!("{handle}     0s     4    13.6K      "))
            && lines[2].ends_with("B  sh -c seq 1 3000; exit 4"),
        "{listing}"
    );
    let one = dir.run(["show", "--list", "1"]);
    assert_eq!(text(&one.stdout).lines().count(), 2);

    let raw = dir.run(["show", "deadbeef", "--level", "3"]);
    assert!(raw.status.success());
    assert_bytes_eq(&raw.stdout, b"half a li", "what the incomplete entry holds");
    assert!(text(&raw.stderr).contains("`deadbeef` is incomplete"));
    let lines = dir.run(["show", "last", "--lines", "1"]);
    assert_bytes_eq(
        &lines.stdout,
        b"half a li",
        "`last` includes incomplete runs",
    );
}

#[test]
fn each_show_is_logged_with_what_was_asked_and_printed() {
    let dir = TestDir::new("show-log");
    dir.sh(AWKWARD);
    let handle = dir.last_handle();
    dir.run(["show", &handle, "--stderr", "--lines", "2-3"]);
    dir.run(["show", &handle, "--level", "3"]);
    let log = dir.log();
    let shows: Vec<_> = log.iter().filter(|r| r["mode"] == "show").collect();
    assert_eq!(shows.len(), 2);
    assert_eq!(shows[0]["v"], 1);
    assert_eq!(shows[0]["handle"], handle.as_str());
    assert_eq!(shows[0]["asked"], "lines 2-3 stderr");
    assert_eq!(shows[0]["shown"]["stderr"], 8);
    assert_eq!(shows[0]["shown"]["stdout"], 0);
    assert_eq!(shows[1]["asked"], "level 3");
    assert_eq!(shows[1]["level"], 3);
    assert_eq!(shows[1]["shown"]["stdout"], AWKWARD_OUT.len());
    assert_eq!(shows[1]["shown"]["stderr"], AWKWARD_ERR.len());
}

#[test]
fn usage_errors_after_show_give_shows_usage_and_exit_2() {
    let dir = TestDir::new("show-usage");
    let usage = "(usage: lens show <handle>|last [--level N] [--stdout|--stderr] \
                 [--lines A-B]... [--grep RE], or lens show --list [N])";
    for (args, message) in [
        (
            vec!["show", "0123abcd", "--frob"],
            format!("unknown option `--frob` {usage}"),
        ),
        (
            vec!["show", "0123abcd", "--lines", "3-1"],
            "`--lines` takes line ranges such as `10-51` or `3,7-9` (1-based, first not after \
             last), not `3-1`"
                .into(),
        ),
        (
            vec!["show", "0123abcd", "--grep", "a["],
            "`--grep` takes a regular expression, not `a[`: error: unclosed character class".into(),
        ),
    ] {
        let output = dir.run(&args);
        assert_eq!(status_code(output.status), 2, "{args:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            text(&output.stderr),
            format!("lens: {message}\n"),
            "{args:?}"
        );
    }
    assert!(dir.log().is_empty(), "a usage error runs and logs nothing");
    let output = dir.run(["show", "last"]);
    assert_eq!(status_code(output.status), 1);
    assert!(text(&output.stderr).starts_with("lens: no stored runs in `"));
}

#[test]
fn show_replays_at_the_level_and_budget_the_run_used() {
    let dir = TestDir::new("show-level");
    let script = "seq 1 3000; echo error: broken; seq 1 500; exit 1";
    let run = dir.run(["--level", "0", "--budget", "5", "sh", "-c", script]);
    let handle = dir.last_handle();
    let meta: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.store().join(&handle).join("meta.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (meta["level"].as_u64(), meta["budget"].as_u64()),
        (Some(0), Some(5))
    );
    let shown = dir.run(["show", &handle]);
    assert_bytes_eq(&shown.stdout, &run.stdout, "replayed at level 0");
    let level2 = dir.run(["show", &handle, "--level", "2"]);
    assert_ne!(level2.stdout, run.stdout, "an asked-for level wins");
}
