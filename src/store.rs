//! The store: every captured run's raw bytes, retrievable by handle.
//!
//! Layout: `<root>/<handle>/{stdout,stderr,meta.json}`, plus `arrival` (the order the
//! two streams' bytes came in) for a run that wrote to both; directories 0700 and files 0600,
//! because command output holds secrets. A handle is reserved by creating its directory,
//! which is atomic and exclusive, so two runs never share one even when fifty start at
//! once: on a collision the seed is salted and hashed again.
//!
//! Write-through: [`Store::begin`] reserves the entry before the command starts and hands
//! back its `stdout` and `stderr` files, which capture appends to as the bytes arrive, so
//! a lens that is killed (SIGKILL, a harness's timeout) leaves every byte read before the
//! kill. `meta.json` is written last, under a temporary name renamed into place: an entry
//! is complete exactly when its `meta.json` exists, and only then does `lens show` render
//! it. While the run lasts, the entry also holds `start.json` (argv, cwd, start time),
//! written the same atomic way, and `.writer`, a file the writing lens holds an exclusive
//! lock on (flock, released by the kernel however lens dies; the child does not inherit
//! it). Both are removed once `meta.json` is in place, so a complete entry is exactly the
//! three files (four with `arrival`). An entry without `meta.json` is therefore either [`State::Writing`] (its
//! lock is held) or [`State::Abandoned`] (nobody holds it: its writer died); [`Store::list`]
//! reports which, with the bytes captured, and [`Store::captured_path`] gives its streams.
//!
//! Retention: entries older than `max_age_days` are evicted, then the oldest until the
//! total is under `max_bytes`. The sweep runs at most once every [`SWEEP_INTERVAL`]
//! (a stamp file's mtime says when it last ran) or when a run stores a large output, so
//! an ordinary run pays one `stat`. An entry being written is never evicted, however long
//! its run lasts; an abandoned one is kept for [`ABANDONED_AFTER`], so what a killed run
//! printed can still be read, then evicted. Incomplete entries do not count toward
//! `max_bytes`.

use crate::block::Stream;
use crate::capture::Arrival;
use crate::config::StoreConfig;
use crate::handle::Handle;
use crate::platform;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often the retention sweep runs at most.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(600);
/// An incomplete entry older than this was abandoned by a writer that died.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(3600);
const STAMP: &str = ".last-sweep";
const META: &str = "meta.json";
const START: &str = "start.json";
const WRITER: &str = ".writer";
/// The order the two streams' bytes arrived in, for a run that wrote to both.
const ARRIVAL: &str = "arrival";
/// Created in an abandoned entry once a later run has logged it (see [`Store::claim_abandoned`]).
const LOGGED: &str = ".logged";
/// How old an entry's `.writer` must be before its free lock is taken for a dead writer:
/// a writer creates the file, then locks it, and must not be taken for dead in between.
const WRITER_SETTLED: Duration = Duration::from_secs(1);

/// What `meta.json` records about a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub handle: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// The status lens exited with (128 + N for a death by signal N).
    pub exit: i32,
    /// The signal that ended the child, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Start time, milliseconds since the Unix epoch.
    pub started_ms: u64,
    pub dur_ms: u64,
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    pub lens_version: String,
    /// The level and budget the run's views were rendered with, so `lens show` can
    /// replay them; absent in entries written before they were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<crate::level::Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<usize>,
}

/// What `start.json` records about a run while it lasts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Start {
    pub handle: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// Start time, milliseconds since the Unix epoch.
    pub started_ms: u64,
}

/// An entry being written: its handle, the files its streams go to, and its lease.
#[derive(Debug)]
pub struct Entry {
    pub handle: Handle,
    pub stdout: fs::File,
    pub stderr: fs::File,
    /// Keeps the entry [`State::Writing`] while it is held.
    pub lease: Lease,
}

/// The lock on an entry's `.writer` file; the entry is being written while it is held.
#[derive(Debug)]
pub struct Lease {
    _file: fs::File,
}

/// Where an entry stands.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    Complete(Meta),
    /// No `meta.json`, and its writer is alive.
    Writing,
    /// No `meta.json`, and its writer died: what it captured is all there will be.
    Abandoned,
}

/// One entry as [`Store::list`] sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub handle: Handle,
    pub state: State,
    /// From `start.json` for an incomplete entry; `None` if it was never written.
    pub start: Option<Start>,
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    /// When the entry last changed.
    pub modified: SystemTime,
}

impl Listed {
    /// The entry's `meta.json`, when it is complete.
    pub fn meta(&self) -> Option<&Meta> {
        match &self.state {
            State::Complete(meta) => Some(meta),
            _ => None,
        }
    }

    /// When the run started: from `meta.json` or `start.json`, else when the entry last
    /// changed.
    pub fn started(&self) -> SystemTime {
        let started_ms = match (&self.state, &self.start) {
            (State::Complete(meta), _) => Some(meta.started_ms),
            (_, Some(start)) => Some(start.started_ms),
            _ => None,
        };
        started_ms.map_or(self.modified, |ms| {
            SystemTime::UNIX_EPOCH + Duration::from_millis(ms)
        })
    }
}

/// Which stored stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Stdout,
    Stderr,
}

impl Part {
    pub fn file_name(self) -> &'static str {
        match self {
            Part::Stdout => "stdout",
            Part::Stderr => "stderr",
        }
    }
}

/// A store rooted at one directory.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

/// The store's directory: `LENS_STORE`, else `$XDG_CACHE_HOME/lens`, else `~/.cache/lens`.
pub fn root(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(dir) = env("LENS_STORE").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    crate::config::xdg_dir(env, "XDG_CACHE_HOME", ".cache").map(|dir| dir.join("lens"))
}

impl Store {
    /// A store at `root`; nothing is touched until something is written.
    pub fn new(root: PathBuf) -> Store {
        Store { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Reserve a fresh handle for a run described by `seed`: its directory now exists and
    /// belongs to this run alone.
    pub fn reserve(&self, seed: &[u8]) -> Result<Handle> {
        platform::create_private_dir_all(&self.root).with_context(|| {
            format!("failed to create store directory `{}`", self.root.display())
        })?;
        let mut salted = seed.to_vec();
        for attempt in 0u32..64 {
            let handle = Handle::from_seed(&salted);
            let dir = self.entry_dir(handle);
            match platform::create_private_dir(&dir) {
                Ok(()) => return Ok(handle),
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                    salted.extend_from_slice(&attempt.to_le_bytes());
                }
                Err(err) => {
                    return Err(err).with_context(|| {
                        format!("failed to create store entry `{}`", dir.display())
                    });
                }
            }
        }
        bail!(
            "no free handle in `{}` after 64 attempts",
            self.root.display()
        )
    }

    /// Reserve an entry for a run that is about to start and open its stream files for
    /// appending; `start` is recorded in `start.json`, with the new handle filled in. Any
    /// failure leaves no entry behind.
    pub fn begin(&self, seed: &[u8], start: &Start) -> Result<Entry> {
        let handle = self.reserve(seed)?;
        let opened = self.open_entry(handle, start);
        if opened.is_err() {
            self.discard(handle);
        }
        opened
    }

    fn open_entry(&self, handle: Handle, start: &Start) -> Result<Entry> {
        let dir = self.entry_dir(handle);
        let writer = dir.join(WRITER);
        let lock = platform::create_private_file(&writer)
            .with_context(|| format!("failed to create `{}`", writer.display()))?;
        lock.try_lock()
            .map_err(|error| anyhow::anyhow!("failed to lock `{}`: {error}", writer.display()))?;
        let start = Start {
            handle: handle.to_string(),
            ..start.clone()
        };
        let json = serde_json::to_vec_pretty(&start).context("failed to encode start.json")?;
        write_atomic(&dir, START, &json)?;
        let open = |part: Part| {
            let path = dir.join(part.file_name());
            platform::create_private_file(&path)
                .with_context(|| format!("failed to create `{}`", path.display()))
        };
        Ok(Entry {
            handle,
            stdout: open(Part::Stdout)?,
            stderr: open(Part::Stderr)?,
            lease: Lease { _file: lock },
        })
    }

    /// Complete an entry begun with [`Store::begin`]: write its `meta.json`, atomically,
    /// then drop the files only an incomplete entry has.
    pub fn finish(&self, handle: Handle, meta: &Meta) -> Result<()> {
        let dir = self.entry_dir(handle);
        let json = serde_json::to_vec_pretty(meta).context("failed to encode meta.json")?;
        write_atomic(&dir, META, &json)?;
        let _ = fs::remove_file(dir.join(START));
        let _ = fs::remove_file(dir.join(WRITER));
        Ok(())
    }

    /// Where `handle`'s entry stands; an error if there is no such entry.
    pub fn state(&self, handle: Handle) -> Result<State> {
        let dir = self.entry_dir(handle);
        if let Ok(meta) = self.meta(handle) {
            return Ok(State::Complete(meta));
        }
        if !dir.is_dir() {
            bail!("no stored run `{handle}` in `{}`", self.root.display());
        }
        Ok(writer_state(&dir))
    }

    /// Every entry in the store, newest first.
    pub fn list(&self) -> Result<Vec<Listed>> {
        let entries = match fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("failed to list `{}`", self.root.display()));
            }
        };
        let mut listed = Vec::new();
        for entry in entries.flatten() {
            let Some(handle) = entry.file_name().to_str().and_then(Handle::parse) else {
                continue;
            };
            let dir = entry.path();
            let Ok(state) = self.state(handle) else {
                continue;
            };
            let start = match state {
                State::Complete(_) => None,
                _ => fs::read(dir.join(START))
                    .ok()
                    .and_then(|bytes| serde_json::from_slice(&bytes).ok()),
            };
            let size = |part: Part| fs::metadata(dir.join(part.file_name())).map_or(0, |m| m.len());
            listed.push(Listed {
                handle,
                state,
                start,
                stdout_bytes: size(Part::Stdout),
                stderr_bytes: size(Part::Stderr),
                modified: last_change(&dir),
            });
        }
        listed.sort_by_key(|entry| std::cmp::Reverse(entry.modified));
        Ok(listed)
    }

    /// Entries whose writer died before writing `meta.json` (a lens killed mid-run) and
    /// that no run has logged yet. Each is claimed by creating its `.logged` marker, which
    /// only one lens can do, so each is returned once, to one caller, whatever runs
    /// concurrently. A bare reservation (no `.writer`: no command ever ran) is not one.
    pub fn claim_abandoned(&self, now: SystemTime) -> Vec<Listed> {
        let Ok(entries) = fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut claimed = Vec::new();
        for entry in entries.flatten() {
            let Some(handle) = entry.file_name().to_str().and_then(Handle::parse) else {
                continue;
            };
            let dir = entry.path();
            let settled = fs::metadata(dir.join(WRITER))
                .and_then(|m| m.modified())
                .is_ok_and(|made| now.duration_since(made).unwrap_or_default() >= WRITER_SETTLED);
            if !settled
                || dir.join(META).exists()
                || dir.join(LOGGED).exists()
                || writer_state(&dir) != State::Abandoned
                || platform::create_new_private_file(&dir.join(LOGGED)).is_err()
            {
                continue;
            }
            let size = |part: Part| fs::metadata(dir.join(part.file_name())).map_or(0, |m| m.len());
            claimed.push(Listed {
                handle,
                state: State::Abandoned,
                start: fs::read(dir.join(START))
                    .ok()
                    .and_then(|bytes| serde_json::from_slice(&bytes).ok()),
                stdout_bytes: size(Part::Stdout),
                stderr_bytes: size(Part::Stderr),
                modified: last_change(&dir),
            });
        }
        claimed
    }

    /// The path of an entry's stream, complete or not: for an incomplete entry, what was
    /// captured so far.
    pub fn captured_path(&self, handle: Handle, part: Part) -> Result<PathBuf> {
        let path = self.entry_dir(handle).join(part.file_name());
        if path.is_file() {
            Ok(path)
        } else {
            bail!("no stored run `{handle}` in `{}`", self.root.display())
        }
    }

    /// Give back a reserved handle whose entry could not be completed.
    /// Store an output lens did not capture itself (an agent's hook hands it over whole)
    /// under a handle [`reserve`](Store::reserve) gave: both streams, then `meta.json`.
    pub fn write(&self, handle: Handle, stdout: &[u8], stderr: &[u8], meta: &Meta) -> Result<()> {
        let dir = self.entry_dir(handle);
        write_atomic(&dir, Part::Stdout.file_name(), stdout)?;
        write_atomic(&dir, Part::Stderr.file_name(), stderr)?;
        self.finish(handle, meta)
    }

    /// Record the order the streams' bytes arrived in, so that `lens show` under `2>&1`
    /// interleaves its views as the run did: one line per stretch of one stream,
    /// `stdout 4096` or `stderr 17`. Nothing is written for a run that wrote to one
    /// stream only; its order is that stream's.
    pub fn write_arrival(&self, handle: Handle, arrival: &[Arrival]) -> Result<()> {
        if arrival.len() < 2 {
            return Ok(());
        }
        let mut text = String::with_capacity(arrival.len() * 12);
        for stretch in arrival {
            text.push_str(&format!("{} {}\n", stretch.stream.name(), stretch.bytes));
        }
        write_atomic(&self.entry_dir(handle), ARRIVAL, text.as_bytes())
    }

    /// The arrival order [`write_arrival`](Store::write_arrival) recorded, if the entry
    /// has one that reads back whole.
    pub fn arrival(&self, handle: Handle) -> Option<Vec<Arrival>> {
        let text = fs::read_to_string(self.entry_dir(handle).join(ARRIVAL)).ok()?;
        text.lines()
            .map(|line| {
                let (name, bytes) = line.split_once(' ')?;
                let stream = match name {
                    "stdout" => Stream::Stdout,
                    "stderr" => Stream::Stderr,
                    _ => return None,
                };
                Some(Arrival {
                    stream,
                    bytes: bytes.parse().ok()?,
                })
            })
            .collect()
    }

    pub fn discard(&self, handle: Handle) {
        let _ = fs::remove_dir_all(self.entry_dir(handle));
    }

    /// A complete entry's metadata.
    pub fn meta(&self, handle: Handle) -> Result<Meta> {
        let path = self.entry_dir(handle).join(META);
        let bytes = fs::read(&path)
            .with_context(|| format!("no stored run `{handle}` in `{}`", self.root.display()))?;
        serde_json::from_slice(&bytes).with_context(|| format!("unreadable `{}`", path.display()))
    }

    /// The path of a complete entry's stream, for streaming it out without loading it.
    pub fn part_path(&self, handle: Handle, part: Part) -> Result<PathBuf> {
        self.meta(handle)?;
        Ok(self.entry_dir(handle).join(part.file_name()))
    }

    /// A complete entry's stream, in full.
    pub fn read(&self, handle: Handle, part: Part) -> Result<Vec<u8>> {
        let path = self.part_path(handle, part)?;
        fs::read(&path).with_context(|| format!("failed to read `{}`", path.display()))
    }

    /// Whatever an entry holds, complete or not: its `meta.json` when written (`None`
    /// while the run is still being written or after its writer died), an error when
    /// there is no such entry at all.
    pub fn entry(&self, handle: Handle) -> Result<Option<Meta>> {
        let dir = self.entry_dir(handle);
        if !dir.is_dir() {
            bail!("no stored run `{handle}` in `{}`", self.root.display());
        }
        match fs::read(dir.join(META)) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .with_context(|| format!("unreadable `{}`", dir.join(META).display())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => {
                Err(error).with_context(|| format!("failed to read `{}`", dir.join(META).display()))
            }
        }
    }

    /// The file holding what the store has of one stream of an entry, complete or not
    /// (streams are written through to their own names as they arrive), if there is one.
    pub fn stored_part(&self, handle: Handle, part: Part) -> Option<PathBuf> {
        Some(self.entry_dir(handle).join(part.file_name())).filter(|path| path.is_file())
    }

    /// The directory of `handle`'s entry, whether or not it exists.
    pub fn entry_dir(&self, handle: Handle) -> PathBuf {
        self.root.join(handle.to_string())
    }

    /// Whether a sweep is due: never swept, or not within [`SWEEP_INTERVAL`].
    pub fn sweep_due(&self, now: SystemTime) -> bool {
        let stamp = fs::metadata(self.root.join(STAMP)).and_then(|m| m.modified());
        match stamp {
            Ok(last) => now
                .duration_since(last)
                .is_ok_and(|age| age >= SWEEP_INTERVAL),
            Err(_) => true,
        }
    }

    /// Apply the retention rule. `keep` is never evicted (the run that just wrote it).
    /// Returns how many entries were removed.
    pub fn sweep(
        &self,
        rule: &StoreConfig,
        now: SystemTime,
        keep: Option<Handle>,
    ) -> Result<usize> {
        let _ = platform::create_private_file(&self.root.join(STAMP));
        let max_age = Duration::from_secs(rule.max_age_days.saturating_mul(86_400));
        let mut complete = Vec::new();
        let mut removed = 0;
        let entries = fs::read_dir(&self.root)
            .with_context(|| format!("failed to list `{}`", self.root.display()))?;
        for entry in entries.flatten() {
            let Some(handle) = entry.file_name().to_str().and_then(Handle::parse) else {
                continue;
            };
            if Some(handle) == keep {
                continue;
            }
            let dir = entry.path();
            match fs::metadata(dir.join(META)).and_then(|m| m.modified()) {
                Ok(written) => complete.push((written, entry_size(&dir), dir)),
                Err(_) => {
                    let abandoned = writer_state(&dir) == State::Abandoned;
                    if abandoned
                        && age(now, last_change(&dir)) > ABANDONED_AFTER
                        && fs::remove_dir_all(&dir).is_ok()
                    {
                        removed += 1;
                    }
                }
            }
        }
        complete.sort_by_key(|entry| entry.0);
        let kept_size = keep.map_or(0, |h| entry_size(&self.entry_dir(h)));
        let mut total: u64 = kept_size + complete.iter().map(|(_, size, _)| size).sum::<u64>();
        for (written, size, dir) in complete {
            if age(now, written) <= max_age && total <= rule.max_bytes {
                break;
            }
            if fs::remove_dir_all(&dir).is_ok() {
                total -= size;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

/// Whether the writer of an entry without `meta.json` still holds its `.writer` lock. An
/// entry with no `.writer` at all is a bare reservation (its writer died before locking,
/// or predates write-through) and counts as abandoned.
fn writer_state(dir: &Path) -> State {
    let Ok(file) = fs::File::open(dir.join(WRITER)) else {
        return State::Abandoned;
    };
    match file.try_lock() {
        Ok(()) => State::Abandoned,
        Err(fs::TryLockError::WouldBlock) => State::Writing,
        // A lock that cannot be asked about is left alone, as if held.
        Err(fs::TryLockError::Error(_)) => State::Writing,
    }
}

/// The latest modification time of an entry's directory or any file in it.
fn last_change(dir: &Path) -> SystemTime {
    let files = fs::read_dir(dir).into_iter().flatten().flatten();
    files
        .filter_map(|e| e.metadata().and_then(|m| m.modified()).ok())
        .chain(fs::metadata(dir).and_then(|m| m.modified()).ok())
        .max()
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn age(now: SystemTime, then: SystemTime) -> Duration {
    now.duration_since(then).unwrap_or_default()
}

fn entry_size(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Write `dir/name` so that no reader ever sees a partial file.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let temp = dir.join(format!(".{name}.tmp"));
    let path = dir.join(name);
    let mut file = platform::create_private_file(&temp)
        .with_context(|| format!("failed to create `{}`", temp.display()))?;
    file.write_all(bytes)
        .with_context(|| format!("failed to write `{}`", temp.display()))?;
    drop(file);
    fs::rename(&temp, &path)
        .with_context(|| format!("failed to rename `{}` into place", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_store(name: &str) -> Store {
        let root = std::env::temp_dir().join(format!("lens-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        Store::new(root)
    }

    fn meta(handle: Handle, out: &[u8]) -> Meta {
        Meta {
            handle: handle.to_string(),
            argv: vec!["echo".into(), "hi".into()],
            cwd: "/".into(),
            exit: 0,
            signal: None,
            started_ms: 1,
            dur_ms: 2,
            stdout_bytes: out.len() as u64,
            stderr_bytes: 0,
            lens_version: "test".into(),
            level: Some(crate::level::Level::Failures),
            budget: None,
        }
    }

    fn start() -> Start {
        Start {
            handle: String::new(),
            argv: vec!["echo".into(), "hi".into()],
            cwd: "/".into(),
            started_ms: 1,
        }
    }

    fn put(store: &Store, seed: &[u8], out: &[u8]) -> Handle {
        let mut entry = store.begin(seed, &start()).unwrap();
        entry.stdout.write_all(out).unwrap();
        store
            .finish(entry.handle, &meta(entry.handle, out))
            .unwrap();
        entry.handle
    }

    #[test]
    fn a_complete_entry_is_exactly_its_three_files() {
        let store = temp_store("files");
        let handle = put(&store, b"seed", b"out");
        let mut names: Vec<String> = fs::read_dir(store.entry_dir(handle))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["meta.json", "stderr", "stdout"]);
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn the_arrival_order_reads_back_as_written_and_only_when_both_streams_wrote() {
        let store = temp_store("arrival");
        let handle = put(&store, b"seed", b"out");
        let one = [Arrival {
            stream: Stream::Stdout,
            bytes: 3,
        }];
        store.write_arrival(handle, &one).unwrap();
        assert_eq!(store.arrival(handle), None, "one stream's order is its own");
        let both = [
            Arrival {
                stream: Stream::Stderr,
                bytes: 6,
            },
            Arrival {
                stream: Stream::Stdout,
                bytes: 4096,
            },
        ];
        store.write_arrival(handle, &both).unwrap();
        assert_eq!(store.arrival(handle).as_deref(), Some(&both[..]));
        fs::write(store.entry_dir(handle).join(ARRIVAL), "stderr 6\nstdin 2\n").unwrap();
        assert_eq!(store.arrival(handle), None, "a damaged file is no order");
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn an_entry_is_writing_while_its_lease_is_held_and_abandoned_after() {
        let store = temp_store("lease");
        let mut entry = store.begin(b"x", &start()).unwrap();
        entry.stdout.write_all(b"one\ntwo\n").unwrap();
        entry.stderr.write_all(b"e\n").unwrap();
        let handle = entry.handle;
        assert_eq!(store.state(handle).unwrap(), State::Writing);
        let listed = store.list().unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].state, State::Writing);
        assert_eq!((listed[0].stdout_bytes, listed[0].stderr_bytes), (8, 2));
        assert_eq!(listed[0].start.as_ref().unwrap().handle, handle.to_string());
        // The writer dies: the kernel drops its lock with its files.
        drop(entry);
        assert_eq!(store.state(handle).unwrap(), State::Abandoned);
        assert!(store.meta(handle).is_err(), "still not complete");
        let path = store.captured_path(handle, Part::Stdout).unwrap();
        assert_eq!(fs::read(path).unwrap(), b"one\ntwo\n");
        let listed = store.list().unwrap();
        assert_eq!(listed[0].state, State::Abandoned);
        assert_eq!(listed[0].start.as_ref().unwrap().argv, ["echo", "hi"]);
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn an_abandoned_entry_is_claimed_once_and_a_live_or_complete_one_never() {
        let store = temp_store("claim");
        let mut dead = store.begin(b"dead", &start()).unwrap();
        dead.stdout.write_all(b"one\n").unwrap();
        let dead_handle = dead.handle;
        drop(dead);
        let alive = store.begin(b"alive", &start()).unwrap();
        let done = store.begin(b"done", &start()).unwrap();
        store.finish(done.handle, &meta(done.handle, b"")).unwrap();
        let later = SystemTime::now() + Duration::from_secs(5);
        // A `.writer` just made may not be locked yet: nothing is taken for dead so soon.
        assert!(store.claim_abandoned(SystemTime::now()).is_empty());
        let claimed = store.claim_abandoned(later);
        assert_eq!(claimed.len(), 1, "{claimed:?}");
        assert_eq!(claimed[0].handle, dead_handle);
        assert_eq!(claimed[0].stdout_bytes, 4);
        assert_eq!(claimed[0].start.as_ref().unwrap().argv, ["echo", "hi"]);
        assert!(store.claim_abandoned(later).is_empty(), "claimed once");
        assert_eq!(store.state(alive.handle).unwrap(), State::Writing);
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn an_entry_being_written_is_never_evicted_however_old() {
        let store = temp_store("long-run");
        let entry = store.begin(b"x", &start()).unwrap();
        let later = SystemTime::now() + Duration::from_secs(30 * 86_400);
        let rule = StoreConfig {
            max_bytes: 0,
            max_age_days: 1,
        };
        assert_eq!(store.sweep(&rule, later, None).unwrap(), 0);
        assert_eq!(store.state(entry.handle).unwrap(), State::Writing);
        drop(entry);
        assert_eq!(store.sweep(&rule, later, None).unwrap(), 1);
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn written_entries_read_back_exactly() {
        let store = temp_store("roundtrip");
        let handle = put(&store, b"seed", b"\xffbinary\0out");
        assert_eq!(
            store.read(handle, Part::Stdout).unwrap(),
            b"\xffbinary\0out"
        );
        assert_eq!(store.read(handle, Part::Stderr).unwrap(), b"");
        assert_eq!(
            store.meta(handle).unwrap(),
            meta(handle, b"\xffbinary\0out")
        );
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn the_same_seed_never_yields_the_same_handle_twice() {
        let store = temp_store("collide");
        let first = store.reserve(b"same").unwrap();
        let second = store.reserve(b"same").unwrap();
        assert_ne!(first, second);
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn an_entry_without_meta_is_not_readable_yet() {
        let store = temp_store("partial");
        let handle = store.reserve(b"x").unwrap();
        assert!(store.read(handle, Part::Stdout).is_err());
        assert!(
            store
                .meta(handle)
                .unwrap_err()
                .to_string()
                .contains("no stored run")
        );
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn sweep_evicts_oldest_first_until_under_the_size_bound() {
        let store = temp_store("sweep");
        let old = put(&store, b"1", &[b'a'; 100]);
        std::thread::sleep(Duration::from_millis(20));
        let mid = put(&store, b"2", &[b'b'; 100]);
        std::thread::sleep(Duration::from_millis(20));
        let new = put(&store, b"3", &[b'c'; 100]);
        let in_progress = store.reserve(b"4").unwrap();
        // Each entry is 100 bytes of stdout plus its meta.json; allow room for about two.
        let size = entry_size(&store.entry_dir(old));
        let rule = StoreConfig {
            max_bytes: 2 * size + 10,
            max_age_days: 7,
        };
        let removed = store.sweep(&rule, SystemTime::now(), Some(new)).unwrap();
        assert_eq!(removed, 1);
        assert!(store.meta(old).is_err());
        assert!(store.meta(mid).is_ok());
        assert!(store.meta(new).is_ok());
        assert!(
            store.entry_dir(in_progress).exists(),
            "an entry being written is never evicted"
        );
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn sweep_evicts_by_age_and_removes_abandoned_reservations() {
        let store = temp_store("age");
        let handle = put(&store, b"1", b"x");
        let abandoned = store.reserve(b"2").unwrap();
        let later = SystemTime::now() + Duration::from_secs(8 * 86_400);
        let rule = StoreConfig {
            max_bytes: u64::MAX,
            max_age_days: 7,
        };
        assert_eq!(store.sweep(&rule, later, None).unwrap(), 2);
        assert!(store.meta(handle).is_err());
        assert!(!store.entry_dir(abandoned).exists());
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn sweep_is_due_once_per_interval() {
        let store = temp_store("due");
        fs::create_dir_all(store.root()).unwrap();
        let now = SystemTime::now();
        assert!(store.sweep_due(now));
        store.sweep(&StoreConfig::default(), now, None).unwrap();
        assert!(!store.sweep_due(now));
        assert!(store.sweep_due(now + SWEEP_INTERVAL + Duration::from_secs(1)));
        fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn root_prefers_lens_store_then_xdg_cache() {
        let env = |key: &str| match key {
            "XDG_CACHE_HOME" => Some("/xdg".to_string()),
            "HOME" => Some("/h".to_string()),
            _ => None,
        };
        assert_eq!(root(&env), Some(PathBuf::from("/xdg/lens")));
        let env = |key: &str| (key == "LENS_STORE").then(|| "/s".to_string());
        assert_eq!(root(&env), Some(PathBuf::from("/s")));
    }
}
