//! Everything that differs between operating systems, and every `unsafe` block in lens.
//!
//! The shape follows cargo-util: one `mod imp` per platform with the same function names,
//! re-exported once, so a port means implementing this one file. Linux is the verified
//! target. The macOS branch compiles and is written to the same contract, but nothing
//! claims it works until the suite has run there. Windows has no code.
//!
//! What lives here:
//! - exec: replacing lens with the command, for interactive and never-ending commands;
//! - exit status: the child's code, or 128 + N for a death by signal N;
//! - signal forwarding: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to lens reach the child;
//! - parent-death signal: a child whose lens was SIGKILLed is told, not orphaned;
//! - private files: the store and log are created 0700 / 0600 because outputs hold secrets;
//! - opening a file without blocking, and naming what kind of file it is (the config read);
//! - noticing, without writing, that the reader of lens's stdout has gone away;
//! - telling whether lens's stdout and stderr are one file or pipe (`2>&1`).

use std::fs;
use std::io;
use std::path::Path;
use std::process::{Command, ExitStatus};

pub use imp::{
    AsPipe, exec, exit_code, forward_signals_to, prepare_child, stop_forwarding, wait_for_input,
};

/// Whether lens's stdout and stderr are the same file, pipe or terminal: same device and
/// inode, as `2>&1` makes them. False when either cannot be examined (closed).
pub fn stdout_is_stderr() -> bool {
    match (imp::file_id(&io::stdout()), imp::file_id(&io::stderr())) {
        (Some(out), Some(err)) => out == err,
        _ => false,
    }
}

/// What [`wait_for_input`] saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ready {
    /// The pipe has bytes, or is at EOF: a read will not block.
    Input,
    /// Whoever read lens's stdout has closed it: writing there would raise SIGPIPE.
    ReaderLeft,
    /// lens's stdout cannot be watched (it is closed); stop asking, just read.
    Unwatchable,
    /// Nothing happened within the timeout.
    Quiet,
}

/// Create `path` and any missing parents as directories only the owner can enter (0700).
pub fn create_private_dir_all(path: &Path) -> io::Result<()> {
    imp::private_dir_builder().recursive(true).create(path)
}

/// Create exactly `path` as a private directory; fails if it exists, which is what makes
/// directory creation usable as an atomic reservation.
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    imp::private_dir_builder().create(path)
}

/// Create (truncating) a file only the owner can read (0600).
pub fn create_private_file(path: &Path) -> io::Result<fs::File> {
    imp::private_file_options()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
}

/// Create a private file (0600) that must not exist yet: only one caller can succeed,
/// which makes it usable as a claim.
pub fn create_new_private_file(path: &Path) -> io::Result<fs::File> {
    imp::private_file_options()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Open `path` for appending, creating it private (0600) if it does not exist.
pub fn append_private_file(path: &Path) -> io::Result<fs::File> {
    imp::private_file_options()
        .append(true)
        .create(true)
        .open(path)
}

/// Open `path` for reading without blocking in `open` itself: a FIFO with no writer would
/// otherwise hold lens before the command starts. Reads from a regular file are unaffected.
pub fn open_without_blocking(path: &Path) -> io::Result<fs::File> {
    imp::nonblocking_read_options().read(true).open(path)
}

/// A short name for the kind of file `meta` describes, for messages.
pub fn file_kind(meta: &fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        imp::special_file_kind(&kind)
    }
}

#[cfg(unix)]
mod imp {
    use super::*;
    use std::os::fd::AsFd;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

    // A child's id arrives from std as a u32 and is handed to kill(2) as a pid_t. On every
    // target this file compiles for, pid_t is a 32-bit signed integer; if that ever stops
    // being true the cast below would truncate, so the build fails instead.
    const _: () = assert!(std::mem::size_of::<libc::pid_t>() == std::mem::size_of::<i32>());
    // The handler stores pids and signal numbers in AtomicI32s.
    const _: () = assert!(std::mem::size_of::<libc::c_int>() == std::mem::size_of::<i32>());

    /// The signals a terminal, a supervisor or a user sends to stop a command.
    const FORWARDED: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

    /// The child to forward to; 0 while there is none yet, -1 once it has been reaped.
    static CHILD: AtomicI32 = AtomicI32::new(0);
    /// Which of [`FORWARDED`] have lens's handler installed, one bit each.
    static INSTALLED: AtomicU32 = AtomicU32::new(0);
    /// A signal that arrived before the child existed, delivered once it does.
    static PENDING: AtomicI32 = AtomicI32::new(0);

    pub(super) fn private_dir_builder() -> fs::DirBuilder {
        let mut builder = fs::DirBuilder::new();
        builder.mode(0o700);
        builder
    }

    pub(super) fn private_file_options() -> fs::OpenOptions {
        let mut options = fs::OpenOptions::new();
        options.mode(0o600);
        options
    }

    pub(super) fn nonblocking_read_options() -> fs::OpenOptions {
        let mut options = fs::OpenOptions::new();
        options.custom_flags(libc::O_NONBLOCK);
        options
    }

    pub(super) fn special_file_kind(kind: &fs::FileType) -> &'static str {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else {
            "not a regular file"
        }
    }

    /// What a child's pipe must be for [`wait_for_input`] to wait on it.
    pub use std::os::fd::AsFd as AsPipe;

    /// Block until `pipe` can be read, or (with `watch_stdout`) the reader of lens's own
    /// stdout (fd 1) has gone, or `timeout` passed.
    ///
    /// poll(2) reports POLLERR on the write end of a pipe whose readers have all closed
    /// it, and POLLHUP on a socket or terminal that hung up, even with no events asked
    /// for; a regular file or /dev/null never reports either. So this notices a reader
    /// leaving without writing a byte to it.
    pub fn wait_for_input(
        pipe: &impl AsPipe,
        watch_stdout: bool,
        timeout: Option<std::time::Duration>,
    ) -> io::Result<super::Ready> {
        use std::os::fd::AsRawFd;
        let mut fds = [
            libc::pollfd {
                fd: pipe.as_fd().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                // poll skips a negative fd.
                fd: if watch_stdout {
                    libc::STDOUT_FILENO
                } else {
                    -1
                },
                events: 0,
                revents: 0,
            },
        ];
        let timeout_ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as libc::c_int);
        let mut ready;
        loop {
            // SAFETY: `fds` is a valid, writable array of two initialised pollfd structs
            // that outlives the call, and its length is passed exactly. The pipe's fd is
            // borrowed from `pipe` for the duration, so it cannot be closed and reused
            // under us; fd 1 is only polled, never read or written.
            ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
            if ready >= 0 {
                break;
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
        let stdout = fds[1].revents;
        Ok(if ready == 0 {
            super::Ready::Quiet
        } else if stdout & libc::POLLNVAL != 0 {
            super::Ready::Unwatchable
        } else if stdout & (libc::POLLERR | libc::POLLHUP) != 0 {
            super::Ready::ReaderLeft
        } else {
            super::Ready::Input
        })
    }

    /// (st_dev, st_ino) of the file behind `stream`, by fstat on a duplicate of its fd.
    pub(super) fn file_id(stream: &impl AsFd) -> Option<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        let fd = stream.as_fd().try_clone_to_owned().ok()?;
        let meta = fs::File::from(fd).metadata().ok()?;
        Some((meta.dev(), meta.ino()))
    }

    /// Replace this process with `command`. Returns only if the exec failed.
    pub fn exec(command: &mut Command) -> io::Error {
        command.exec()
    }

    /// The status lens exits with: the child's code, or 128 + N for a death by signal N.
    pub fn exit_code(status: ExitStatus) -> i32 {
        match (status.code(), status.signal()) {
            (Some(code), _) => code,
            (None, Some(signal)) => 128 + signal,
            // Stopped or continued statuses never come back from wait(); treat as failure.
            (None, None) => 1,
        }
    }

    /// Arrange for the child to be told when lens dies without forwarding anything (a
    /// SIGKILL), so it is never left running with nobody reading its pipes.
    pub fn prepare_child(command: &mut Command) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: getpid is async-signal-safe and is called in the parent, before fork.
            let parent = unsafe { libc::getpid() };
            // SAFETY: the closure runs in the forked child before exec, where only
            // async-signal-safe calls are allowed: prctl and getppid are both on that list,
            // and the closure allocates nothing and takes no locks.
            unsafe {
                command.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM, 0, 0, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                    // lens may already have died between fork and prctl: then nobody would
                    // ever send the signal, so send it now.
                    if libc::getppid() != parent {
                        libc::raise(libc::SIGTERM);
                    }
                    Ok(())
                });
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = command;
    }

    /// Forward SIGINT, SIGTERM, SIGHUP and SIGQUIT received by lens to `child`. Installed
    /// right after the spawn; a signal that arrives in between is kept and delivered here.
    ///
    /// A signal generated by the terminal (Ctrl-C, a hangup) goes to the whole foreground
    /// process group, so the child, which shares lens's group to keep the terminal, already
    /// has its own copy: forwarding it again would deliver it twice. On Linux the kernel
    /// marks those with SI_KERNEL, and only signals sent by a process (kill, a supervisor)
    /// are forwarded. A process that signals lens's whole group still gives the child two
    /// copies; telling that apart from a signal to lens alone is not possible.
    pub fn forward_signals_to(child: u32) -> io::Result<()> {
        for (index, &signal) in FORWARDED.iter().enumerate() {
            if is_ignored(signal)? {
                // Ignored by whoever started lens (nohup, a background job): the child
                // inherited that disposition, and lens keeps it for itself too.
                continue;
            }
            // SAFETY: `action` is fully initialised (zeroed, then every field lens relies on
            // set) before sigaction reads it; `on_signal` has the three-argument signature
            // SA_SIGINFO requires and only performs async-signal-safe work.
            let installed = unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut())
            };
            if installed != 0 {
                return Err(io::Error::last_os_error());
            }
            INSTALLED.fetch_or(1 << index, Ordering::SeqCst);
        }
        CHILD.store(child as i32, Ordering::SeqCst);
        let pending = PENDING.swap(0, Ordering::SeqCst);
        if pending != 0 {
            // SAFETY: kill has no memory-safety preconditions; the pid is our own child,
            // which has not been waited for yet, so the id cannot have been reused.
            unsafe { libc::kill(child as libc::pid_t, pending) };
        }
        Ok(())
    }

    /// Stop forwarding once the child has been reaped: its pid may be reused from then
    /// on, and a signal meant for lens should again stop lens (while it writes a long
    /// view, say) rather than be swallowed.
    pub fn stop_forwarding() {
        CHILD.store(-1, Ordering::SeqCst);
        let installed = INSTALLED.swap(0, Ordering::SeqCst);
        for (index, &signal) in FORWARDED.iter().enumerate() {
            if installed & (1 << index) != 0 {
                // SAFETY: restoring the default disposition has no memory-safety conditions.
                unsafe { libc::signal(signal, libc::SIG_DFL) };
            }
        }
    }

    /// Whether `signal` is currently ignored (SIG_IGN).
    fn is_ignored(signal: libc::c_int) -> io::Result<bool> {
        // SAFETY: a null new action only reads the current one into `current`, which is
        // a valid, writable sigaction for the duration of the call.
        let (status, current) = unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            let status = libc::sigaction(signal, std::ptr::null(), &mut current);
            (status, current)
        };
        if status != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(current.sa_sigaction == libc::SIG_IGN)
    }

    extern "C" fn on_signal(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        if sent_by_terminal(info) {
            return;
        }
        let child = CHILD.load(Ordering::SeqCst);
        if child > 0 {
            // SAFETY: kill is async-signal-safe; the pid is a child not yet reaped.
            unsafe { libc::kill(child, signal) };
        } else if child == 0 {
            PENDING.store(signal, Ordering::SeqCst);
        }
    }

    #[cfg(target_os = "linux")]
    fn sent_by_terminal(info: *mut libc::siginfo_t) -> bool {
        // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t for the duration of
        // the handler; a null check guards against a direct call.
        !info.is_null() && unsafe { (*info).si_code } == libc::SI_KERNEL
    }

    #[cfg(not(target_os = "linux"))]
    fn sent_by_terminal(_info: *mut libc::siginfo_t) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn exit_code_passes_the_child_code_through() {
        let status = Command::new("sh").args(["-c", "exit 7"]).status().unwrap();
        assert_eq!(exit_code(status), 7);
    }

    #[test]
    fn exit_code_of_a_signal_death_is_128_plus_the_signal() {
        let status = Command::new("sh")
            .args(["-c", "kill -TERM $$"])
            .status()
            .unwrap();
        assert_eq!(exit_code(status), 128 + 15);
    }

    #[test]
    fn private_files_and_dirs_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("lens-platform-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        create_private_dir_all(&dir.join("a/b")).unwrap();
        let file = dir.join("a/b/f");
        create_private_file(&file).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir.join("a/b")), 0o700);
        assert_eq!(mode(&file), 0o600);
        assert!(
            create_private_dir(&dir.join("a/b")).is_err(),
            "reservation must be exclusive"
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
