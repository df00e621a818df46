//! Every recorded fixture, rendered at levels 2, 1 and 0, against its reviewed view.
//!
//! For each `tests/fixtures/<tool>/<case>/` and each non-empty stream, the view with the
//! fixed handle `0badcafe` and the default budget must equal
//! `tests/snapshots/<tool>/<case>/level<N>.<stream>`. `LENS_BLESS=1 cargo test` rewrites
//! the snapshots; a rewritten snapshot is reviewed by eye before it is committed.

use std::fs;
use std::path::Path;

#[path = "pipeline_fixture.rs"]
mod fixture;

use lens::block::Stream;
use lens::command::CommandLine;
use lens::level::Level;
use lens::pipeline::{Request, Settings, view};

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
            let text = fixture.stream(stream.name());
            if text.is_empty() || text.contains('\0') {
                continue;
            }
            for level in [2u8, 1, 0] {
                let command = CommandLine::from_words(&fixture.argv);
                let request = Request {
                    stream,
                    level: Level::from_number(level.into()).expect("a level"),
                    budget: 200,
                    handle: HANDLE,
                    exit_code: fixture.exit,
                    command: &command,
                    settings: &settings,
                };
                let actual = view(&text, &request);
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
                let expected = fs::read_to_string(&path).unwrap_or_default();
                if expected != actual {
                    failures.push(format!(
                        "{}\n--- expected ---\n{expected}\n--- actual ---\n{actual}\n",
                        path.display()
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
