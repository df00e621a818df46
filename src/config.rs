//! config.toml: where it is, what it may say, and how it merges with the command line.
//!
//! A missing file is the defaults. A file that cannot be read or parsed must not break the
//! command: `load` reports the reason, the runner shows the raw output and logs why.
//!
//! Reading the file never blocks and never reads much: only a regular file of at most
//! [`MAX_BYTES`] is read. It is opened without blocking (a FIFO's open would otherwise
//! wait for a writer forever) and its type and size are checked on the opened file, not
//! on the path, so nothing can swap it between the check and the read. A FIFO, a
//! directory, a device or an oversize file is a broken config, like one that fails to
//! parse: the run is raw and the reason is logged. Keys
//! are typed with serde and unknown keys are an error naming the key, because a typo that
//! silently does nothing is worse than one that says so. The command line wins over
//! per-command settings, which win over the file's top level, which wins over defaults.

use crate::cli;
use crate::level::Level;
use crate::pipeline;
use crate::platform;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The whole file.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub level: Option<u8>,
    pub budget: Option<usize>,
    pub store: StoreConfig,
    pub log: LogConfig,
    pub pipeline: pipeline::Settings,
    pub hook: HookConfig,
    /// Per-program defaults, keyed by the program's file name (`cargo`, `pytest`).
    pub commands: BTreeMap<String, CommandConfig>,
}

/// `[store]`: the retention rule.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct StoreConfig {
    /// Total size of all stored runs; the oldest are evicted past it.
    pub max_bytes: u64,
    /// Runs older than this many days are evicted.
    pub max_age_days: u64,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            max_bytes: 1 << 30,
            max_age_days: 7,
        }
    }
}

/// `[log]`.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// The log is rotated (one previous file kept) once it would grow past this.
    pub max_bytes: u64,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig { max_bytes: 4 << 20 }
    }
}

/// `[hook]`: what `lens hook` leaves alone.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HookConfig {
    /// Commands the hooks never rewrite and never replace the output of: each entry is a
    /// program's name, optionally followed by the words its command line starts with
    /// (`"terraform"`, `"kubectl logs"`, `"git log"`).
    pub exclude: Vec<String>,
}

impl HookConfig {
    /// Whether `exclude` names the simple command `words`. An entry matches the words as
    /// typed (the program compared by its base name, so `/usr/bin/terraform` is
    /// `terraform`) and the command [`CommandLine`] resolves them to, through wrappers and
    /// launchers (`timeout 60 terraform plan`, `sh -c 'cd x && terraform plan'`,
    /// `python -m pytest`), where `"git log"` also names `git -C x log` by its subcommand.
    /// Matching is on whole words: `"kubectl logs"` is not `kubectl logsx`.
    ///
    /// [`CommandLine`]: crate::command::CommandLine
    pub fn excludes(&self, words: &[String]) -> bool {
        let Some(first) = words.first() else {
            return false;
        };
        let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_owned();
        let starts = |have: &[String], want: &[&str]| {
            have.len() >= want.len() && have.iter().zip(want).all(|(h, w)| h == w)
        };
        let mut resolved = None;
        self.exclude.iter().any(|entry| {
            let entry: Vec<&str> = entry.split_whitespace().collect();
            let Some((program, rest)) = entry.split_first() else {
                return false;
            };
            let program = base(program);
            if base(first) == program && starts(&words[1..], rest) {
                return true;
            }
            let command =
                resolved.get_or_insert_with(|| crate::command::CommandLine::from_words(words));
            command.program == program
                && (starts(&command.args, rest)
                    || (rest.len() == 1 && command.subcommand.as_deref() == Some(rest[0])))
        })
    }
}

/// `[commands.NAME]`.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct CommandConfig {
    pub level: Option<u8>,
    pub budget: Option<usize>,
}

/// The config file's path: `LENS_CONFIG`, else `$XDG_CONFIG_HOME/lens/config.toml`, else
/// `~/.config/lens/config.toml`.
pub fn path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(path) = env("LENS_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    xdg_dir(env, "XDG_CONFIG_HOME", ".config").map(|dir| dir.join("lens").join("config.toml"))
}

/// `$VAR/`, else `$HOME/<fallback>/`: the XDG base directory rule. Relative XDG values are
/// ignored, as the specification says they must be.
pub fn xdg_dir(env: &dyn Fn(&str) -> Option<String>, var: &str, fallback: &str) -> Option<PathBuf> {
    if let Some(dir) = env(var).map(PathBuf::from).filter(|p| p.is_absolute()) {
        return Some(dir);
    }
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|home| Path::new(&home).join(fallback))
}

/// The largest config file lens reads. A real one is a few hundred bytes; anything near
/// this is not a config, and reading it would cost every run.
pub const MAX_BYTES: u64 = 1 << 20;

/// Read and check the file. `Ok(default)` when there is none.
pub fn load(path: Option<&Path>) -> Result<Config, String> {
    let Some(path) = path else {
        return Ok(Config::default());
    };
    let text = match read_bounded(path) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(Config::default()),
        Err(err) => return Err(format!("cannot read config `{}`: {err}", path.display())),
    };
    parse(&text).map_err(|err| format!("invalid config `{}`: {err}", path.display()))
}

/// The text of `path` if it is a regular file of at most [`MAX_BYTES`]; `None` if there is
/// no such file. Never blocks: see the module header.
fn read_bounded(path: &Path) -> Result<Option<String>, String> {
    use std::io::Read;
    let file = match platform::open_without_blocking(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err.to_string()),
    };
    let meta = file.metadata().map_err(|err| err.to_string())?;
    if !meta.is_file() {
        return Err(format!(
            "not a regular file ({})",
            platform::file_kind(&meta)
        ));
    }
    if meta.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes, more than the {MAX_BYTES} a config may hold",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    // The size was checked, but a file can grow while it is read: never take more.
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| err.to_string())?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!("more than the {MAX_BYTES} bytes a config may hold"));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "not valid UTF-8".to_owned())
}

/// The config the environment names, or the defaults and the reason it could not be used:
/// a broken file never stops a run, it only makes it raw.
pub fn load_or_default(env: &dyn Fn(&str) -> Option<String>) -> (Config, Option<String>) {
    match load(path(env).as_deref()) {
        Ok(config) => (config, None),
        Err(reason) => (Config::default(), Some(reason)),
    }
}

/// Parse and validate config text.
pub fn parse(text: &str) -> Result<Config, String> {
    let config: Config = toml::from_str(text).map_err(|err| one_line(&err.to_string()))?;
    check_level("level", config.level)?;
    for (name, command) in &config.commands {
        check_level(&format!("commands.{name}.level"), command.level)?;
    }
    if config.hook.exclude.iter().any(|e| e.trim().is_empty()) {
        return Err("`hook.exclude` holds an empty entry: name a program".into());
    }
    Ok(config)
}

fn check_level(key: &str, level: Option<u8>) -> Result<(), String> {
    match level {
        Some(level) if Level::from_number(level.into()).is_none() => {
            Err(format!("`{key}` must be 0 to 3, not {level}"))
        }
        _ => Ok(()),
    }
}

/// toml's messages quote the offending line over several lines; lens reports one.
fn one_line(message: &str) -> String {
    let mut lines = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|'));
    let first = lines.next().unwrap_or("parse error").to_owned();
    match lines.next_back() {
        Some(last) if last != first => format!("{first}: {last}"),
        _ => first,
    }
}

/// Level and budget for one run of `program` (its resolved name, [`CommandLine`]'s
/// `program`), the command line winning.
pub fn level_and_budget(
    config: &Config,
    args_level: Option<Level>,
    args_budget: Option<usize>,
    program: &str,
) -> (Level, usize) {
    let command = config.commands.get(program).copied().unwrap_or_default();
    // Checked when the config was parsed: a level out of range never gets here.
    let configured = command
        .level
        .or(config.level)
        .and_then(|n| Level::from_number(n.into()));
    let level = args_level.or(configured).unwrap_or(Level::DEFAULT);
    let budget = args_budget
        .or(command.budget)
        .or(config.budget)
        .unwrap_or(cli::DEFAULT_BUDGET);
    (level, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_is_the_defaults() {
        assert_eq!(parse("").unwrap(), Config::default());
    }

    #[test]
    fn a_full_file_parses() {
        let config = parse(
            "level = 1\nbudget = 50\n[store]\nmax_bytes = 1000\nmax_age_days = 2\n[log]\nmax_bytes = 10\n\
             [commands.cargo]\nlevel = 2\n",
        )
        .unwrap();
        assert_eq!(config.level, Some(1));
        assert_eq!(
            config.store,
            StoreConfig {
                max_bytes: 1000,
                max_age_days: 2
            }
        );
        assert_eq!(config.log.max_bytes, 10);
        assert_eq!(config.commands["cargo"].level, Some(2));
    }

    #[test]
    fn unknown_keys_are_errors_that_name_the_key() {
        let error = parse("levle = 1\n").unwrap_err();
        assert!(error.contains("levle"), "{error}");
        assert!(!error.contains('\n'), "{error}");
        let error = parse("[store]\nmax_size = 1\n").unwrap_err();
        assert!(error.contains("max_size"), "{error}");
    }

    #[test]
    fn out_of_range_levels_are_rejected() {
        assert_eq!(
            parse("level = 4").unwrap_err(),
            "`level` must be 0 to 3, not 4"
        );
        assert_eq!(
            parse("[commands.make]\nlevel = 9").unwrap_err(),
            "`commands.make.level` must be 0 to 3, not 9"
        );
        assert!(parse("level = -1").is_err());
    }

    #[test]
    fn missing_file_is_the_defaults_and_unreadable_is_an_error() {
        let dir = std::env::temp_dir().join(format!("lens-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(
            load(Some(&dir.join("absent.toml"))).unwrap(),
            Config::default()
        );
        // A directory where the file should be cannot be read as one.
        assert!(
            load(Some(&dir))
                .unwrap_err()
                .starts_with("cannot read config")
        );
        std::fs::write(dir.join("bad.toml"), "level = [").unwrap();
        assert!(
            load(Some(&dir.join("bad.toml")))
                .unwrap_err()
                .starts_with("invalid config")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_bounded_regular_file_is_read_and_nothing_blocks() {
        let dir = std::env::temp_dir().join(format!("lens-config-kinds-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let started = std::time::Instant::now();
        assert_eq!(
            load(Some(&fifo)).unwrap_err(),
            format!(
                "cannot read config `{}`: not a regular file (a FIFO)",
                fifo.display()
            )
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(
            load(Some(Path::new("/dev/null")))
                .unwrap_err()
                .ends_with("not a regular file (a device)")
        );
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_BYTES as usize + 1]).unwrap();
        assert!(
            load(Some(&big))
                .unwrap_err()
                .ends_with("1048577 bytes, more than the 1048576 a config may hold")
        );
        let at_bound = dir.join("at-bound.toml");
        std::fs::write(&at_bound, vec![b'#'; MAX_BYTES as usize]).unwrap();
        assert_eq!(load(Some(&at_bound)).unwrap(), Config::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hook_exclude_names_programs_and_their_leading_words() {
        let config =
            parse("[hook]\nexclude = [\"terraform\", \"kubectl logs\", \"git log\"]\n").unwrap();
        let excluded = |line: &str| {
            let words: Vec<String> = line.split(' ').map(String::from).collect();
            config.hook.excludes(&words)
        };
        assert!(excluded("terraform plan"));
        assert!(excluded("/usr/local/bin/terraform apply -auto-approve"));
        assert!(excluded("timeout 60 terraform plan"));
        assert!(excluded("kubectl logs -f web"));
        assert!(excluded("git -C sub log -n 3"));
        assert!(!excluded("kubectl get pods"));
        assert!(!excluded("kubectl logsx"));
        assert!(!excluded("git status"));
        assert!(!excluded("terraformer plan"));
        assert!(!config.hook.excludes(&[]));
        assert_eq!(
            parse("[hook]\nexclude = [\" \"]").unwrap_err(),
            "`hook.exclude` holds an empty entry: name a program"
        );
        assert!(parse("[hook]\nexclude = \"terraform\"").is_err(), "a list");
    }

    #[test]
    fn command_line_beats_command_section_beats_top_level() {
        let config = parse("level = 1\nbudget = 10\n[commands.cargo]\nlevel = 0\n").unwrap();
        let run = |level, budget, program| level_and_budget(&config, level, budget, program);
        assert_eq!(run(None, None, "cargo"), (Level::Counts, 10));
        assert_eq!(
            run(Some(Level::Filtered), None, "cargo"),
            (Level::Filtered, 10)
        );
        assert_eq!(run(None, Some(5), "make"), (Level::Failures, 5));
        assert_eq!(
            level_and_budget(&Config::default(), None, None, "x"),
            (Level::DEFAULT, cli::DEFAULT_BUDGET)
        );
    }

    #[test]
    fn paths_follow_the_environment_then_xdg_then_home() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                vars.iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            path(&env(&[("LENS_CONFIG", "/x/c.toml"), ("HOME", "/h")])),
            Some("/x/c.toml".into())
        );
        assert_eq!(
            path(&env(&[("XDG_CONFIG_HOME", "/xdg"), ("HOME", "/h")])),
            Some("/xdg/lens/config.toml".into())
        );
        assert_eq!(
            path(&env(&[("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")])),
            Some("/h/.config/lens/config.toml".into())
        );
        assert_eq!(path(&env(&[])), None);
    }

    #[test]
    fn the_documented_example_parses_and_states_the_defaults() {
        let example = parse(include_str!("../docs/config.example.toml"))
            .expect("docs/config.example.toml parses");
        let defaults = Config::default();
        assert_eq!(
            example.level.unwrap_or(Level::DEFAULT.number()),
            Level::DEFAULT.number()
        );
        assert_eq!(
            example.budget.unwrap_or(cli::DEFAULT_BUDGET),
            cli::DEFAULT_BUDGET
        );
        assert_eq!(example.store, defaults.store);
        assert_eq!(example.log, defaults.log);
        assert_eq!(example.hook, defaults.hook);
    }
}
