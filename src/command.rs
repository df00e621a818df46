//! The command a run is for, resolved once from argv: what the interactive decision, the
//! pipeline and the config lookup all read.
//!
//! Agents rarely run a program bare: `bash -c "cd x && cargo test"`, `timeout 60 pytest`,
//! `env RUST_LOG=debug cargo run`, `python3 -m pytest`. Each of those prints what its
//! innermost command prints, so that command decides the family of the output and the
//! `[commands.NAME]` table that applies. The wrappers are seen through by the survey in
//! [`crate::interactive`], the same walk that decides exec or capture, so the three can
//! never disagree about which program a command line runs.
//!
//! The resolved program is the innermost command line of the survey's trail whose first
//! word is a program: a pseudo-program the survey invents for a package script (`npm run
//! test` reads its script as `<script> test`) is not, and neither is a script file handed
//! to an interpreter (`python3 tools/gen.py` is python running a file, so it resolves to
//! `python3`, not to `gen.py`).
//!
//! A shell string (`bash -c STRING`) is read as `sh` reads it, by
//! `interactive/script.rs`, so the quoting an agent chose never changes the program: the
//! string's words are the words the shell passes. Of a pipeline whose later stages only
//! select lines (`cmd 2>&1 | tail -40`, `| grep -v ok`), the program is `cmd`: what is
//! printed is a cut of cmd's output, line for line, so cmd's family reads it best, and
//! `[commands.cmd]` is the table the user wrote for it. A stage that rewrites lines or
//! prints its own (`| wc -l`, `| cut -c1-7`) is the program instead. A string the reader
//! refuses resolves to the shell itself, with no guess at what it runs.

use crate::interactive::{self, Mode};
use std::ffi::OsString;

/// A command line as lens runs it, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// argv as typed, lossily decoded.
    pub argv: Vec<String>,
    /// The base name of the program whose output this is: `git` for
    /// `sh -c 'git log -n 8'`, `pytest` for `python3 -m pytest`.
    pub program: String,
    /// The program's arguments, as the resolved command line has them.
    pub args: Vec<String>,
    /// The program's subcommand (`log` of `git -C x log`), when it takes one.
    pub subcommand: Option<String>,
    /// The programs seen through on the way, outermost first (`timeout`, `sh`).
    pub wrappers: Vec<String>,
    /// The package script a package manager was asked to run (`test` of `pnpm test`,
    /// `build` of `npm run build`): a name only the project's manifest can resolve.
    pub script: Option<String>,
    /// Whether lens captures the command or gives it the terminal.
    pub mode: Mode,
}

impl CommandLine {
    pub fn resolve(argv: &[OsString]) -> CommandLine {
        let (mode, trail) = interactive::survey(argv);
        let argv: Vec<String> = argv
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        Self::from_trail(argv, mode, trail)
    }

    /// Resolve a command line given as words (a stored run's argv, a test).
    pub fn from_words(words: &[String]) -> CommandLine {
        let argv: Vec<OsString> = words.iter().map(OsString::from).collect();
        CommandLine::resolve(&argv)
    }

    fn from_trail(argv: Vec<String>, mode: Mode, trail: Vec<Vec<String>>) -> CommandLine {
        let script = trail
            .iter()
            .find(|words| words.first().is_some_and(|w| w == "<script>"))
            .and_then(|words| words[1..].iter().find(|w| !w.starts_with('-')).cloned());
        let at = trail.iter().rposition(|words| {
            words
                .first()
                .is_some_and(|program| is_program(base(program)))
        });
        let Some(at) = at else {
            return CommandLine {
                program: argv.first().map(|p| base(p).to_owned()).unwrap_or_default(),
                args: argv.iter().skip(1).cloned().collect(),
                subcommand: None,
                wrappers: Vec::new(),
                script,
                argv,
                mode,
            };
        };
        let wrappers = trail[..at]
            .iter()
            .filter_map(|words| words.first())
            .map(|p| base(p).to_owned())
            .filter(|p| is_program(p))
            .collect();
        let words = &trail[at];
        let program = base(&words[0]).to_owned();
        let args: Vec<String> = words[1..].to_vec();
        let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let subcommand = interactive::subcommand(&program, &arg_refs).map(str::to_owned);
        CommandLine {
            argv,
            program,
            args,
            subcommand,
            wrappers,
            script,
            mode,
        }
    }

    /// The program with a version suffix taken off (`python3.12` is `python`), for
    /// lookups that name a family of executables.
    pub fn program_family(&self) -> &str {
        let bare = self
            .program
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if bare.is_empty() { &self.program } else { bare }
    }
}

/// Script files an interpreter runs: operands, not programs.
const SCRIPT_EXTENSIONS: &[&str] = &[
    ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php", ".lua", ".tcl", ".r", ".R",
    ".jl", ".exs",
];

fn is_program(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('<')
        && !SCRIPT_EXTENSIONS.iter().any(|e| name.ends_with(e))
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(line: &str) -> CommandLine {
        let words: Vec<String> = line.split(' ').map(String::from).collect();
        CommandLine::from_words(&words)
    }

    fn resolve_sh(script: &str) -> CommandLine {
        CommandLine::from_words(&["bash".into(), "-c".into(), script.into()])
    }

    #[test]
    fn a_bare_program_is_itself() {
        let c = resolve("/usr/bin/git -C repo log -n 8");
        assert_eq!(c.program, "git");
        assert_eq!(c.subcommand.as_deref(), Some("log"));
        assert!(c.wrappers.is_empty());
        assert_eq!(c.mode, Mode::Capture);
    }

    #[test]
    fn wrappers_are_seen_through_as_the_interactive_table_sees_them() {
        for line in [
            "timeout 30 git log -n 8",
            "env GIT_PAGER=cat git log -n 8",
            "nice -n 5 git log -n 8",
            "sudo -u me git log -n 8",
        ] {
            let c = resolve(line);
            assert_eq!(c.program, "git", "{line}");
            assert_eq!(c.subcommand.as_deref(), Some("log"), "{line}");
            assert_eq!(c.wrappers.len(), 1, "{line}");
        }
        let c = resolve_sh("git log -n 8");
        assert_eq!(
            (c.program.as_str(), c.wrappers.clone()),
            ("git", vec!["bash".to_owned()])
        );
        let c = CommandLine::from_words(&[
            "timeout".into(),
            "60".into(),
            "sh".into(),
            "-c".into(),
            "cd web && npx jest --ci".into(),
        ]);
        assert_eq!(c.program, "jest");
        assert_eq!(c.wrappers, ["timeout", "sh", "npx"]);
    }

    #[test]
    fn a_pipe_into_a_cut_is_the_output_of_what_feeds_it() {
        let c = resolve_sh("cd x && cargo build 2>&1 | tail -80");
        assert_eq!(c.program, "cargo");
        assert_eq!(
            resolve_sh("cargo test | grep -v ok | head -40").program,
            "cargo"
        );
        // Not a pipe: `||` runs the second command's own output.
        assert_eq!(resolve_sh("make || tail -n 5 build.log").program, "tail");
        assert_eq!(resolve_sh("cat build.log").program, "cat");
    }

    #[test]
    fn launchers_resolve_to_what_they_launch() {
        assert_eq!(resolve("python3 -m pytest -q").program, "pytest");
        assert_eq!(resolve("npx jest --ci").program, "jest");
        assert_eq!(resolve("uv run pytest").program, "pytest");
    }

    #[test]
    fn a_script_file_is_an_operand_of_its_interpreter() {
        let c = resolve("python3 tools/gen.py --all");
        assert_eq!(c.program, "python3");
        assert_eq!(c.program_family(), "python");
        let c = resolve("npm run test");
        assert_eq!(c.program, "npm");
        assert_eq!(c.script.as_deref(), Some("test"));
        assert_eq!(
            resolve("pnpm --filter web test").script.as_deref(),
            Some("web")
        );
        assert_eq!(resolve("cargo test").script, None);
    }

    #[test]
    fn a_script_resolves_to_its_last_command_that_prints() {
        assert_eq!(resolve_sh("cd crates/core && cargo test").program, "cargo");
        assert_eq!(resolve_sh("cargo test; cd ..").program, "cargo");
        assert_eq!(resolve_sh("git log | head -3").program, "git");
    }

    #[test]
    fn quoting_inside_a_script_resolves_as_the_bare_command_does() {
        let bare = CommandLine::from_words(&[
            "grep".into(),
            "-rn".into(),
            "unwrap()".into(),
            "src".into(),
            "tests".into(),
        ]);
        for script in [
            "grep -rn 'unwrap()' src tests",
            "grep -rn unwrap\\(\\) src tests",
            "grep -rn \"unwrap()\" src tests",
            "cd . && grep -rn 'unwrap()' src tests",
            "grep -rn 'unwrap()' src tests 2>&1",
            "timeout 30 grep -rn 'unwrap()' src tests",
            "env A=1 grep -rn 'unwrap()' src tests",
            "A=\"x y\" grep -rn 'unwrap()' src tests",
        ] {
            let c = resolve_sh(script);
            assert_eq!(
                (c.program.as_str(), &c.args, &c.subcommand),
                (bare.program.as_str(), &bare.args, &bare.subcommand),
                "for `{script}`"
            );
        }
        let c = resolve_sh("grep -rn \"$PAT\" src");
        assert_eq!((c.program.as_str(), c.args[1].as_str()), ("grep", "$PAT"));
    }

    #[test]
    fn a_pipe_into_a_program_that_rewrites_lines_is_that_programs_output() {
        assert_eq!(resolve_sh("grep -rn x src | tail -40").program, "grep");
        assert_eq!(resolve_sh("grep -rn 'a|b' src | wc -l").program, "wc");
        assert_eq!(resolve_sh("git log | cut -c1-7 | head").program, "cut");
        assert_eq!(resolve_sh("cd x | tail").program, "tail");
    }

    #[test]
    fn a_script_it_cannot_read_resolves_to_the_shell() {
        for script in [
            "cat <<EOF\nx\nEOF",
            "grep 'open src",
            "case $x in a) make;; esac",
        ] {
            let c = resolve_sh(script);
            assert_eq!(c.program, "bash", "for `{script}`");
            assert_eq!(c.mode, Mode::Capture, "for `{script}`");
        }
        assert_eq!(
            resolve_sh("cat <<EOF\nx\nEOF\nvim y").mode,
            Mode::Exec("editor")
        );
    }

    #[test]
    fn the_mode_is_the_surveys() {
        assert_eq!(resolve_sh("vim x").mode, Mode::Exec("editor"));
        assert_eq!(CommandLine::from_words(&[]).program, "");
    }
}
