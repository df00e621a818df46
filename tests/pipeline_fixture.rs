//! The recorded fixtures and how their commands ran, shared by the pipeline tests
//! (`#[path = "pipeline_fixture.rs"] mod fixture;`). Cargo also builds this file as a
//! test target of its own, which holds no tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// One `tests/fixtures/<tool>/<case>/` directory.
pub struct Fixture {
    pub dir: PathBuf,
    pub argv: Vec<String>,
    pub exit: i32,
}

impl Fixture {
    /// Read `meta.toml` in `dir`.
    pub fn load(dir: PathBuf) -> Fixture {
        let meta = std::fs::read_to_string(dir.join("meta.toml")).expect("meta.toml");
        let meta: toml::Table = toml::from_str(&meta).expect("meta.toml parses");
        let argv = meta["command"]
            .as_array()
            .expect("command is an array")
            .iter()
            .map(|a| a.as_str().expect("argv is strings").to_owned())
            .collect();
        let exit = meta["exit"].as_integer().expect("exit is an integer") as i32;
        Fixture { dir, argv, exit }
    }

    /// A stream's bytes, empty when absent.
    pub fn bytes(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(name)).unwrap_or_default()
    }

    /// A stream's text, empty when absent or not UTF-8.
    pub fn stream(&self, name: &str) -> String {
        let bytes = std::fs::read(self.dir.join(name)).unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every fixture, in path order.
pub fn all() -> Vec<Fixture> {
    let mut found = Vec::new();
    for tool in sorted_dirs(&root()) {
        for case in sorted_dirs(&tool) {
            if case.join("meta.toml").is_file() {
                found.push(Fixture::load(case));
            }
        }
    }
    found
}

/// The fixture of a case name, whatever its tool directory.
pub fn named(case: &str) -> Option<Fixture> {
    all()
        .into_iter()
        .find(|f| f.dir.file_name().is_some_and(|n| n == case))
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.retain(|p| p.is_dir());
    dirs.sort();
    dirs
}
