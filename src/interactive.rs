//! Which commands must keep the terminal: decided from argv alone, before anything runs.
//!
//! A command that talks to a person (a REPL, an editor, a pager, `git add -p`) or never
//! ends by itself (`tail -f`, a dev server, a watch mode) cannot be captured: holding its
//! output until exit hangs the caller. Those are exec'd, so they get the terminal exactly
//! as if lens were not there. Being wrong in the capturing direction hangs the user's
//! terminal; being wrong in the other only costs a filter, so a doubtful case is exec'd.

use std::ffi::OsString;

/// How lens runs a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Capture both streams, store them and print the view.
    Capture,
    /// Replace lens with the command; the reason is what the log records.
    Exec(&'static str),
}

/// Decide how to run `argv` (argv[0] is the program).
pub fn mode(argv: &[OsString]) -> Mode {
    let Some(program) = argv.first() else {
        return Mode::Capture;
    };
    let name = std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.as_str() {
        "less" | "more" | "vi" | "vim" | "nvim" | "nano" | "top" | "htop" => {
            Mode::Exec("terminal program")
        }
        _ => Mode::Capture,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn pagers_keep_the_terminal() {
        assert_eq!(
            mode(&argv("less README.md")),
            Mode::Exec("terminal program")
        );
        assert_eq!(mode(&argv("cargo build")), Mode::Capture);
    }
}
