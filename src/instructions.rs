//! `lens init <agent>` for agents that read instructions instead of running a hook: a short
//! text that says when to put `lens` in front of a command and how to get elided lines
//! back, written where each agent reads its rules.
//!
//! [`TARGETS`] is the one table of them, each place cited beside it. Three kinds of edit,
//! in order of preference:
//!
//! - [`Place::Own`]: a file of lens's own in a rules directory the agent reads every file
//!   of (Cline, Roo Code, Windsurf). Nothing anyone else wrote is touched; uninstalling
//!   removes the file, and the directories lens created for it when they are empty again.
//! - [`Place::Block`]: a marked block appended to a Markdown file other tools and people
//!   write too (`AGENTS.md`, Windsurf's single `global_rules.md`). It is delimited by two
//!   comment lines, so it can be found again and removed exactly, and it is appended after
//!   the file's last line with one blank line between. A file that did not end with a
//!   newline gets one, and the opening line says so, so that `--uninstall` takes that
//!   newline back too: the file returns byte for byte, however the rest of it was edited
//!   since. A file lens created is removed again when nothing else was written into it.
//! - [`Place::Read`]: Aider reads no rules directory; it reads the files its YAML config
//!   lists under `read:`. Lens writes a file of its own and adds one line to that list: an
//!   item marked with a trailing comment when the list is a block sequence, or a marked
//!   `read:` block when the file has no `read:` key. Any other shape of `read:` (a scalar,
//!   a flow list) is left alone with an error saying what to add by hand: rewriting a value
//!   the user wrote is not "editing only what lens adds".
//!
//! Never twice, never a guess: an install that finds its text already there changes
//! nothing, and a block or file that was edited since is left in place with an error.
//! Before a file that existed is changed, it is copied into lens's state directory
//! (`backups/`), not beside it, where it would show up in the project's version control.
//! `--dry-run` prints each change as a line diff and writes nothing.
//!
//! [`install`] and [`uninstall`] are the block edit on any Markdown file, for a hook agent
//! whose own instruction file is the right place for the text.

use crate::init::{diff, read, write_file};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// An agent that reads instructions, and where: `project` is relative to the current
/// directory (`--project`), `user` to HOME (the default). An agent with no user-level place
/// is installed in the project either way.
pub struct Target {
    pub agent: &'static str,
    pub project: Place<'static>,
    pub user: Option<Place<'static>>,
}

/// One place an agent reads instructions from; paths are relative to the scope's root.
#[derive(Clone, Copy, Debug)]
pub enum Place<'a> {
    /// A file of lens's own: `front` (what the agent needs first, such as front matter),
    /// then the text. `shadows`: files in the project the agent stops reading once the
    /// rules directory holds a file; lens refuses to be that file.
    Own {
        path: &'a str,
        front: &'a str,
        shadows: &'a [&'a str],
    },
    /// A marked block appended to a shared Markdown file.
    Block { path: &'a str },
    /// A file of lens's own at `path`, listed as `entry` under `read:` in the YAML `config`.
    Read {
        path: &'a str,
        config: &'a str,
        entry: &'a str,
    },
}

/// The instruction-file agents.
pub const TARGETS: &[Target] = &[
    // The shared format (https://agents.md, github.com/agentsmd/agents.md): plain Markdown
    // at the repository root, read by Codex, Cursor, GitHub Copilot, Windsurf, Roo Code,
    // Cline and others.
    Target {
        agent: "agents-md",
        project: Place::Block { path: "AGENTS.md" },
        user: None,
    },
    // Aider reads no instruction file by itself: conventions are loaded with `--read FILE`
    // or a `read:` list in `.aider.conf.yml` (aider.chat/docs/usage/conventions.html,
    // "Always load conventions"; /docs/config/aider_conf.html, "A note on lists"). The
    // config is read from HOME, the git root and the current directory
    // (Aider-AI/aider 5dc9490b, `aider/main.py`), and each `read` entry is resolved with
    // `Path(fn).expanduser().resolve()`, so relative to where aider starts: the project's
    // entry is relative (aider is started at the root, and the file can be committed), the
    // user's names the file under `~`. The config files are parsed with ConfigArgParse,
    // HOME's first and the project's last (`default_config_files.reverse()`), and a later
    // file's `read:` replaces an earlier one's rather than adding to it: loading them that
    // way with ConfigArgParse 1.7.5 gave only the project's list. So the user-level install
    // does nothing in a project with a `read:` of its own; `--project` does.
    Target {
        agent: "aider",
        project: Place::Read {
            path: ".aider.lens.md",
            config: ".aider.conf.yml",
            entry: ".aider.lens.md",
        },
        user: Some(Place::Read {
            path: ".aider.lens.md",
            config: ".aider.conf.yml",
            entry: "~/.aider.lens.md",
        }),
    },
    // Cline reads every Markdown file in the workspace's `.clinerules/` directory and in
    // the global rules directory `~/Documents/Cline/Rules` (docs.cline.bot/features/
    // cline-rules, "Global Rules Directory Location"; cline/cline 21cb8d25,
    // `apps/vscode/src/core/storage/disk.ts` `ensureRulesDirectoryExists`). A rule file it
    // has not seen before is switched on (`synchronizeRuleToggles` in
    // `user-instructions/rule-helpers.ts`). A `.clinerules` that is a single file is
    // Cline's older layout: lens does not turn it into a directory.
    Target {
        agent: "cline",
        project: Place::Own {
            path: ".clinerules/lens.md",
            front: "",
            shadows: &[],
        },
        user: Some(Place::Own {
            path: "Documents/Cline/Rules/lens.md",
            front: "",
            shadows: &[],
        }),
    },
    // Roo Code reads every file under `.roo/rules/` in the workspace and under `~/.roo/rules/`
    // (docs.roocode.com/features/custom-instructions, "Instruction File Locations";
    // RooCodeInc/Roo-Code cb836567, `src/core/prompts/sections/custom-instructions.ts`
    // `loadRuleFiles`). The same function reads the legacy `.roorules` or `.clinerules`
    // file only when no `.roo/rules/` directory holds a file, so a rule file of lens's own
    // would silence a project's `.roorules`: lens refuses then.
    Target {
        agent: "roo",
        project: Place::Own {
            path: ".roo/rules/lens.md",
            front: "",
            shadows: &[".roorules", ".clinerules"],
        },
        user: Some(Place::Own {
            path: ".roo/rules/lens.md",
            front: "",
            shadows: &[".roorules", ".clinerules"],
        }),
    },
    // Windsurf (Cascade) reads workspace rules from `.windsurf/rules/*.md` and global ones
    // from the single `global_rules.md` (docs.windsurf.com/windsurf/cascade/memories,
    // "Rules" and "Rules Storage Locations"; Cascade's memories live in
    // `~/.codeium/windsurf/memories/`, beside it). A workspace rule is applied according to
    // its `trigger` front matter ("Activation Modes"); one without `always_on` is not
    // applied unless mentioned (github/spec-kit#1201), so lens's file says `always_on`.
    Target {
        agent: "windsurf",
        project: Place::Own {
            path: ".windsurf/rules/lens.md",
            front: "---\ntrigger: always_on\n---\n\n",
            shadows: &[],
        },
        user: Some(Place::Block {
            path: ".codeium/windsurf/memories/global_rules.md",
        }),
    },
];

/// The target for `agent`, if it is an instruction-file agent.
pub fn target(agent: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.agent == agent)
}

const BODY: &str = "\
## Long command output: use `lens`

Put `lens` in front of builds, tests, linters and other commands whose output is long:
`lens cargo test`, `lens npm test`, `cd web && lens make`. Lens prints a shorter view and
keeps the full output; each elided part is replaced by one line such as
`[lens: 42 lines elided, 10-51, 1a2b3c4d]`. To read those lines, run
`lens show 1a2b3c4d --lines 10-51` with the handle and range from that line, or
`lens show 1a2b3c4d --grep 'error|warning'` to search the whole output.

Do not use `lens` when the output is piped, redirected or captured (`cmd | grep`,
`cmd > file`, `$(cmd)`), for interactive commands, or in scripts: the exit status is the
command's own, but the text is a view of it.
";

/// The text as `lens init agents-md` wrote it before it named `--grep`: a block installed
/// then is still found, listed and removed.
const BODY_BEFORE_GREP: &str = "\
## Long command output: use `lens`

Put `lens` in front of builds, tests, linters and other commands whose output is long:
`lens cargo test`, `lens npm test`, `cd web && lens make`. Lens prints a shorter view and
keeps the full output; each elided part is replaced by one line such as
`[lens: 42 lines elided, 10-51, 1a2b3c4d]`. To read those lines, run
`lens show 1a2b3c4d --lines 10-51` with the handle and range from that line.

Do not use `lens` when the output is piped, redirected or captured (`cmd | grep`,
`cmd > file`, `$(cmd)`), for interactive commands, or in scripts: the exit status is the
command's own, but the text is a view of it.
";

/// The comment lines that open and close a block, in the syntax of the file it goes in.
struct Marks {
    begin: String,
    /// The opening line of a block whose separator also ended the line above.
    begin_newline: String,
    end: String,
}

impl Marks {
    fn markdown(agent: &str) -> Marks {
        Marks::new(agent, "<!-- ", " -->")
    }

    fn yaml(agent: &str) -> Marks {
        Marks::new(agent, "# ", "")
    }

    fn new(agent: &str, open: &str, close: &str) -> Marks {
        let remove = format!("remove with `lens init {agent} --uninstall`");
        Marks {
            begin: format!("{open}lens: begin (added by `lens init {agent}`; {remove}){close}\n"),
            begin_newline: format!(
                "{open}lens: begin (added by `lens init {agent}`, with the newline that ends \
                 the line above; {remove}){close}\n"
            ),
            end: format!("{open}lens: end{close}\n"),
        }
    }

    /// The block as installed, opened for a file that did (`true`) or did not end in a
    /// newline.
    fn block(&self, body: &str, had_newline: bool) -> String {
        let begin = if had_newline {
            &self.begin
        } else {
            &self.begin_newline
        };
        format!("{begin}{body}{}", self.end)
    }

    fn opened(&self, text: &str) -> bool {
        text.contains(&self.begin) || text.contains(&self.begin_newline)
    }

    fn present(&self, text: &str, body: &str) -> bool {
        text.contains(&self.block(body, true)) || text.contains(&self.block(body, false))
    }

    /// The file's text with the block added; `None` when it is there already.
    fn add(&self, before: Option<&str>, body: &str) -> Option<String> {
        let text = before.unwrap_or("");
        if self.opened(text) {
            return None;
        }
        Some(match text {
            "" => self.block(body, true),
            t if t.ends_with('\n') => format!("{t}\n{}", self.block(body, true)),
            t => format!("{t}\n\n{}", self.block(body, false)),
        })
    }

    /// The file's text with the block taken out (`None`: the file should not exist), or an
    /// error when the block is missing or was edited.
    fn remove(&self, text: &str, body: &str, path: &Path) -> Result<Option<String>> {
        for had_newline in [true, false] {
            let block = self.block(body, had_newline);
            let Some(at) = text.find(&block) else {
                continue;
            };
            let (head, tail) = (&text[..at], &text[at + block.len()..]);
            if head.is_empty() && tail.is_empty() {
                return Ok(None);
            }
            // What `add` put before the block: one blank line, and with `begin_newline`
            // also the newline that ended the user's last line.
            let separator = if had_newline { "\n" } else { "\n\n" };
            let head = head.strip_suffix(separator).unwrap_or(head);
            return Ok(Some(format!("{head}{tail}")));
        }
        if self.opened(text) || text.contains(&self.end) {
            bail!(
                "the lens block in `{}` was edited; remove it by hand (it starts at `{}`)",
                path.display(),
                self.begin.split(" (").next().unwrap_or("lens: begin")
            );
        }
        bail!("no lens block in `{}`", path.display())
    }
}

/// The whole text of a file lens owns.
fn own_text(agent: &str, front: &str) -> String {
    format!(
        "{front}<!-- lens: this file was written by `lens init {agent}`; remove it with \
         `lens init {agent} --uninstall` -->\n\n{BODY}"
    )
}

/// What one file goes from and to; `None` is no file.
struct Change {
    path: PathBuf,
    before: Option<String>,
    after: Option<String>,
}

/// `lens init <agent> [--project] [--uninstall] [--dry-run]` for an instruction-file agent;
/// returns what to print.
pub fn run(
    target: &Target,
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    project: bool,
    uninstall: bool,
    dry_run: bool,
) -> Result<String> {
    let (place, root, flag) = match (project, target.user) {
        (false, Some(place)) => {
            let home = env("HOME")
                .filter(|h| !h.is_empty())
                .context("no home directory: set HOME, or use --project")?;
            (place, PathBuf::from(home), "")
        }
        (true, Some(_)) => (target.project, cwd.to_owned(), " --project"),
        (_, None) => (target.project, cwd.to_owned(), ""),
    };
    let edit = Edit {
        agent: target.agent,
        place,
        root: &root,
        flag,
    };
    let mut out = edit.run(cwd, env, uninstall, dry_run)?;
    // Aider: a project's `read:` replaces the user's (see [`TARGETS`]); say so where it
    // applies rather than leave an install that does nothing here looking like one.
    if let (false, Place::Read { config, .. }) = (uninstall || project, place) {
        let local = cwd.join(config);
        let has_read = |text: String| text.lines().any(|l| l.starts_with("read:"));
        if local != root.join(config) && read(&local).ok().flatten().is_some_and(has_read) {
            out.push_str(&format!(
                "note: `{}` has a `read:` list of its own, which replaces this one in that \
                 project; run `lens init {} --project` there\n",
                local.display(),
                target.agent
            ));
        }
    }
    Ok(out)
}

/// One agent's place at one scope.
struct Edit<'a> {
    agent: &'a str,
    place: Place<'a>,
    root: &'a Path,
    /// How `--uninstall` is to be typed for this scope.
    flag: &'a str,
}

impl Edit<'_> {
    fn run(
        &self,
        cwd: &Path,
        env: &dyn Fn(&str) -> Option<String>,
        uninstall: bool,
        dry_run: bool,
    ) -> Result<String> {
        let Edit {
            agent,
            place,
            root,
            flag,
        } = *self;
        let changes = if uninstall {
            removals(agent, place, root)?
        } else {
            additions(agent, place, root, cwd)?
        };
        let files = paths(place, root)
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect::<Vec<_>>()
            .join(" and ");
        if changes.is_empty() {
            let state = if uninstall {
                "not installed in"
            } else {
                "already installed in"
            };
            return Ok(format!(
                "lens init {agent}: {state} {files}; nothing changed\n"
            ));
        }
        if dry_run {
            let mut out = String::new();
            for change in &changes {
                out.push_str(&format!(
                    "lens init {agent}: would change `{}`:\n{}",
                    change.path.display(),
                    diff(
                        change.before.as_deref().unwrap_or(""),
                        change.after.as_deref().unwrap_or("")
                    )
                ));
            }
            return Ok(out);
        }
        let mut out = String::new();
        for change in &changes {
            apply(change, env)?;
            let verb = match (&change.before, &change.after) {
                (None, _) => "created",
                (Some(_), None) => "removed",
                (Some(_), Some(_)) if uninstall => "took the lens lines out of",
                (Some(_), Some(_)) => "added the lens lines to",
            };
            out.push_str(&format!(
                "lens init {agent}: {verb} `{}`\n",
                change.path.display()
            ));
        }
        if !uninstall {
            out.push_str(&format!(
                "undo with `lens init {agent} --uninstall{flag}`\n"
            ));
        }
        Ok(out)
    }
}

/// The files a place consists of.
fn paths(place: Place<'_>, root: &Path) -> Vec<PathBuf> {
    match place {
        Place::Own { path, .. } | Place::Block { path } => vec![root.join(path)],
        Place::Read { path, config, .. } => vec![root.join(path), root.join(config)],
    }
}

fn additions(agent: &str, place: Place<'_>, root: &Path, cwd: &Path) -> Result<Vec<Change>> {
    let mut changes = Vec::new();
    match place {
        Place::Own {
            path,
            front,
            shadows,
        } => {
            if let Some(shadowed) = shadowed(cwd, path, shadows) {
                bail!(
                    "`{}` would stop being read once `{}` holds a rule file; move its rules \
                     into that directory first, or use `lens init agents-md`",
                    shadowed.display(),
                    cwd.join(path).parent().unwrap_or(cwd).display()
                );
            }
            changes.extend(add_own(agent, &root.join(path), front)?);
        }
        Place::Block { path } => {
            let path = root.join(path);
            let before = read(&path)?;
            if let Some(after) = Marks::markdown(agent).add(before.as_deref(), BODY) {
                changes.push(Change {
                    path,
                    before,
                    after: Some(after),
                });
            }
        }
        Place::Read {
            path,
            config,
            entry,
        } => {
            changes.extend(add_own(agent, &root.join(path), "")?);
            let config = root.join(config);
            let before = read(&config)?;
            if let Some(after) = read_list::add(agent, before.as_deref(), entry, &config)? {
                changes.push(Change {
                    path: config,
                    before,
                    after: Some(after),
                });
            }
        }
    }
    Ok(changes)
}

fn removals(agent: &str, place: Place<'_>, root: &Path) -> Result<Vec<Change>> {
    let mut changes = Vec::new();
    match place {
        Place::Own { path, front, .. } => {
            changes.extend(remove_own(agent, &root.join(path), front)?);
        }
        Place::Block { path } => {
            let path = root.join(path);
            let marks = Marks::markdown(agent);
            if let Some(text) = read(&path)?
                && (marks.opened(&text) || text.contains(&marks.end))
            {
                let after = marks.remove(&text, BODY, &path).or_else(|error| {
                    marks
                        .remove(&text, BODY_BEFORE_GREP, &path)
                        .map_err(|_| error)
                })?;
                changes.push(Change {
                    path,
                    before: Some(text),
                    after,
                });
            }
        }
        Place::Read {
            path,
            config,
            entry,
        } => {
            let config = root.join(config);
            if let Some(text) = read(&config)?
                && let Some(after) = read_list::remove(agent, &text, entry, &config)?
            {
                changes.push(Change {
                    path: config,
                    before: Some(text),
                    after,
                });
            }
            changes.extend(remove_own(agent, &root.join(path), "")?);
        }
    }
    Ok(changes)
}

/// A file lens owns, to be created; nothing when it is there already.
fn add_own(agent: &str, path: &Path, front: &str) -> Result<Option<Change>> {
    let text = own_text(agent, front);
    if let Some(dir) = path.parent()
        && dir.exists()
        && !dir.is_dir()
    {
        bail!(
            "`{}` is a file, not a directory: lens does not change it; use `lens init \
             agents-md`, or make it a directory of rule files",
            dir.display()
        );
    }
    match read(path)? {
        Some(current) if current == text => Ok(None),
        Some(_) => bail!(
            "`{}` exists and is not what lens writes; move it away or remove it by hand",
            path.display()
        ),
        None => Ok(Some(Change {
            path: path.to_owned(),
            before: None,
            after: Some(text),
        })),
    }
}

/// A file lens owns, to be removed; nothing when it is not there, an error when it was
/// edited.
fn remove_own(agent: &str, path: &Path, front: &str) -> Result<Option<Change>> {
    let text = own_text(agent, front);
    match read(path)? {
        None => Ok(None),
        Some(current) if current == text => Ok(Some(Change {
            path: path.to_owned(),
            before: Some(current),
            after: None,
        })),
        Some(current) if current.contains("written by `lens init ") => bail!(
            "`{}` was edited since lens wrote it; remove it by hand",
            path.display()
        ),
        Some(_) => Ok(None),
    }
}

/// A file in `cwd` the agent would stop reading if lens put the first file in the rules
/// directory of `path`.
fn shadowed(cwd: &Path, path: &str, shadows: &[&str]) -> Option<PathBuf> {
    let dir = cwd.join(path);
    let dir = dir.parent()?;
    let holds_a_file = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().any(|e| e.path().is_file()))
        .unwrap_or(false);
    if holds_a_file {
        return None;
    }
    shadows.iter().map(|s| cwd.join(s)).find(|p| p.is_file())
}

/// Make one change: keep the file it replaces under `backups/` in the state directory,
/// create the directories it needs and note them there, so that removing the file later
/// removes them too when they are empty.
fn apply(change: &Change, env: &dyn Fn(&str) -> Option<String>) -> Result<()> {
    let backups = crate::log::dir(env)
        .context("no state directory: set LENS_LOG_DIR or HOME")?
        .join("backups");
    let name = change
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let key = crate::handle::fnv1a32(change.path.display().to_string().as_bytes());
    let created_note = backups.join(format!("{name}-{key:08x}.dirs"));
    // A file lens wrote whole, or is about to remove, is its own text: only a file someone
    // else writes too is worth keeping.
    if let (Some(text), Some(_)) = (&change.before, &change.after) {
        write_file(&backups.join(format!("{name}-{key:08x}")), text)?;
    }
    match &change.after {
        Some(text) => {
            let missing: Vec<String> = change
                .path
                .parent()
                .into_iter()
                .flat_map(Path::ancestors)
                .take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists())
                .map(|dir| dir.display().to_string() + "\n")
                .collect();
            if !missing.is_empty() {
                write_file(&created_note, &missing.concat())?;
            }
            write_file(&change.path, text)
        }
        None => {
            std::fs::remove_file(&change.path)
                .with_context(|| format!("cannot remove `{}`", change.path.display()))?;
            if let Ok(Some(dirs)) = read(&created_note) {
                // Deepest first, as written; a directory something else was put in stays.
                for dir in dirs.lines() {
                    let _ = std::fs::remove_dir(dir);
                }
                let _ = std::fs::remove_file(&created_note);
            }
            Ok(())
        }
    }
}

/// What `lens init --list` says about each instruction-file agent: one line per agent and
/// scope, `agent\tscope\tpath\tstatus`.
pub fn list(env: &dyn Fn(&str) -> Option<String>, cwd: &Path) -> String {
    let home = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let mut out = String::new();
    for target in TARGETS {
        let scopes = [
            ("project", Some(target.project), Some(cwd.to_owned())),
            ("user", target.user, home.clone()),
        ];
        for (scope, place, root) in scopes {
            let (Some(place), Some(root)) = (place, root) else {
                continue;
            };
            let (shown, status) = status(target.agent, place, &root);
            out.push_str(&format!(
                "{}\t{scope}\t{}\t{status}\n",
                target.agent,
                shown.display()
            ));
        }
    }
    out
}

fn status(agent: &str, place: Place<'_>, root: &Path) -> (PathBuf, &'static str) {
    let has = |path: &Path, test: &dyn Fn(&str) -> bool| match read(path) {
        Ok(Some(text)) => Some(test(&text)),
        Ok(None) => None,
        Err(_) => Some(false),
    };
    match place {
        Place::Own { path, front, .. } => {
            let path = root.join(path);
            let text = own_text(agent, front);
            let found = has(&path, &|t| t == text);
            (path, word(found))
        }
        Place::Block { path } => {
            let path = root.join(path);
            let marks = Marks::markdown(agent);
            let found = has(&path, &|t| {
                marks.present(t, BODY) || marks.present(t, BODY_BEFORE_GREP)
            });
            (path, word(found))
        }
        Place::Read {
            path,
            config,
            entry,
        } => {
            let (path, config) = (root.join(path), root.join(config));
            let text = own_text(agent, "");
            let file = has(&path, &|t| t == text) == Some(true);
            let listed = has(&config, &|t| read_list::listed(agent, t, entry)) == Some(true);
            let status = match (file, listed) {
                (true, true) => "installed",
                (false, false) => "not installed",
                _ => "partly installed",
            };
            (config, status)
        }
    }
}

fn word(found: Option<bool>) -> &'static str {
    match found {
        Some(true) => "installed",
        Some(false) => "not installed",
        None => "not installed (no file)",
    }
}

/// Add the block to the Markdown file at `path` for `agent` (`lens init <agent>` names it
/// in the block, so its `--uninstall` takes it out); returns what to print.
pub fn install(
    path: &Path,
    agent: &str,
    dry_run: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String> {
    edit_block(path, agent, false, dry_run, env)
}

/// Take the block [`install`] added back out of `path`; returns what to print.
pub fn uninstall(
    path: &Path,
    agent: &str,
    dry_run: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String> {
    edit_block(path, agent, true, dry_run, env)
}

/// `agent`'s block as a file of its own would hold it (Cursor's rule file).
pub fn block(agent: &str) -> String {
    Marks::markdown(agent)
        .add(None, BODY)
        .expect("a block for an empty file")
}

/// Whether the Markdown file's text holds `agent`'s block.
pub fn installed(text: &str, agent: &str) -> bool {
    let marks = Marks::markdown(agent);
    marks.present(text, BODY) || marks.present(text, BODY_BEFORE_GREP)
}

fn edit_block(
    path: &Path,
    agent: &str,
    uninstall: bool,
    dry_run: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String> {
    let root = path.parent().unwrap_or(Path::new(""));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("`{}` names no file", path.display()))?;
    let edit = Edit {
        agent,
        place: Place::Block { path: name },
        root,
        flag: "",
    };
    edit.run(root, env, uninstall, dry_run)
}

mod read_list;

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(original: Option<&str>) {
        let marks = Marks::markdown("agents-md");
        let added = marks.add(original, BODY).expect("added");
        assert!(marks.present(&added, BODY));
        assert_eq!(marks.add(Some(&added), BODY), None, "never twice");
        let removed = marks.remove(&added, BODY, Path::new("AGENTS.md")).unwrap();
        assert_eq!(removed.as_deref(), original.filter(|t| !t.is_empty()));
    }

    #[test]
    fn removing_gives_back_the_file_byte_for_byte() {
        round_trip(None);
        round_trip(Some("# Project\n\nRun `make`.\n"));
        round_trip(Some("# Project\n\nno newline at the end"));
        round_trip(Some("ends with blank lines\n\n\n"));
        round_trip(Some("\n"));
    }

    #[test]
    fn the_agents_md_block_keeps_the_markers_it_was_installed_with() {
        // Blocks already installed by `lens init agents-md` must still be found.
        let marks = Marks::markdown("agents-md");
        assert_eq!(
            marks.begin,
            "<!-- lens: begin (added by `lens init agents-md`; remove with `lens init agents-md --uninstall`) -->\n"
        );
        assert_eq!(marks.end, "<!-- lens: end -->\n");
    }

    #[test]
    fn edits_around_the_block_are_kept() {
        let marks = Marks::markdown("agents-md");
        let added = marks.add(Some("# Top\n"), BODY).unwrap();
        let edited = format!("{added}\n## Later section\n");
        let removed = marks
            .remove(&edited, BODY, Path::new("AGENTS.md"))
            .unwrap()
            .unwrap();
        assert_eq!(removed, "# Top\n\n## Later section\n");
    }

    #[test]
    fn an_edited_block_is_an_error_not_a_guess() {
        let marks = Marks::markdown("agents-md");
        let added = marks
            .add(Some("# Top\n"), BODY)
            .unwrap()
            .replace("lens show", "lens  show");
        let error = marks
            .remove(&added, BODY, Path::new("AGENTS.md"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("was edited"), "{error}");
        let error = marks
            .remove("# nothing\n", BODY, Path::new("AGENTS.md"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("no lens block"), "{error}");
    }

    #[test]
    fn the_text_says_when_to_use_lens_and_how_to_get_lines_back() {
        assert!(BODY.contains("lens show 1a2b3c4d --lines 10-51"));
        assert!(BODY.contains("--grep"));
        assert!(BODY.contains("`cmd | grep`"));
        assert!(BODY.lines().all(|l| l.len() <= 92), "short lines");
        assert!(own_text("windsurf", "---\ntrigger: always_on\n---\n\n").starts_with("---\n"));
    }

    #[test]
    fn install_and_uninstall_edit_any_markdown_file_for_a_named_agent() {
        let dir = std::env::temp_dir().join(format!("lens-instr-api-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let state = dir.join("state").display().to_string();
        let env = move |key: &str| (key == "LENS_LOG_DIR").then(|| state.clone());
        let path = dir.join("AGENTS.md");
        std::fs::write(&path, "# Codex notes").unwrap();
        let out = install(&path, "codex", false, &env).unwrap();
        assert!(
            out.contains("undo with `lens init codex --uninstall`"),
            "{out}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(installed(&text, "codex") && !installed(&text, "agents-md"));
        assert!(text.contains("added by `lens init codex`"), "{text}");
        let again = install(&path, "codex", false, &env).unwrap();
        assert!(again.contains("already installed"), "{again}");
        uninstall(&path, "codex", false, &env).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# Codex notes");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_agent_is_in_the_table_once() {
        let agents: Vec<&str> = TARGETS.iter().map(|t| t.agent).collect();
        assert_eq!(agents, ["agents-md", "aider", "cline", "roo", "windsurf"]);
        assert!(target("roo").is_some() && target("claude").is_none());
    }
}
