//! Every recorded fixture, rendered at levels 2, 1 and 0, against its reviewed view.
//!
//! For each `tests/fixtures/<tool>/<case>/` and each non-empty stream, the view with the
//! fixed handle `0badcafe` and the default budget must equal
//! `tests/snapshots/<tool>/<case>/level<N>.<stream>`. `LENS_BLESS=1 cargo test` rewrites
//! the snapshots; a rewritten snapshot is reviewed by eye before it is committed.
//!
//! Streams are rendered from their bytes through `lens::view::render`, the path a run
//! takes, so a stream with stray bytes is covered too. The raw-on-doubt guard there must
//! not hide a broken stage: a fixture whose view falls back to the raw output fails the
//! test with the reason, unless the stream is binary or level 0's counts would outgrow a
//! short stream, which are the fallbacks by design.

use std::fs;
use std::path::Path;

#[path = "pipeline_fixture.rs"]
mod fixture;

use lens::block::Stream;
use lens::command::CommandLine;
use lens::level::Level;
use lens::pipeline::{Fallback, Request, Settings};

const HANDLE: &str = "0badcafe";

#[test]
fn every_fixture_matches_its_reviewed_view_at_every_level() {
    let bless = std::env::var_os("LENS_BLESS").is_some_and(|v| v == "1");
    let settings = Settings::default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut compared = 0;
    for fixture in fixture::all() {
        let relative = fixture
            .dir
            .strip_prefix(root.join("tests/fixtures"))
            .expect("under fixtures");
        for stream in [Stream::Stdout, Stream::Stderr] {
            let text = fixture.bytes(stream.name());
            if text.is_empty() {
                continue;
            }
            // Level 1 is asked for as less than level 2: it is never longer.
            let mut level2_len = usize::MAX;
            for level in [2u8, 1, 0] {
                let command = CommandLine::from_words(&fixture.argv);
                let request = Request {
                    stream,
                    level: Level::from_number(level.into()).expect("a level"),
                    budget: lens::cli::DEFAULT_BUDGET,
                    handle: HANDLE,
                    exit_code: fixture.exit,
                    command: &command,
                    settings: &settings,
                };
                let (shown, fallback) = lens::view::render(&text, &request);
                if let Some(reason) = fallback {
                    let by_design = reason.starts_with("binary: ")
                        || level == 0 && reason == Fallback::LongerThanRaw.reason();
                    if !by_design {
                        failures.push(format!(
                            "{} {} level {level} fell back to raw: {reason}",
                            relative.display(),
                            stream.name()
                        ));
                    }
                }
                let actual = shown.into_owned();
                match level {
                    2 => level2_len = actual.len(),
                    1 if actual.len() > level2_len => failures.push(format!(
                        "{} {}: level 1 is {} bytes, level 2 {level2_len}",
                        relative.display(),
                        stream.name(),
                        actual.len()
                    )),
                    _ => {}
                }
                let path = root
                    .join("tests/snapshots")
                    .join(relative)
                    .join(format!("level{level}.{}", stream.name()));
                compared += 1;
                if bless {
                    fs::create_dir_all(path.parent().unwrap()).unwrap();
                    fs::write(&path, &actual).unwrap();
                    continue;
                }
                let expected = fs::read(&path).unwrap_or_default();
                if expected != actual {
                    failures.push(format!(
                        "{}\n--- expected ---\n{}\n--- actual ---\n{}\n",
                        path.display(),
                        String::from_utf8_lossy(&expected),
                        String::from_utf8_lossy(&actual)
                    ));
                }
            }
        }
    }
    assert!(compared > 0, "no fixtures found");
    assert!(
        failures.is_empty(),
        "{} snapshot(s) differ (LENS_BLESS=1 rewrites them):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
