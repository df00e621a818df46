//! Lens runs a command, keeps everything it printed, and shows the part that matters.
//!
//! ```text
//! argv ──cli──> Args ──config──> Settings
//!   interactive? ──yes──> exec (lens disappears; nothing stored)
//!   capture: spawn, drain stdout and stderr on two threads, wait
//!   store: raw bytes + meta.json under a fresh handle
//!   per stream: binary? raw : pipeline::view(text)  (store failed? raw)
//!   write stdout view, then stderr view; log one JSON line; exit with the child's code
//! ```

pub mod block;
pub mod interactive;
pub mod pipeline;

use std::ffi::OsString;

/// Run lens with the arguments that follow the program name; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    let Some((program, rest)) = args.split_first() else {
        eprintln!("lens: no command given (try `lens --help`)");
        return 2;
    };
    match std::process::Command::new(program).args(rest).status() {
        Ok(status) => status.code().unwrap_or(1),
        Err(err) => {
            eprintln!("lens: {}: {err}", program.to_string_lossy());
            127
        }
    }
}
