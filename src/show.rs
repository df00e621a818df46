//! `lens show <handle>`: a stored run, re-rendered at any level.
//!
//! The handle is parsed strictly before anything touches the filesystem. `--level 3`
//! streams the stored bytes to stdout unchanged, without loading them. Other levels run
//! the stored stream through `view::stream`, the function a live run prints with, with
//! the run's own exit status and argv, so a view re-rendered later reads as it did then:
//! on a broken config, raw, as the run was.

use crate::block::Stream;
use crate::cli::ShowArgs;
use crate::command::CommandLine;
use crate::config;
use crate::handle::Handle;
use crate::level::Level;
use crate::pipeline;
use crate::runner::emit;
use crate::store::{self, Part, Store};
use crate::view;
use std::io::{self, Write};

/// Run `lens show`; returns the exit status.
pub fn run(args: ShowArgs) -> i32 {
    let env = |key: &str| std::env::var(key).ok();
    let Some(handle) = Handle::parse(&args.handle) else {
        eprintln!(
            "lens: `{}` is not a handle (a handle is eight lowercase hex digits)",
            args.handle
        );
        return 2;
    };
    let Some(root) = store::root(&env) else {
        eprintln!("lens: no store directory: set LENS_STORE or HOME");
        return 1;
    };
    let store = Store::new(root);
    let meta = match store.meta(handle) {
        Ok(meta) => meta,
        Err(_) => {
            eprintln!(
                "lens: no stored run `{handle}` in `{}`",
                store.root().display()
            );
            return 1;
        }
    };
    let (part, stream) = if args.stderr {
        (Part::Stderr, Stream::Stderr)
    } else {
        (Part::Stdout, Stream::Stdout)
    };
    let (config, config_error) = config::load_or_default(&env);
    let command = CommandLine::from_words(&meta.argv);
    let (level, budget) =
        config::level_and_budget(&config, args.level, args.budget, &command.program);

    let mut stdout = io::stdout().lock();
    if level == Level::Raw {
        let copied = store
            .part_path(handle, part)
            .and_then(|path| Ok(std::fs::File::open(path)?))
            .map(|mut file| io::copy(&mut file, &mut stdout));
        return match copied {
            Ok(_) => 0,
            Err(error) => {
                eprintln!("lens: cannot read stored run `{handle}`: {error:#}");
                1
            }
        };
    }
    let raw = match store.read(handle, part) {
        Ok(raw) => raw,
        Err(error) => {
            eprintln!("lens: cannot read stored run `{handle}`: {error:#}");
            return 1;
        }
    };
    let handle_text = handle.to_string();
    let options = pipeline::Request {
        stream,
        level,
        budget,
        handle: &handle_text,
        exit_code: meta.exit,
        command: &command,
        settings: &config.pipeline,
    };
    let blocked = view::blocker(None, config_error.as_deref());
    let (shown, _) = view::stream(&raw, blocked.as_ref(), &options);
    emit(&mut stdout, &shown);
    drop(stdout);
    if let Some(blocked) = blocked {
        let _ = writeln!(io::stderr(), "{}", blocked.diagnostic);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_handles_are_usage_errors_before_any_file_is_read() {
        for bad in ["../../../etc/passwd", "ABCDEF12", "1234", "/tmp/x"] {
            let args = ShowArgs {
                handle: bad.into(),
                level: None,
                budget: None,
                stderr: false,
            };
            assert_eq!(run(args), 2, "{bad}");
        }
    }
}
