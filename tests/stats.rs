//! `lens stats` against the built binary, on a log made by real runs, rotated the way the
//! writer rotates it, with exec records, corrupt, truncated and unknown-version lines
//! added: every count and total is asserted exactly.

mod util;

use serde_json::Value;
use std::io::Write;
use std::time::{SystemTime, UNIX_EPOCH};
use util::{TestDir, status_code};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn append(path: &std::path::Path, lines: &str) {
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(lines.as_bytes()).unwrap();
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// Bytes `seq 1 n` prints.
fn seq_bytes(n: u64) -> u64 {
    (1..=n).map(|i| i.to_string().len() as u64 + 1).sum()
}

struct Prepared {
    dir: TestDir,
    /// Bytes each captured run printed: (stdout, stderr) of its view.
    shown: Vec<(u64, u64)>,
}

fn prepared(name: &str) -> Prepared {
    let dir = TestDir::new(name);
    let mut shown = Vec::new();
    let mut capture = |dir: &TestDir, script: &str| {
        let output = dir.sh(script);
        shown.push((output.stdout.len() as u64, output.stderr.len() as u64));
    };
    capture(&dir, "seq 1 3000");
    let filtered = dir.last_handle();
    capture(&dir, "echo hi; echo oops >&2");
    // A show of a run that elided nothing is a use of show, not a recovery.
    let whole = dir.last_handle();
    assert!(dir.run(["show", &whole, "--level", "3"]).status.success());
    // What the writer does past its bound: the current file becomes lens.log.1.
    let log = dir.log_dir().join("lens.log");
    let rotated = dir.log_dir().join("lens.log.1");
    std::fs::rename(&log, &rotated).unwrap();
    append(
        &rotated,
        "{\"v\":1,\"ts_ms\":1000,\"mode\":\"exec\",\"argv\":[\"vim\"],\"cwd\":\"/\",\"note\":\"editor\"}\n\
         not json at all\n",
    );

    capture(&dir, "seq 1 20000");
    std::fs::write(dir.config(), "levle = 1\n").unwrap();
    capture(&dir, "seq 1 100");
    std::fs::remove_file(dir.config()).unwrap();
    let missing = dir.run(["lens-test-no-such-program"]);
    assert_eq!(status_code(missing.status), 127);
    for _ in 0..2 {
        assert!(
            dir.run(["show", &filtered, "--lines", "5-9"])
                .status
                .success()
        );
    }
    append(
        &log,
        &format!(
            "{{\"v\":1,\"ts_ms\":{},\"mode\":\"exec\",\"argv\":[\"top\"],\"cwd\":\"/\"}}\n\
             {{\"v\":7,\"ts_ms\":1,\"mode\":\"capture\",\"raw\":\"a new shape\"}}\n\
             {{\"v\":1,\"ts_ms\":5,\"mode\":\"capt",
            now_ms()
        ),
    );
    Prepared { dir, shown }
}

fn stats_json(dir: &TestDir, extra: &[&str]) -> Value {
    let output = dir.run(["stats", "--json"].iter().chain(extra));
    assert!(output.status.success(), "{}", text(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("stats --json is JSON")
}

#[test]
fn stats_counts_runs_and_bytes_across_rotated_and_damaged_logs() {
    let Prepared { dir, shown } = prepared("stats-json");
    let report = stats_json(&dir, &[]);
    assert_eq!(report["version"], 1);
    assert_eq!(report["log"]["files"].as_array().unwrap().len(), 2);
    // lens.log.1: 2 runs, 1 show, 1 exec, 1 corrupt. lens.log: 2 runs, 1 failure,
    // 2 shows, 1 exec, 1 unknown version, 1 truncated.
    assert_eq!(report["log"]["lines"], 13);
    assert_eq!(report["log"]["corrupt"], 2);
    assert_eq!(report["log"]["unknown_version"], 1);
    assert_eq!(report["runs"]["captured"], 4);
    assert_eq!(report["runs"]["exec"], 2);
    assert_eq!(report["runs"]["failed"], 1);

    let raw_out = [seq_bytes(3000), 3, seq_bytes(20000), seq_bytes(100)];
    assert_eq!(raw_out[2], 108_894);
    let bytes = &report["bytes"];
    assert_eq!(bytes["raw"]["stdout"], raw_out.iter().sum::<u64>());
    assert_eq!(
        bytes["raw"]["stderr"], 5,
        "only `echo oops` wrote to stderr"
    );
    assert_eq!(bytes["raw"]["total"], raw_out.iter().sum::<u64>() + 5);
    let shown_out: u64 = shown.iter().map(|s| s.0).sum();
    let shown_err: u64 = shown.iter().map(|s| s.1).sum();
    assert_eq!(bytes["shown"]["stdout"], shown_out);
    // The broken-config run's stderr also carries lens's own note, which is not a view.
    assert_eq!(shown[1].1, 5);
    assert_eq!(bytes["shown"]["stderr"], 5);
    assert!(shown_err > 5);

    // 108,894 raw bytes count as 30,000: what a harness would have passed on.
    let baseline = seq_bytes(3000) + 8 + 30_000 + seq_bytes(100);
    let shown_counted: u64 = shown[0].0 + 8 + shown[2].0.min(30_000) + seq_bytes(100);
    let saving = &report["saving"];
    assert_eq!(saving["cap_bytes"], 30_000);
    assert_eq!(saving["baseline"], baseline);
    assert_eq!(saving["shown"], shown_counted);
    assert_eq!(saving["saved"], baseline - shown_counted);
    let percent = ((baseline - shown_counted) as f64 * 1000.0 / baseline as f64).round() / 10.0;
    assert_eq!(saving["percent"].as_f64().unwrap(), percent);
    assert_eq!(report["tokens"]["bytes_per_token"], 4);
    assert_eq!(report["tokens"]["baseline"], baseline / 4);
    assert!(
        report["tokens"]["method"]
            .as_str()
            .unwrap()
            .contains("capped at 30000 bytes")
    );

    assert_eq!(report["fallbacks"]["runs"], 1);
    let reasons = report["fallbacks"]["reasons"].as_array().unwrap();
    assert_eq!(reasons.len(), 1);
    assert!(
        reasons[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("config: invalid config")
    );
    assert_eq!(reasons[0]["runs"], 1);

    let recoveries = &report["recoveries"];
    assert_eq!(recoveries["shows"], 3);
    assert_eq!(recoveries["runs_with_elisions"], 2);
    assert_eq!(recoveries["runs_revisited"], 1);
    assert_eq!(recoveries["rate_percent"].as_f64().unwrap(), 50.0);
    let by_level = recoveries["by_level"].as_array().unwrap();
    assert_eq!(by_level.len(), 1, "every run here is at the default level");
    assert_eq!(by_level[0]["level"], 2);
    assert_eq!(by_level[0]["runs_revisited"], 1);

    // Commands are keyed by the program each `sh -c` script ran, as the run resolved it.
    let top = report["top"].as_array().unwrap();
    let commands: Vec<&str> = top.iter().map(|t| t["command"].as_str().unwrap()).collect();
    assert_eq!(commands, ["seq", "echo oops"], "by bytes saved");
    assert_eq!(top[0]["runs"], 3);
    assert_eq!(top[1]["runs"], 1);
    let saved: i64 = top.iter().map(|t| t["saved"].as_i64().unwrap()).sum();
    assert_eq!(saved, (baseline - shown_counted) as i64);
}

#[test]
fn stats_since_keeps_only_recent_records() {
    let Prepared { dir, .. } = prepared("stats-since");
    let report = stats_json(&dir, &["--since", "1"]);
    assert_eq!(report["since_days"], 1);
    assert_eq!(
        report["runs"]["exec"], 1,
        "the 1970 exec record is left out"
    );
    assert_eq!(report["runs"]["captured"], 4);
}

#[test]
fn stats_prints_a_table_that_states_its_method() {
    let Prepared { dir, .. } = prepared("stats-human");
    let output = dir.run(["stats", "--top", "3"]);
    assert!(output.status.success());
    let table = text(&output.stdout);
    let expected_head = format!(
        "lens stats: 4 runs captured, 2 exec'd, 1 failed to start\n\
         log: {} (2 files, 13 lines; skipped 2 corrupt, 1 of an unknown version)\n",
        dir.log_dir().display()
    );
    assert!(table.starts_with(&expected_head), "{table}");
    for needle in [
        "up to 30,000 bytes",
        "tokens: bytes / 4",
        "raw fallbacks: 1 runs\n",
        "lens show: 3 uses; 1 of 2 runs with elisions gone back to (50.0%)\n  level 2: 1 of 2 (50.0%)\n",
    ] {
        assert!(table.contains(needle), "missing {needle:?} in\n{table}");
    }
}

#[test]
fn stats_of_no_log_is_zeros_and_double_dash_runs_a_program_named_stats() {
    let dir = TestDir::new("stats-empty");
    let report = stats_json(&dir, &[]);
    assert_eq!(report["runs"]["captured"], 0);
    assert_eq!(report["saving"]["percent"].as_f64().unwrap(), 0.0);
    let output = dir.run(["--", "stats"]);
    assert_eq!(status_code(output.status), 127);
    assert_eq!(text(&output.stderr), "lens: stats: command not found\n");
    let output = dir.run(["stats", "--since", "x"]);
    assert_eq!(status_code(output.status), 2);
}
