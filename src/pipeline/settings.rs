//! The `[pipeline]` table of config.toml: stage switches, thresholds, noise patterns and
//! per-command overrides.
//!
//! Every key decides what a stage removes (or, for `level1_lines` and `max_locations`,
//! how much level 1 and a marker show); none can turn a marker off, so no setting makes
//! a removal silent. Unknown keys are an error (a misspelt switch that silently did nothing
//! would be worse), and so is a noise pattern that is not a valid regex: the config fails
//! to load, which the runner treats as "show the raw output and log why".
//!
//! ```toml
//! [pipeline]
//! excerpt_after = 5
//! noise = ["^DEBUG "]
//! [pipeline.commands.pytest]
//! passing_tests = false
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::command::CommandLine;

/// Pipeline configuration, read from the `[pipeline]` table of config.toml.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Collapse repeated blocks.
    pub dedupe: bool,
    /// Keep only the last line of each run of progress lines; drop noise.
    pub progress: bool,
    /// Treat passing-test lines as progress (the tally still counts them).
    pub passing_tests: bool,
    /// Group findings that share a message.
    pub cause: bool,
    /// Kept lines force-kept on each side of a failure.
    pub context_lines: usize,
    /// Last lines of a failing command's stream force-kept.
    pub failing_tail: usize,
    /// Drop quoted source once the view holds many findings.
    pub excerpt: bool,
    /// How many findings the view may hold before excerpt drops their source.
    pub excerpt_after: usize,
    /// Line numbers a group's marker lists before counting the rest per file.
    pub max_locations: usize,
    /// Lines level 1 shows when nothing failed.
    pub level1_lines: usize,
    /// Extra regexes: a plain line matching one is noise and goes.
    pub noise: Vec<Pattern>,
    /// Overrides by program name (`git`, `pytest`, `cargo`).
    pub commands: BTreeMap<String, Overrides>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dedupe: true,
            progress: true,
            passing_tests: true,
            cause: true,
            context_lines: 2,
            failing_tail: 10,
            excerpt: true,
            excerpt_after: 5,
            max_locations: 200,
            level1_lines: 20,
            noise: Vec::new(),
            commands: BTreeMap::new(),
        }
    }
}

/// `[pipeline.commands.NAME]`: any stage setting, for one program; noise patterns add to
/// the global ones.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overrides {
    pub dedupe: Option<bool>,
    pub progress: Option<bool>,
    pub passing_tests: Option<bool>,
    pub cause: Option<bool>,
    pub context_lines: Option<usize>,
    pub failing_tail: Option<usize>,
    pub excerpt: Option<bool>,
    pub excerpt_after: Option<usize>,
    pub max_locations: Option<usize>,
    pub level1_lines: Option<usize>,
    pub noise: Vec<Pattern>,
}

impl Settings {
    /// The settings a command runs with: the overrides of its resolved program (or of the
    /// program's family, `python` for `python3.12`) applied, their noise patterns added.
    pub fn for_command(&self, command: &CommandLine) -> Settings {
        let program = if self.commands.contains_key(&command.program) {
            &command.program
        } else {
            command.program_family()
        };
        self.for_program(program)
    }

    /// The settings `program` runs with: its overrides applied, its noise patterns added,
    /// no per-command table left.
    pub fn for_program(&self, program: &str) -> Settings {
        let mut s = Settings {
            commands: BTreeMap::new(),
            ..self.clone()
        };
        // Built-in defaults for a few programs, under anything the config says for them.
        if BUILTIN_QUOTE_FREE.contains(&program) {
            s.excerpt_after = 0;
        }
        if let Some(o) = self.commands.get(program) {
            s.dedupe = o.dedupe.unwrap_or(s.dedupe);
            s.progress = o.progress.unwrap_or(s.progress);
            s.passing_tests = o.passing_tests.unwrap_or(s.passing_tests);
            s.cause = o.cause.unwrap_or(s.cause);
            s.context_lines = o.context_lines.unwrap_or(s.context_lines);
            s.failing_tail = o.failing_tail.unwrap_or(s.failing_tail);
            s.excerpt = o.excerpt.unwrap_or(s.excerpt);
            s.excerpt_after = o.excerpt_after.unwrap_or(s.excerpt_after);
            s.max_locations = o.max_locations.unwrap_or(s.max_locations);
            s.level1_lines = o.level1_lines.unwrap_or(s.level1_lines);
            s.noise.extend(o.noise.iter().cloned());
        }
        s
    }
}

/// Test runners whose failures quote the test's own code: the location and the
/// expected/received lines say what failed, and the code is in the file at that location,
/// so their source goes from the first finding (`excerpt_after = 0`).
const BUILTIN_QUOTE_FREE: &[&str] = &["jest", "vitest", "pytest", "py.test"];

/// A noise regex, checked when the config is read.
#[derive(Debug, Clone)]
pub struct Pattern(regex::Regex);

impl Pattern {
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        regex::Regex::new(&source)
            .map(Pattern)
            .map_err(|e| serde::de::Error::custom(format!("invalid noise pattern `{source}`: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_table_is_the_defaults() {
        let settings: Settings = toml::from_str("").unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(settings.for_program("cargo"), Settings::default());
    }

    #[test]
    fn a_program_overrides_what_it_names_and_adds_noise() {
        let settings: Settings = toml::from_str(
            "excerpt_after = 3\nnoise = ['^DEBUG ']\n[commands.git]\ndedupe = false\nnoise = ['^hint: ']\n",
        )
        .unwrap();
        let git = settings.for_program("git");
        assert!(!git.dedupe);
        assert_eq!(git.excerpt_after, 3);
        assert_eq!(
            git.noise.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
            ["^DEBUG ", "^hint: "]
        );
        assert!(git.commands.is_empty());
        assert!(settings.for_program("cargo").dedupe);
    }

    #[test]
    fn the_documented_example_parses() {
        let text = include_str!("../../docs/config.example.toml");
        let table: toml::Table = toml::from_str(text).unwrap();
        let pipeline = table["pipeline"].clone();
        let settings: Settings = pipeline.try_into().unwrap();
        let defaults = Settings::default();
        assert_eq!(
            Settings {
                commands: BTreeMap::new(),
                ..settings.clone()
            },
            defaults,
            "the example documents the defaults"
        );
        assert!(settings.commands.contains_key("git"));
    }

    #[test]
    fn a_launched_or_wrapped_program_gets_its_own_table() {
        let settings: Settings = toml::from_str(
            "[commands.pytest]\nexcerpt_after = 7\n[commands.python]\ndedupe = false\n",
        )
        .unwrap();
        let command =
            |s: &str| CommandLine::from_words(&s.split(' ').map(String::from).collect::<Vec<_>>());
        assert_eq!(
            settings
                .for_command(&command("python3 -m pytest -q"))
                .excerpt_after,
            7
        );
        assert_eq!(
            settings
                .for_command(&command("timeout 60 pytest"))
                .excerpt_after,
            7
        );
        assert!(
            !settings
                .for_command(&command("python3.12 tools/x.py"))
                .dedupe
        );
        assert!(settings.for_command(&command("cargo test")).dedupe);
    }

    #[test]
    fn test_runners_drop_quoted_source_unless_configured_otherwise() {
        let settings = Settings::default();
        assert_eq!(settings.for_program("jest").excerpt_after, 0);
        assert_eq!(settings.for_program("cargo").excerpt_after, 5);
        let mine: Settings = toml::from_str("[commands.jest]\nexcerpt_after = 3\n").unwrap();
        assert_eq!(mine.for_program("jest").excerpt_after, 3);
    }

    #[test]
    fn unknown_keys_and_bad_patterns_are_errors() {
        let unknown = toml::from_str::<Settings>("dedup = false").unwrap_err();
        assert!(
            unknown.to_string().contains("unknown field `dedup`"),
            "{unknown}"
        );
        let bad = toml::from_str::<Settings>("noise = ['(']").unwrap_err();
        assert!(
            bad.to_string().contains("invalid noise pattern `(`"),
            "{bad}"
        );
    }
}
