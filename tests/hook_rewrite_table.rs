//! The rewrite table: real agent command lines and what `lens hook` does with each.
//!
//! `tests/rewrite/table.txt` holds one entry per command line: `> ` lines are the input
//! (several join with newlines, for heredocs and continuations), then either `-` (left
//! alone) or `= ` lines with the rewritten command. Lines starting with `//` are comments.
//! The expected side is reviewed by hand; `LENS_BLESS=1 cargo test --test
//! hook_rewrite_table` rewrites it from the current code, for review in the diff.
//!
//! Every entry is also checked in three derived forms whose answer follows from the
//! entry's own: after `cd sub && ` (the prefix stays, the rest rewrites as before), and
//! with ` | cat` or ` > out.txt` appended (a pipeline or a redirection: always left alone).

use lens::shell::rewrite;
use std::fmt::Write;

const TABLE: &str = "tests/rewrite/table.txt";

struct Entry {
    input: String,
    expected: Option<String>,
}

fn parse(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut input: Vec<&str> = Vec::new();
    let mut output: Vec<&str> = Vec::new();
    let mut close = |input: &mut Vec<&str>, output: &mut Vec<&str>, alone: bool| {
        assert!(
            !input.is_empty(),
            "an expectation without an input in {TABLE}"
        );
        entries.push(Entry {
            input: input.join("\n"),
            expected: (!alone).then(|| output.join("\n")),
        });
        input.clear();
        output.clear();
    };
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("//") || line.is_empty() {
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("> ")
            .or(line.strip_prefix(">").filter(|r| r.is_empty()))
        {
            input.push(rest);
        } else if *line == "-" {
            close(&mut input, &mut output, true);
        } else if let Some(rest) = line.strip_prefix("= ") {
            output.push(rest);
            let next_is_output = lines.get(i + 1).is_some_and(|n| n.starts_with("= "));
            if !next_is_output {
                close(&mut input, &mut output, false);
            }
        } else {
            panic!("{TABLE}:{}: unreadable line `{line}`", i + 1);
        }
    }
    assert!(input.is_empty(), "{TABLE} ends inside an entry");
    entries
}

fn render(entries: &[(String, Option<String>)]) -> String {
    let mut out = String::new();
    for (input, result) in entries {
        for line in input.split('\n') {
            writeln!(out, "> {line}").unwrap();
        }
        match result {
            None => out.push_str("-\n"),
            Some(rewritten) => {
                for line in rewritten.split('\n') {
                    writeln!(out, "= {line}").unwrap();
                }
            }
        }
    }
    out
}

#[test]
fn every_table_entry_rewrites_as_reviewed() {
    let text = std::fs::read_to_string(TABLE).expect("the table exists");
    let entries = parse(&text);
    assert!(
        entries.len() >= 300,
        "the table holds {} entries",
        entries.len()
    );
    if std::env::var_os("LENS_BLESS").is_some() {
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        let actual: Vec<_> = entries
            .iter()
            .map(|e| (e.input.clone(), rewrite(&e.input)))
            .collect();
        std::fs::write(TABLE, header + &render(&actual)).unwrap();
        return;
    }
    let mut failures = String::new();
    for entry in &entries {
        let actual = rewrite(&entry.input);
        if actual != entry.expected {
            writeln!(
                failures,
                "input:    {:?}\nexpected: {:?}\nactual:   {:?}\n",
                entry.input, entry.expected, actual
            )
            .unwrap();
        }
    }
    assert!(failures.is_empty(), "table mismatches:\n{failures}");
}

#[test]
fn a_cd_prefix_keeps_every_entry_s_answer() {
    let entries = parse(&std::fs::read_to_string(TABLE).unwrap());
    for entry in &entries {
        let input = format!("cd sub && {}", entry.input);
        // `cd` is kept and adds no helped command, so the answer is the entry's own.
        let expected = entry.expected.as_ref().map(|r| format!("cd sub && {r}"));
        assert_eq!(rewrite(&input), expected, "for `{input}`");
    }
}

#[test]
fn a_pipe_or_a_redirection_after_any_entry_leaves_it_alone() {
    let entries = parse(&std::fs::read_to_string(TABLE).unwrap());
    for entry in &entries {
        for suffix in [" | cat", " > out.txt", " 2>&1", " &"] {
            let input = format!("{}{suffix}", entry.input);
            assert_eq!(rewrite(&input), None, "for `{input}`");
        }
    }
}

#[test]
fn the_table_covers_the_hard_cases() {
    let text = std::fs::read_to_string(TABLE).unwrap();
    let inputs: Vec<String> = parse(&text).into_iter().map(|e| e.input).collect();
    let has = |needle: &str| inputs.iter().any(|i| i.contains(needle));
    for needle in [
        "'",
        "\"",
        "\\ ",
        "*",
        "ü",
        "🎉",
        "#",
        "\\\n",
        "$(",
        "`",
        "<<",
        "2>&1",
        "|&",
        "env FOO=1",
        "time ",
        "sudo ",
        "cd ",
        "&&",
        "||",
        ";",
        "\n",
    ] {
        assert!(has(needle), "no table entry contains {needle:?}");
    }
    assert!(inputs.iter().any(|i| i.len() > 4096), "no very long line");
    let rewritten = parse(&text).iter().filter(|e| e.expected.is_some()).count();
    assert!(rewritten >= 100, "only {rewritten} entries are rewritten");
}
