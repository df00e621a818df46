//! `lens stats`: what filtering saved, read back from the run log.
//!
//! Everything comes from [`log::read`]: `lens.log.1` then `lens.log`, a bad or unknown
//! line skipped and counted, so the report always says how much of the log it stands on.
//!
//! Savings are counted against what the reader would have been handed without lens, not
//! against what the command printed. Agent harnesses cut a command's output at about
//! 30,000 characters before the model sees it, so a run's raw output counts only up to
//! [`OUTPUT_CAP`], and so does its view; a 590 KB build log saved at most 30,000 bytes of
//! reading, never 590 KB. The cap is applied to both streams together, because harnesses
//! hand the model one merged output. The log holds bytes, not characters; a byte count is
//! never below the character count, so capping bytes at 30,000 can only understate the
//! baseline, never inflate it. Tokens are estimated as bytes divided by
//! [`BYTES_PER_TOKEN`], and the output says so: there is no tokenizer in lens.
//!
//! `lens show` records say how often a view was not enough: of the captured runs that had
//! something elided, how many were gone back to. A high rate says a level is too
//! aggressive for the commands it is used on.
//!
//! The `--json` shape is the report struct below, serialised; its `version` changes when
//! a field changes meaning or goes away, never when one is added.

use crate::cli::StatsArgs;
use crate::log::{self, Entry, Reading};
use crate::runner::emit;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

/// The most a harness hands a model of one command's output, in bytes (30,000 characters
/// in the harnesses that document it).
pub const OUTPUT_CAP: u64 = 30_000;
/// The token estimate's divisor: a common average for English text and source code under
/// the byte-pair tokenizers models use.
pub const BYTES_PER_TOKEN: u64 = 4;
/// The `--json` schema version.
pub const JSON_VERSION: u32 = 1;

/// Run `lens stats`; returns the exit status.
pub fn run(args: StatsArgs) -> i32 {
    let env = |key: &str| std::env::var(key).ok();
    let Some(dir) = log::dir(&env) else {
        eprintln!("lens: no log directory: set LENS_LOG_DIR or HOME");
        return 1;
    };
    // Runs whose lens died are in the store only until a run logs them: count them now.
    if let Some(store) = crate::store::root(&env).map(crate::store::Store::new) {
        let max_bytes = crate::config::load_or_default(&env).0.log.max_bytes;
        let write = |record: &log::Record| {
            let _ = log::append(&dir, record, max_bytes);
        };
        crate::runner::log_abandoned(&store, SystemTime::now(), &write);
    }
    let reading = log::read(&dir);
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis() as u64;
    let report = report(&reading, args.since_days, now_ms, args.top);
    let text = if args.json {
        let mut json = serde_json::to_string_pretty(&report).expect("a report serialises");
        json.push('\n');
        json
    } else {
        human(&report, &dir)
    };
    emit(&mut io::stdout().lock(), text.as_bytes());
    for problem in &reading.unreadable {
        eprintln!("lens: {problem}");
    }
    0
}

/// Everything `lens stats` reports; serialised as is for `--json`.
#[derive(Debug, Serialize, PartialEq)]
pub struct Report {
    pub version: u32,
    pub since_days: Option<u64>,
    pub log: LogHealth,
    pub runs: Runs,
    pub bytes: StreamBytes,
    pub saving: Saving,
    pub tokens: Tokens,
    pub top: Vec<Command>,
    pub fallbacks: Fallbacks,
    pub recoveries: Recoveries,
    pub hooks: Hooks,
}

/// What `lens hook` did: rewrites (whose `lens` runs are captured runs, counted above) and
/// outputs it replaced after the command ran, with their saving counted as a run's is.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Hooks {
    pub rewrites: u64,
    pub replaced: u64,
    /// The sum over replaced outputs of the output handed over, each capped.
    pub baseline: u64,
    /// The sum over replaced outputs of the view, each capped.
    pub shown: u64,
    pub saved: i64,
    pub percent: f64,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct LogHealth {
    pub files: Vec<String>,
    pub lines: usize,
    pub corrupt: usize,
    pub unknown_version: usize,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Runs {
    pub captured: u64,
    pub exec: u64,
    /// Commands that never started (not found, not executable) or whose wait was lost.
    pub failed: u64,
    /// Runs whose lens died before they ended (logged later, from the store): their
    /// outcome is unknown, so they count toward no saving.
    pub incomplete: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct StreamBytes {
    pub raw: Totals,
    pub shown: Totals,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Totals {
    pub stdout: u64,
    pub stderr: u64,
    pub total: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Saving {
    /// [`OUTPUT_CAP`]: how much of one run's output counts.
    pub cap_bytes: u64,
    /// The sum over runs of the raw output, each capped.
    pub baseline: u64,
    /// The sum over runs of the view, each capped.
    pub shown: u64,
    /// `baseline - shown`; negative only if views outgrew their output.
    pub saved: i64,
    /// `saved` as a share of `baseline`, one decimal.
    pub percent: f64,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct Tokens {
    pub bytes_per_token: u64,
    pub baseline: u64,
    pub shown: u64,
    pub saved: i64,
    pub method: String,
}

/// One command of the top list, keyed by program and subcommand (`cargo build`).
#[derive(Debug, Serialize, PartialEq)]
pub struct Command {
    pub command: String,
    pub runs: u64,
    /// Capped baseline and view, as in [`Saving`].
    pub baseline: u64,
    pub saved: i64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Fallbacks {
    /// Captured runs with at least one stream shown raw when a view was asked for.
    pub runs: u64,
    /// Each distinct reason and how many runs gave it, most frequent first.
    pub reasons: Vec<Reason>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct Reason {
    pub reason: String,
    pub runs: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Recoveries {
    /// `lens show` uses of one run.
    pub shows: u64,
    /// Captured runs whose view elided something.
    pub runs_with_elisions: u64,
    /// Of those, how many were shown again at least once.
    pub runs_revisited: u64,
    /// `runs_revisited` as a share of `runs_with_elisions`, one decimal.
    pub rate_percent: f64,
    /// The same three figures for each level runs were rendered at, lowest first.
    pub by_level: Vec<LevelRecoveries>,
}

#[derive(Debug, Default, Serialize, PartialEq)]
pub struct LevelRecoveries {
    pub level: u8,
    pub runs_with_elisions: u64,
    pub runs_revisited: u64,
    pub rate_percent: f64,
}

/// The report over the records of `reading` since `since_days` before `now_ms`.
pub fn report(reading: &Reading, since_days: Option<u64>, now_ms: u64, top: usize) -> Report {
    let cutoff = since_days.map(|days| now_ms.saturating_sub(days.saturating_mul(86_400_000)));
    let entries: Vec<&Entry> = reading
        .entries
        .iter()
        .filter(|entry| cutoff.is_none_or(|cutoff| entry.ts_ms >= cutoff))
        .collect();

    let mut runs = Runs::default();
    let mut bytes = StreamBytes::default();
    let mut saving = Saving {
        cap_bytes: OUTPUT_CAP,
        ..Saving::default()
    };
    let mut commands: BTreeMap<String, Command> = BTreeMap::new();
    let mut fallbacks = Fallbacks::default();
    let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
    let mut elided = BTreeMap::new();
    let mut shown_again = BTreeSet::new();
    let mut recoveries = Recoveries::default();
    let mut hooks = Hooks::default();
    for entry in &entries {
        match entry.mode.as_str() {
            "rewrite" => hooks.rewrites += 1,
            "hook" => {
                let (Some(raw), Some(shown)) = (entry.raw, entry.shown) else {
                    continue;
                };
                hooks.replaced += 1;
                hooks.baseline += (raw.stdout + raw.stderr).min(OUTPUT_CAP);
                hooks.shown += (shown.stdout + shown.stderr).min(OUTPUT_CAP);
            }
            "exec" => runs.exec += 1,
            "error" => runs.failed += 1,
            "incomplete" => runs.incomplete += 1,
            "show" => {
                if let Some(handle) = &entry.handle {
                    recoveries.shows += 1;
                    shown_again.insert(handle.as_str());
                }
            }
            "capture" => {
                runs.captured += 1;
                let distinct: BTreeSet<&str> =
                    entry.raw_reason.values().map(String::as_str).collect();
                if !distinct.is_empty() {
                    fallbacks.runs += 1;
                }
                for reason in distinct {
                    *reasons.entry(reason).or_default() += 1;
                }
                let (Some(raw), Some(shown)) = (entry.raw, entry.shown) else {
                    continue;
                };
                add(&mut bytes.raw, raw);
                add(&mut bytes.shown, shown);
                let raw_total = raw.stdout + raw.stderr;
                let shown_total = shown.stdout + shown.stderr;
                if shown_total < raw_total
                    && let Some(handle) = &entry.handle
                {
                    elided.insert(handle.as_str(), entry.level.unwrap_or_default());
                }
                let baseline = raw_total.min(OUTPUT_CAP);
                let saved = baseline as i64 - shown_total.min(OUTPUT_CAP) as i64;
                saving.baseline += baseline;
                saving.shown += shown_total.min(OUTPUT_CAP);
                let key = command_key(&entry.argv);
                let command = commands.entry(key.clone()).or_insert(Command {
                    command: key,
                    runs: 0,
                    baseline: 0,
                    saved: 0,
                });
                command.runs += 1;
                command.baseline += baseline;
                command.saved += saved;
            }
            _ => {}
        }
    }
    hooks.saved = hooks.baseline as i64 - hooks.shown as i64;
    hooks.percent = percent(hooks.saved, hooks.baseline);
    saving.saved = saving.baseline as i64 - saving.shown as i64;
    saving.percent = percent(saving.saved, saving.baseline);
    let mut by_level: BTreeMap<u8, LevelRecoveries> = BTreeMap::new();
    for (handle, &level) in &elided {
        let row = by_level.entry(level).or_insert(LevelRecoveries {
            level,
            ..LevelRecoveries::default()
        });
        row.runs_with_elisions += 1;
        row.runs_revisited += u64::from(shown_again.contains(handle));
    }
    for row in by_level.values_mut() {
        row.rate_percent = percent(row.runs_revisited as i64, row.runs_with_elisions);
    }
    recoveries.runs_with_elisions = elided.len() as u64;
    recoveries.runs_revisited = by_level.values().map(|row| row.runs_revisited).sum();
    recoveries.rate_percent = percent(
        recoveries.runs_revisited as i64,
        recoveries.runs_with_elisions,
    );
    recoveries.by_level = by_level.into_values().collect();

    let mut top_list: Vec<Command> = commands.into_values().collect();
    top_list.sort_by(|a, b| {
        b.saved
            .cmp(&a.saved)
            .then_with(|| a.command.cmp(&b.command))
    });
    top_list.truncate(top);
    fallbacks.reasons = reasons
        .into_iter()
        .map(|(reason, runs)| Reason {
            reason: reason.to_owned(),
            runs,
        })
        .collect();
    fallbacks
        .reasons
        .sort_by(|a, b| b.runs.cmp(&a.runs).then_with(|| a.reason.cmp(&b.reason)));

    let tokens = Tokens {
        bytes_per_token: BYTES_PER_TOKEN,
        baseline: saving.baseline / BYTES_PER_TOKEN,
        shown: saving.shown / BYTES_PER_TOKEN,
        saved: saving.saved / BYTES_PER_TOKEN as i64,
        method: format!(
            "bytes / {BYTES_PER_TOKEN}, against each captured run's raw output (both streams) \
             capped at {OUTPUT_CAP} bytes, the output an agent harness would have passed on"
        ),
    };
    Report {
        version: JSON_VERSION,
        since_days,
        log: LogHealth {
            files: reading
                .files
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            lines: reading.lines,
            corrupt: reading.corrupt,
            unknown_version: reading.unknown_version,
        },
        runs,
        bytes,
        saving,
        tokens,
        top: top_list,
        fallbacks,
        recoveries,
        hooks,
    }
}

fn add(totals: &mut Totals, bytes: log::Bytes) {
    totals.stdout += bytes.stdout;
    totals.stderr += bytes.stderr;
    totals.total += bytes.stdout + bytes.stderr;
}

fn percent(part: i64, whole: u64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    (part as f64 * 1000.0 / whole as f64).round() / 10.0
}

/// The program the run was for, resolved through wrappers as the run resolved it
/// (`bash -c 'cd x && cargo test'` is cargo), and its subcommand when it reads as one
/// (`cargo build`, `git log`): a word, not a flag, path or file name.
fn command_key(argv: &[String]) -> String {
    if argv.is_empty() {
        return "(none)".into();
    }
    let command = crate::command::CommandLine::from_words(argv);
    let word = command
        .subcommand
        .as_deref()
        .or(command.args.first().map(String::as_str));
    match word {
        Some(sub)
            if sub.starts_with(|c: char| c.is_ascii_lowercase())
                && sub
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ':') =>
        {
            format!("{} {sub}", command.program)
        }
        _ => command.program,
    }
}

/// The compact table `lens stats` prints.
fn human(report: &Report, dir: &std::path::Path) -> String {
    let mut out = String::new();
    let runs = &report.runs;
    let log = &report.log;
    let window = match report.since_days {
        Some(days) => format!(" in the last {days} days"),
        None => String::new(),
    };
    let incomplete = match runs.incomplete {
        0 => String::new(),
        n => format!(", {n} ended with lens killed (outcome unknown)"),
    };
    out.push_str(&format!(
        "lens stats{window}: {} runs captured, {} exec'd, {} failed to start{incomplete}\n",
        runs.captured, runs.exec, runs.failed
    ));
    out.push_str(&format!(
        "log: {} ({} files, {} lines; skipped {} corrupt, {} of an unknown version)\n\n",
        dir.display(),
        log.files.len(),
        log.lines,
        log.corrupt,
        log.unknown_version
    ));
    let (raw, shown) = (&report.bytes.raw, &report.bytes.shown);
    out.push_str(&format!("{:<8}{:>14}{:>14}\n", "bytes", "raw", "shown"));
    for (name, r, s) in [
        ("stdout", raw.stdout, shown.stdout),
        ("stderr", raw.stderr, shown.stderr),
        ("total", raw.total, shown.total),
    ] {
        out.push_str(&format!("{name:<8}{:>14}{:>14}\n", grouped(r), grouped(s)));
    }
    let saving = &report.saving;
    let tokens = &report.tokens;
    out.push_str(&format!(
        "\nsaved   {} of {} bytes counted ({:.1}%), about {} of {} tokens\n",
        grouped_signed(saving.saved),
        grouped(saving.baseline),
        saving.percent,
        grouped_signed(tokens.saved),
        grouped(tokens.baseline)
    ));
    out.push_str(&format!(
        "        counted: each run's raw output up to {} bytes, what an agent harness \
         passes on;\n        tokens: bytes / {}\n",
        grouped(saving.cap_bytes),
        tokens.bytes_per_token
    ));
    if !report.top.is_empty() {
        out.push_str("\ntop commands by bytes saved\n");
        let width = report
            .top
            .iter()
            .map(|c| c.command.len())
            .max()
            .unwrap_or(0);
        for command in &report.top {
            out.push_str(&format!(
                "  {:<width$}  {:>5} runs  {:>12} saved\n",
                command.command,
                command.runs,
                grouped_signed(command.saved)
            ));
        }
    }
    out.push_str(&format!(
        "\nraw fallbacks: {} runs\n",
        report.fallbacks.runs
    ));
    for reason in &report.fallbacks.reasons {
        out.push_str(&format!("  {:>5}  {}\n", reason.runs, reason.reason));
    }
    let recoveries = &report.recoveries;
    out.push_str(&format!(
        "\nlens show: {} uses; {} of {} runs with elisions gone back to ({:.1}%)\n",
        recoveries.shows,
        recoveries.runs_revisited,
        recoveries.runs_with_elisions,
        recoveries.rate_percent
    ));
    for row in &recoveries.by_level {
        out.push_str(&format!(
            "  level {}: {} of {} ({:.1}%)\n",
            row.level, row.runs_revisited, row.runs_with_elisions, row.rate_percent
        ));
    }
    let hooks = &report.hooks;
    out.push_str(&format!(
        "\nlens hook: {} commands rewritten (their runs are counted above); {} outputs \
         replaced,\n        saving {} of {} bytes counted ({:.1}%)\n",
        hooks.rewrites,
        hooks.replaced,
        grouped_signed(hooks.saved),
        grouped(hooks.baseline),
        hooks.percent
    ));
    out
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn grouped_signed(n: i64) -> String {
    match n {
        0.. => grouped(n as u64),
        _ => format!("-{}", grouped(n.unsigned_abs())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::Bytes;

    fn capture(argv: &str, handle: &str, raw: (u64, u64), shown: (u64, u64)) -> Entry {
        Entry {
            v: 1,
            ts_ms: 1_000,
            mode: "capture".into(),
            argv: argv.split(' ').map(String::from).collect(),
            handle: Some(handle.into()),
            raw: Some(Bytes {
                stdout: raw.0,
                stderr: raw.1,
            }),
            shown: Some(Bytes {
                stdout: shown.0,
                stderr: shown.1,
            }),
            ..Entry::default()
        }
    }

    fn reading(entries: Vec<Entry>) -> Reading {
        Reading {
            entries,
            ..Reading::default()
        }
    }

    #[test]
    fn a_stream_past_the_cap_counts_only_up_to_the_cap() {
        let log = reading(vec![
            capture("cargo build", "00000001", (1_000, 590_000), (0, 1_000)),
            capture("ls", "00000002", (500, 0), (500, 0)),
        ]);
        let report = report(&log, None, 0, 5);
        assert_eq!(report.bytes.raw.total, 591_500);
        assert_eq!(report.bytes.shown.stderr, 1_000);
        assert_eq!(report.saving.baseline, 30_500);
        assert_eq!(report.saving.shown, 1_500);
        assert_eq!(report.saving.saved, 29_000);
        assert_eq!(report.saving.percent, 95.1);
        assert_eq!(report.tokens.saved, 7_250);
        assert_eq!(report.tokens.baseline, 7_625);
        assert_eq!(report.top[0].command, "cargo build");
        assert_eq!(report.top[0].saved, 29_000);
        assert_eq!(report.top[1].saved, 0);
    }

    #[test]
    fn a_view_over_the_cap_is_counted_at_the_cap_too() {
        let log = reading(vec![capture("x", "00000001", (90_000, 0), (40_000, 0))]);
        let report = report(&log, None, 0, 5);
        assert_eq!((report.saving.baseline, report.saving.saved), (30_000, 0));
    }

    #[test]
    fn modes_fallbacks_and_recoveries_are_counted() {
        let mut broken = capture("sh -c x", "00000003", (10, 10), (10, 10));
        broken.raw_reason = BTreeMap::from([
            ("stdout".into(), "config: bad".into()),
            ("stderr".into(), "config: bad".into()),
        ]);
        let mut binary = capture("cat x", "00000004", (10, 0), (10, 0));
        binary.raw_reason = BTreeMap::from([("stdout".into(), "binary: not valid UTF-8".into())]);
        let show = |handle: &str| Entry {
            v: 1,
            mode: "show".into(),
            handle: Some(handle.into()),
            ..Entry::default()
        };
        let other = |mode: &str| Entry {
            v: 1,
            mode: mode.into(),
            argv: vec!["vim".into()],
            ..Entry::default()
        };
        let mut at_level_1 = capture("cargo build", "00000001", (100, 9_000), (0, 300));
        at_level_1.level = Some(1);
        let mut at_level_2 = capture("git log -n 3", "00000002", (5_000, 0), (2_000, 0));
        at_level_2.level = Some(2);
        let log = reading(vec![
            at_level_1,
            at_level_2,
            broken,
            binary,
            other("exec"),
            other("error"),
            show("00000001"),
            show("00000001"),
            show("00000003"),
            show("0000ffff"),
            Entry {
                v: 1,
                mode: "show".into(),
                ..Entry::default()
            },
        ]);
        let report = report(&log, None, 0, 1);
        assert_eq!(
            report.runs,
            Runs {
                captured: 4,
                exec: 1,
                failed: 1,
                incomplete: 0,
            }
        );
        assert_eq!(report.fallbacks.runs, 2);
        assert_eq!(
            report.fallbacks.reasons,
            [
                Reason {
                    reason: "binary: not valid UTF-8".into(),
                    runs: 1
                },
                Reason {
                    reason: "config: bad".into(),
                    runs: 1
                }
            ]
        );
        assert_eq!(
            report.recoveries,
            Recoveries {
                shows: 4,
                runs_with_elisions: 2,
                runs_revisited: 1,
                rate_percent: 50.0,
                by_level: vec![
                    LevelRecoveries {
                        level: 1,
                        runs_with_elisions: 1,
                        runs_revisited: 1,
                        rate_percent: 100.0
                    },
                    LevelRecoveries {
                        level: 2,
                        runs_with_elisions: 1,
                        runs_revisited: 0,
                        rate_percent: 0.0
                    }
                ]
            }
        );
        assert_eq!(report.top.len(), 1);
        assert_eq!(report.top[0].command, "cargo build");
    }

    #[test]
    fn hook_records_are_counted_apart_from_captured_runs() {
        let mut replaced = capture("sh -c x | y", "00000005", (100_000, 0), (2_000, 0));
        replaced.mode = "hook".into();
        let mut small = capture("make", "00000006", (500, 500), (100, 0));
        small.mode = "hook".into();
        let rewrite = Entry {
            v: 1,
            mode: "rewrite".into(),
            argv: vec!["sh".into(), "-c".into(), "lens make".into()],
            ..Entry::default()
        };
        let log = reading(vec![
            replaced,
            small,
            rewrite.clone(),
            rewrite,
            capture("make", "00000007", (10, 0), (10, 0)),
        ]);
        let report = report(&log, None, 0, 5);
        assert_eq!(
            report.hooks,
            Hooks {
                rewrites: 2,
                replaced: 2,
                baseline: 31_000,
                shown: 2_100,
                saved: 28_900,
                percent: 93.2
            }
        );
        assert_eq!(
            report.runs.captured, 1,
            "hook records are not captured runs"
        );
        assert_eq!(report.saving.baseline, 10);
        let text = human(&report, std::path::Path::new("/l"));
        assert!(
            text.contains(
                "lens hook: 2 commands rewritten (their runs are counted above); 2 outputs \
                 replaced,\n        saving 28,900 of 31,000 bytes counted (93.2%)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn since_keeps_only_recent_records() {
        let mut old = capture("old", "00000001", (100, 0), (0, 0));
        old.ts_ms = 0;
        let mut new = capture("new", "00000002", (50, 0), (0, 0));
        new.ts_ms = 3 * 86_400_000;
        let log = reading(vec![old, new]);
        let report = report(&log, Some(1), 3 * 86_400_000 + 5, 5);
        assert_eq!(report.runs.captured, 1);
        assert_eq!(report.saving.baseline, 50);
        assert_eq!(super::report(&log, None, 0, 5).runs.captured, 2);
    }

    #[test]
    fn command_keys_take_a_subcommand_word_only() {
        let key = |argv: &str| command_key(&argv.split(' ').map(String::from).collect::<Vec<_>>());
        assert_eq!(key("/usr/bin/cargo build --release"), "cargo build");
        assert_eq!(key("git log -n 3"), "git log");
        assert_eq!(key("ls -la"), "ls");
        assert_eq!(key("python3 script.py"), "python3");
        assert_eq!(key("cat /etc/passwd"), "cat");
        assert_eq!(key("timeout 60 cargo test --lib"), "cargo test");
        let wrapped = ["bash".into(), "-c".into(), "cd web && git log -n 3".into()];
        assert_eq!(command_key(&wrapped), "git log");
        assert_eq!(command_key(&[]), "(none)");
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped_signed(-30_000), "-30,000");
    }

    #[test]
    fn the_table_states_its_method() {
        let log = reading(vec![capture(
            "cargo build",
            "00000001",
            (0, 50_000),
            (0, 800),
        )]);
        let text = human(&report(&log, None, 0, 5), std::path::Path::new("/l"));
        assert!(text.starts_with(
            "lens stats: 1 runs captured, 0 exec'd, 0 failed to start\n\
             log: /l (0 files, 0 lines; skipped 0 corrupt, 0 of an unknown version)\n"
        ));
        assert!(
            text.contains("total           50,000           800\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "saved   29,200 of 30,000 bytes counted (97.3%), about 7,300 of 7,500 tokens"
            ),
            "{text}"
        );
        assert!(text.contains("up to 30,000 bytes"), "{text}");
        assert!(text.contains("tokens: bytes / 4"), "{text}");
        assert!(
            text.contains("  cargo build      1 runs        29,200 saved\n"),
            "{text}"
        );
    }
}
