//! Lens runs a command, keeps everything it printed, and shows the part that matters.
//!
//! ```text
//! argv ──cli──> Args                              (usage error: one line, exit 2)
//!   command::CommandLine::resolve: the program, seen through wrappers, once
//!   its mode ── Exec ──> exec                     (lens disappears; nothing stored)
//!   store: a fresh handle, reserved before the command starts
//!   capture: spawn, drain stdout and stderr on two threads into the store, wait
//!   store: meta.json last, completing the entry
//!   per stream, window: read back from the store, whole up to 16 MiB and 131,072 lines,
//!     else head + tail (stdout's head written while the command still runs)
//!     view::stream: binary, store or config failure ⇒ raw; else pipeline::view
//!   write the stdout view, then the stderr view (merge: in arrival order when both are
//!   one pipe), then lens's own diagnostics
//!   log one JSON line; exit with the child's status
//! ```
//!
//! `lens show` reads a run back through the same `view::stream`; `lens stats` reads the
//! log back.
//!
//! The binary is a thin caller over [`run`]; the benchmarks drive [`pipeline`] directly.

pub mod block;
pub mod capture;
pub mod cli;
pub mod command;
pub mod config;
pub mod handle;
pub mod hook;
pub mod init;
pub mod instructions;
pub mod interactive;
pub mod json;
pub mod level;
pub mod log;
pub mod merge;
pub mod pipeline;
pub mod platform;
pub mod runner;
pub mod shell;
pub mod show;
pub mod stats;
pub mod store;
pub mod view;
pub mod window;

use cli::Parsed;
use std::ffi::OsString;
use std::io;

/// Run lens with the arguments that follow the program name; returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    match cli::parse(args) {
        Ok(Parsed::Help) => {
            runner::emit(&mut io::stdout().lock(), cli::HELP.as_bytes());
            0
        }
        Ok(Parsed::Version) => {
            runner::emit(
                &mut io::stdout().lock(),
                concat!("lens ", env!("CARGO_PKG_VERSION"), "\n").as_bytes(),
            );
            0
        }
        Ok(Parsed::Show(args)) => show::run(args),
        Ok(Parsed::Stats(args)) => stats::run(args),
        Ok(Parsed::Run(args)) => runner::run(args),
        Ok(Parsed::Hook(args)) => hook::run(args),
        Ok(Parsed::Init(args)) => init::run(args),
        Err(error) => {
            eprintln!("lens: {error}");
            2
        }
    }
}
