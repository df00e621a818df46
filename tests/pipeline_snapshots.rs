//! Every recorded fixture, rendered at levels 2, 1 and 0, against its reviewed view.
//!
//! For each `tests/fixtures/<tool>/<case>/` and each non-empty stream, the view with the
//! fixed handle `0badcafe` and the default budget must equal
//! `tests/snapshots/<tool>/<case>/level<N>.<stream>`. `LENS_BLESS=1 cargo test` rewrites
//! the snapshots; a rewritten snapshot is reviewed by eye before it is committed.

use std::fs;
use std::path::{Path, PathBuf};

use lens::block::Stream;
use lens::pipeline::{Request, Settings, view};

const HANDLE: &str = "0badcafe";

struct Fixture {
    dir: PathBuf,
    argv: Vec<String>,
    exit: i32,
}

fn fixtures() -> Vec<Fixture> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = Vec::new();
    for tool in sorted_dirs(&root) {
        for case in sorted_dirs(&tool) {
            let meta = fs::read_to_string(case.join("meta.toml")).expect("meta.toml");
            let meta: toml::Table = toml::from_str(&meta).expect("meta.toml parses");
            let argv = meta["command"]
                .as_array()
                .expect("command is an array")
                .iter()
                .map(|a| a.as_str().expect("argv is strings").to_owned())
                .collect();
            let exit = meta["exit"].as_integer().expect("exit is an integer") as i32;
            found.push(Fixture {
                dir: case,
                argv,
                exit,
            });
        }
    }
    found
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.retain(|p| p.is_dir());
    dirs.sort();
    dirs
}

#[test]
fn every_fixture_matches_its_reviewed_view_at_every_level() {
    let bless = std::env::var_os("LENS_BLESS").is_some_and(|v| v == "1");
    let settings = Settings::default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut compared = 0;
    for fixture in fixtures() {
        let relative = fixture
            .dir
            .strip_prefix(root.join("tests/fixtures"))
            .expect("under fixtures");
        for stream in [Stream::Stdout, Stream::Stderr] {
            let bytes = fs::read(fixture.dir.join(stream.name())).unwrap_or_default();
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            if text.is_empty() || text.contains('\0') {
                continue;
            }
            for level in [2u8, 1, 0] {
                let request = Request {
                    stream,
                    level,
                    budget: 200,
                    handle: HANDLE,
                    exit_code: fixture.exit,
                    argv: &fixture.argv,
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
