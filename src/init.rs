//! `lens init <agent>`: wire `lens hook` into an agent's settings, and take it back out.
//!
//! For Claude Code the file is `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json`
//! when that is set), or `.claude/settings.json` under the current directory with
//! `--project`; the entries are one `PreToolUse` and one `PostToolUse` matcher group for
//! `Bash`, each running this binary's `hook claude [--post]` (hooks reference,
//! https://code.claude.com/docs/en/hooks, "Configuration": `hooks.<Event>[].matcher` and
//! `.hooks[]` of `{"type": "command", "command": ...}`). Gemini CLI takes hooks in the same
//! shape in `~/.gemini/settings.json` or `.gemini/settings.json`: one `BeforeTool` group for
//! `run_shell_command` ([`GEMINI`]). Agents that read instructions rather than run a hook
//! (`agents-md`, `aider`, `cline`, `roo`, `windsurf`) get a different edit, a short text in
//! their rules, and live in `instructions.rs`.
//!
//! The edit touches nothing else. The file is read as ordered members kept as written
//! (`json::Fields`), so every unrelated setting and hook comes back as it was; only the
//! `hooks` member and the two event arrays are laid out again, in the file's own style
//! (one member per line, or compact). It is idempotent: an entry already there is not
//! added twice. Before the first change the file is copied to `settings.json.lens-backup`
//! and `settings.json.lens-init` records what was written and which containers lens
//! created. `--uninstall` restores the backup byte for byte when the file is still exactly
//! what lens wrote (removing the file, and a directory lens created, when there was none
//! before); when the file changed since, it removes exactly lens's entries and the
//! containers lens created, if they are empty. `--dry-run` prints the change as a line
//! diff and writes nothing. `lens init --list` says where the hooks are installed.

use crate::cli::InitArgs;
use crate::instructions;
use crate::json::{self, Fields};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The agents `lens init` knows.
pub const AGENTS: &[&str] = &[
    "claude",
    "gemini",
    "agents-md",
    "aider",
    "cline",
    "roo",
    "windsurf",
    "codex",
    "copilot",
    "cursor",
    "opencode",
];

/// An agent whose settings file takes hooks in Claude Code's shape: `hooks.<Event>[]` of
/// `{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}`.
struct Target {
    agent: &'static str,
    /// The events and the hook arguments lens installs.
    events: &'static [(&'static str, &'static str)],
    /// The shell tool's name, as the matcher.
    matcher: &'static str,
    /// The settings directory under the project or HOME.
    dir: &'static str,
    /// An environment variable that moves the user-level directory.
    dir_var: Option<&'static str>,
}

/// Claude Code: hooks reference, https://code.claude.com/docs/en/hooks.
const CLAUDE: Target = Target {
    agent: "claude",
    events: &[
        ("PreToolUse", "hook claude"),
        ("PostToolUse", "hook claude --post"),
    ],
    matcher: "Bash",
    dir: ".claude",
    dir_var: Some("CLAUDE_CONFIG_DIR"),
};

/// Gemini CLI: google-gemini/gemini-cli `docs/hooks/reference.md`, "Configuration
/// schema"; `~/.gemini/settings.json` or `.gemini/settings.json`, hooks enabled by default
/// (`hooksConfig.enabled` in `packages/cli/src/config/settingsSchema.ts`). BeforeTool only:
/// see `hook/gemini.rs` for why there is no AfterTool entry.
const GEMINI: Target = Target {
    agent: "gemini",
    events: &[("BeforeTool", "hook gemini")],
    matcher: "run_shell_command",
    dir: ".gemini",
    dir_var: None,
};

/// What `settings.json.lens-init` records about an install.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct State {
    /// Whether the file existed before lens edited it (the backup holds it).
    existed: bool,
    /// Whether lens created the file's directory.
    created_dir: bool,
    /// The file's text as lens wrote it.
    installed: String,
    /// The containers lens added: `hooks`, `hooks.PreToolUse`, `hooks.PostToolUse`.
    created: Vec<String>,
}

/// Run `lens init`; returns the exit status.
pub fn run(args: InitArgs) -> i32 {
    let env = |key: &str| std::env::var(key).ok();
    let cwd = std::env::current_dir().unwrap_or_default();
    let result = match (&args.agent, args.list) {
        (None, _) | (Some(_), true) => list(&env, &cwd),
        (Some(agent), false) if let Some(target) = instructions::target(agent) => {
            instructions::run(
                target,
                &cwd,
                &env,
                args.project,
                args.uninstall,
                args.dry_run,
            )
        }
        (Some(agent), false) if FILES.iter().any(|t| t.agent == agent) => {
            let target = FILES.iter().find(|t| t.agent == agent).expect("just found");
            file_target(target, &args, &env, &cwd)
        }
        (Some(agent), false) if AGENTS.contains(&agent.as_str()) => {
            let target = if agent == "gemini" { &GEMINI } else { &CLAUDE };
            let Some(path) = settings_path(target, &env, &cwd, args.project) else {
                eprintln!("lens: no home directory: set HOME");
                return 1;
            };
            let exe = hook_program();
            if args.uninstall {
                uninstall(target, &path, args.dry_run)
            } else {
                install(target, &path, &exe, args.dry_run, args.project)
            }
        }
        (Some(agent), false) => {
            eprintln!(
                "lens: no `lens init` for `{agent}` (agents: {})",
                AGENTS.join(", ")
            );
            return 2;
        }
    };
    match result {
        Ok(message) => {
            print!("{message}");
            0
        }
        Err(error) => {
            eprintln!("lens: {error:#}");
            1
        }
    }
}

/// An agent's settings file for a scope.
fn settings_path(
    target: &Target,
    env: &dyn Fn(&str) -> Option<String>,
    cwd: &Path,
    project: bool,
) -> Option<PathBuf> {
    if project {
        return Some(cwd.join(target.dir).join("settings.json"));
    }
    if let Some(dir) = target.dir_var.and_then(env).filter(|d| !d.is_empty()) {
        return Some(Path::new(&dir).join("settings.json"));
    }
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(target.dir).join("settings.json"))
}

/// How the hook command names this binary: its absolute path, quoted for the shell Claude
/// Code runs hook commands with when it holds anything but plain characters.
fn hook_program() -> String {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "lens".into());
    if exe
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        exe
    } else {
        format!("'{}'", exe.replace('\'', "'\\''"))
    }
}

/// Whether a hook command is one lens installed: `<…/lens> hook claude[ --post]`.
fn is_ours(command: &str, args: &str) -> bool {
    command.strip_suffix(args).is_some_and(|program| {
        let program = program.trim_end().trim_matches('\'');
        program.rsplit('/').next() == Some("lens") && program.len() < command.len()
    })
}

fn side_paths(path: &Path) -> (PathBuf, PathBuf) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (
        path.with_file_name(format!("{name}.lens-backup")),
        path.with_file_name(format!("{name}.lens-init")),
    )
}

/// The settings file's text, `None` when there is none.
pub(crate) fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .with_context(|| format!("`{}` is not UTF-8", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read `{}`", path.display())),
    }
}

/// The file's style: the indent unit of its first indented line, or compact.
fn style(text: Option<&str>) -> Option<String> {
    let Some(text) = text else {
        return Some("  ".into());
    };
    if !text.trim().contains('\n') {
        return None;
    }
    let unit: String = text
        .lines()
        .skip(1)
        .find(|l| l.starts_with([' ', '\t']))
        .map(|l| l.chars().take_while(|c| *c == ' ' || *c == '\t').collect())
        .unwrap_or_else(|| "  ".into());
    Some(unit)
}

/// Whether any group of `event` in `hooks` holds lens's hook.
fn installed(hooks: &Fields, event: &str, args: &str) -> bool {
    let Some(groups) = hooks.get(event).and_then(|raw| json::items(raw.get())) else {
        return false;
    };
    groups
        .iter()
        .any(|group| group_commands(group.get()).iter().any(|c| is_ours(c, args)))
}

/// The `command` of every hook in one matcher group.
fn group_commands(group: &str) -> Vec<String> {
    let hooks =
        Fields::parse(group).and_then(|g| g.get("hooks").and_then(|h| json::items(h.get())));
    hooks
        .unwrap_or_default()
        .iter()
        .filter_map(|h| Fields::parse(h.get())?.string("command"))
        .collect()
}

fn parse_settings(text: Option<&str>, path: &Path) -> Result<Fields> {
    match text {
        None => Ok(Fields(Vec::new())),
        Some(t) if t.trim().is_empty() => Ok(Fields(Vec::new())),
        Some(t) => Fields::parse(t)
            .with_context(|| format!("`{}` is not a JSON object lens can edit", path.display())),
    }
}

fn hooks_of(settings: &Fields, path: &Path) -> Result<Fields> {
    match settings.get("hooks") {
        None => Ok(Fields(Vec::new())),
        Some(raw) => Fields::parse(raw.get())
            .with_context(|| format!("`hooks` in `{}` is not an object", path.display())),
    }
}

fn install(
    target: &Target,
    path: &Path,
    exe: &str,
    dry_run: bool,
    project: bool,
) -> Result<String> {
    let agent = target.agent;
    let before = read(path)?;
    let mut settings = parse_settings(before.as_deref(), path)?;
    let mut hooks = hooks_of(&settings, path)?;
    let indent = style(before.as_deref());
    let unit = indent.as_deref();
    let mut created = Vec::new();
    if settings.get("hooks").is_none() {
        created.push("hooks".to_owned());
    }
    let mut changed = false;
    for &(event, args) in target.events {
        if installed(&hooks, event, args) {
            continue;
        }
        let mut groups: Vec<String> = match hooks.get(event) {
            Some(raw) => json::items(raw.get())
                .with_context(|| {
                    format!("`hooks.{event}` in `{}` is not an array", path.display())
                })?
                .iter()
                .map(|g| g.get().to_owned())
                .collect(),
            None => {
                created.push(format!("hooks.{event}"));
                Vec::new()
            }
        };
        let command = serde_json::to_string(&format!("{exe} {args}"))?;
        let hook = Fields(vec![
            (
                "type".into(),
                serde_json::value::RawValue::from_string("\"command\"".into())?,
            ),
            (
                "command".into(),
                serde_json::value::RawValue::from_string(command)?,
            ),
        ]);
        let group = Fields(vec![
            (
                "matcher".into(),
                serde_json::value::RawValue::from_string(serde_json::to_string(target.matcher)?)?,
            ),
            (
                "hooks".into(),
                serde_json::value::RawValue::from_string(json::render_items(
                    &[hook.render(unit, 5)],
                    unit,
                    4,
                ))?,
            ),
        ]);
        groups.push(group.render(unit, 3));
        hooks
            .set(event, json::render_items(&groups, unit, 2))
            .context("an event array lens built")?;
        changed = true;
    }
    if !changed {
        return Ok(format!(
            "lens init {agent}: already installed in `{}`; nothing changed\n",
            path.display()
        ));
    }
    settings
        .set("hooks", hooks.render(unit, 1))
        .context("the hooks object lens built")?;
    let after = settings.render(unit, 0) + "\n";
    if dry_run {
        return Ok(format!(
            "lens init {agent}: would edit `{}`:\n{}",
            path.display(),
            diff(before.as_deref().unwrap_or(""), &after)
        ));
    }
    let (backup, state_path) = side_paths(path);
    let created_dir = !path.parent().is_some_and(Path::exists);
    // The backup and the state hold the whole file: they are as private as it is.
    let private = std::fs::metadata(path).ok().map(|m| m.permissions());
    let guarded = |side: &Path, text: &str| -> Result<()> {
        write_file(side, text)?;
        if let Some(mode) = &private {
            std::fs::set_permissions(side, mode.clone())
                .with_context(|| format!("cannot set the mode of `{}`", side.display()))?;
        }
        Ok(())
    };
    if let Some(text) = &before {
        guarded(&backup, text)?;
    }
    let state = State {
        existed: before.is_some(),
        created_dir,
        installed: after.clone(),
        created,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
    }
    guarded(&state_path, &serde_json::to_string_pretty(&state)?)?;
    write_file(path, &after)?;
    let kept = if before.is_some() {
        format!("; the previous file is in `{}`", backup.display())
    } else {
        String::new()
    };
    Ok(format!(
        "lens init {agent}: added {} hooks for {} to `{}`{kept}\nundo with `lens init {agent} --uninstall{}`\n",
        target
            .events
            .iter()
            .map(|(e, _)| *e)
            .collect::<Vec<_>>()
            .join(" and "),
        target.matcher,
        path.display(),
        if project { " --project" } else { "" }
    ))
}

fn uninstall(target: &Target, path: &Path, dry_run: bool) -> Result<String> {
    let agent = target.agent;
    let (backup, state_path) = side_paths(path);
    let current = read(path)?;
    let state: Option<State> = read(&state_path)?.and_then(|t| serde_json::from_str(&t).ok());
    let (after, restore) = match (&state, &current) {
        (Some(state), Some(text)) if *text == state.installed => {
            let original = if state.existed {
                Some(
                    read(&backup)?
                        .with_context(|| format!("the backup `{}` is missing", backup.display()))?,
                )
            } else {
                None
            };
            (original, true)
        }
        (_, Some(text)) => {
            let mut settings = parse_settings(Some(text), path)?;
            let mut hooks = hooks_of(&settings, path)?;
            let created = state
                .as_ref()
                .map(|s| s.created.clone())
                .unwrap_or_default();
            let mut found = false;
            for &(event, args) in target.events {
                let Some(raw) = hooks.get(event) else {
                    continue;
                };
                let Some(groups) = json::items(raw.get()) else {
                    continue;
                };
                let kept: Vec<String> = groups
                    .iter()
                    .filter_map(|g| without_ours(g.get(), args, &mut found))
                    .collect();
                if kept.is_empty() && created.contains(&format!("hooks.{event}")) {
                    hooks.remove(event);
                } else {
                    hooks
                        .set(
                            event,
                            json::render_items(&kept, style(Some(text)).as_deref(), 2),
                        )
                        .context("an event array")?;
                }
            }
            if !found {
                return Ok(format!(
                    "lens init {agent}: not installed in `{}`; nothing changed\n",
                    path.display()
                ));
            }
            let unit = style(Some(text));
            if hooks.0.is_empty() && created.contains(&"hooks".to_owned()) {
                settings.remove("hooks");
            } else {
                settings
                    .set("hooks", hooks.render(unit.as_deref(), 1))
                    .context("the hooks object")?;
            }
            (Some(settings.render(unit.as_deref(), 0) + "\n"), false)
        }
        (_, None) => {
            return Ok(format!(
                "lens init {agent}: `{}` does not exist; nothing changed\n",
                path.display()
            ));
        }
    };
    if dry_run {
        let before = current.as_deref().unwrap_or("");
        return Ok(format!(
            "lens init {agent} --uninstall: would edit `{}`:\n{}",
            path.display(),
            diff(before, after.as_deref().unwrap_or(""))
        ));
    }
    match &after {
        Some(text) => write_file(path, text)?,
        None => std::fs::remove_file(path)
            .with_context(|| format!("cannot remove `{}`", path.display()))?,
    }
    let _ = std::fs::remove_file(&state_path);
    let _ = std::fs::remove_file(&backup);
    if restore
        && state.as_ref().is_some_and(|s| s.created_dir)
        && let Some(dir) = path.parent()
    {
        let _ = std::fs::remove_dir(dir); // only when empty
    }
    Ok(format!(
        "lens init {agent} --uninstall: {} `{}`\n",
        if restore {
            "restored"
        } else {
            "removed lens's hooks from"
        },
        path.display()
    ))
}

/// A matcher group with lens's hook taken out; `None` when nothing else was in it.
fn without_ours(group: &str, args: &str, found: &mut bool) -> Option<String> {
    let fields = Fields::parse(group)?;
    let Some(hooks) = fields.get("hooks").and_then(|h| json::items(h.get())) else {
        return Some(group.to_owned());
    };
    let mine = |h: &serde_json::value::RawValue| {
        Fields::parse(h.get())
            .and_then(|f| f.string("command"))
            .is_some_and(|c| is_ours(&c, args))
    };
    if !hooks.iter().any(|h| mine(h)) {
        return Some(group.to_owned());
    }
    *found = true;
    let kept: Vec<String> = hooks
        .iter()
        .filter(|h| !mine(h))
        .map(|h| h.get().to_owned())
        .collect();
    if kept.is_empty() {
        return None;
    }
    let mut fields = fields;
    fields.set("hooks", json::render_items(&kept, None, 0))?;
    Some(fields.render(None, 0))
}

/// The instruction block in another agent's instruction file (`name` is then `lens init`'s
/// words for it, e.g. `codex --project`). The file before each change is copied into lens's
/// state directory (`backups/`), not beside it, where it would show up in the project's
/// version control.
fn instruction_block(
    name: &str,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    uninstall: bool,
    dry_run: bool,
) -> Result<String> {
    // The block names the command that added it, scope and all, so its own words say
    // how to take it out.
    let existed = path.exists();
    if !uninstall && !existed && !dry_run {
        record_created_dirs(name, path, env)?;
    }
    let message = if uninstall {
        instructions::uninstall(path, name, dry_run, env)?
    } else {
        instructions::install(path, name, dry_run, env)?
    };
    if uninstall && !dry_run && existed && !path.exists() {
        remove_created_dirs(name, path, env);
    }
    Ok(message)
}

fn list(env: &dyn Fn(&str) -> Option<String>, cwd: &Path) -> Result<String> {
    let mut out = String::new();
    let scopes = [("user", false), ("project", true)];
    for (target, (scope, project)) in [&CLAUDE, &GEMINI]
        .into_iter()
        .flat_map(|t| scopes.map(|s| (t, s)))
    {
        let Some(path) = settings_path(target, env, cwd, project) else {
            continue;
        };
        let text = read(&path).ok().flatten();
        let status = match text
            .as_deref()
            .map(|t| parse_settings(Some(t), &path).and_then(|s| hooks_of(&s, &path)))
        {
            None => "not installed (no file)".to_owned(),
            Some(Err(_)) => "unreadable".to_owned(),
            Some(Ok(hooks)) => {
                let events: Vec<&str> = target
                    .events
                    .iter()
                    .filter(|(e, a)| installed(&hooks, e, a))
                    .map(|(e, _)| *e)
                    .collect();
                if events.is_empty() {
                    "not installed".to_owned()
                } else {
                    format!("installed ({})", events.join(", "))
                }
            }
        };
        out.push_str(&format!(
            "{}\t{scope}\t{}\t{status}\n",
            target.agent,
            path.display()
        ));
    }
    out.push_str(&instructions::list(env, cwd));
    out.push_str(&list_files(env, cwd));
    Ok(out)
}

// Agents wired in through a file rather than a hook entry.
//
// Codex CLI, GitHub Copilot CLI and Cursor can rewrite a shell command from a hook only by
// approving it in the same answer, and lens never approves anything (INTERFACE.md,
// "Agents"), so each gets lens's instruction block in a file it reads instead:
//
// - Codex CLI: a PreToolUse `updatedInput` is rejected unless it comes with
//   `permissionDecision: "allow"` (openai/codex#20527, "Accept updatedInput from PreToolUse
//   hooks when paired with permissionDecision: allow"; the check is in
//   `codex-rs/hooks/src/engine/output_parser.rs`; reported as a limitation in
//   openai/codex#46664). Codex reads `AGENTS.md` from the project and `AGENTS.md` in
//   `$CODEX_HOME` (default `~/.codex`) for every project (openai/codex `docs/agents_md.md`).
// - GitHub Copilot CLI: `preToolUse` may return `modifiedArgs`, but the permission service
//   runs after it on the modified command, with deny rules that exist only as command-line
//   flags (`--deny-tool`) a hook cannot read, and saved approvals keyed by the command's
//   first word (`permissions-config.json` `commandIdentifiers`), so one "always allow" of
//   `lens` would approve every rewritten command (docs.github.com, "GitHub Copilot CLI hooks
//   reference" and "CLI configuration directory"; github/copilot-cli#2643). Output can be
//   replaced after a tool only by SDK hooks, not command hooks (same reference,
//   `postToolUse`). Copilot CLI reads `.github/copilot-instructions.md` in the project and
//   `copilot-instructions.md` in `$COPILOT_HOME` (default `~/.copilot`) in every project.
// - Cursor: `beforeShellExecution` answers only `permission`, `user_message` and
//   `agent_message` (cursor.com/docs/agent/hooks), and an `updated_input` is applied only
//   with `permission: "allow"` or `"deny"` (rtk-ai/rtk#3213), so a rewrite is an approval;
//   `afterShellExecution` cannot change what the agent sees. Cursor reads project rules
//   from `.cursor/rules/*.mdc` (cursor.com/docs/context/rules; `alwaysApply: true` puts a
//   rule in every request); user rules live in its settings, not in a file, so `lens init
//   cursor` writes the project's rule with or without `--project`.
//
// OpenCode has no settings file for hooks but loads plugins: `lens init opencode` writes
// the plugin of `hook/opencode.rs` to `plugins/lens.js` in its config directory
// (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`; `.opencode` with `--project`).
//
// An instruction block goes through `instructions` (appended to a file that may hold
// other text, removed exactly), backed up as for `agents-md`. A file of lens's own (the
// Cursor rule, the OpenCode plugin) is created whole, and `--uninstall` deletes it when it
// is still what lens wrote, together with the directories lens created for it (recorded in
// the state directory, `backups/<agent>-<key>.dirs`); an edited one is left with an error.

/// An agent `lens init` wires in through a file.
struct FileTarget {
    agent: &'static str,
    /// The file under the project (the current directory).
    project: &'static str,
    /// The user-level file: an environment variable naming its directory, the directory
    /// under HOME otherwise, and the file name. `None`: the agent has no user-level file.
    user: Option<(&'static str, &'static str, &'static str)>,
    /// A whole file of lens's own, or `None` for the instruction block.
    own: Option<fn(&str) -> String>,
}

const FILES: &[FileTarget] = &[
    FileTarget {
        agent: "codex",
        project: "AGENTS.md",
        user: Some(("CODEX_HOME", ".codex", "AGENTS.md")),
        own: None,
    },
    FileTarget {
        agent: "copilot",
        project: ".github/copilot-instructions.md",
        user: Some(("COPILOT_HOME", ".copilot", "copilot-instructions.md")),
        own: None,
    },
    FileTarget {
        agent: "cursor",
        project: ".cursor/rules/lens.mdc",
        user: None,
        own: Some(cursor_rule),
    },
    FileTarget {
        agent: "opencode",
        project: ".opencode/plugins/lens.js",
        user: Some(("XDG_CONFIG_HOME", ".config", "opencode/plugins/lens.js")),
        own: Some(opencode_plugin),
    },
];

/// The Cursor rule: frontmatter that applies it to every request, then the block.
fn cursor_rule(_exe: &str) -> String {
    let block = instructions::block("cursor");
    format!(
        "---\ndescription: Use lens for commands with long output\nalwaysApply: true\n---\n\n{block}"
    )
}

fn opencode_plugin(exe: &str) -> String {
    let exe = exe.trim_matches('\'').replace("'\\''", "'");
    let quoted = serde_json::to_string(&exe).unwrap_or_else(|_| "\"lens\"".into());
    crate::hook::opencode::PLUGIN.replace("@LENS@", &quoted)
}

/// The file for a scope; `None` when the user-level one has no home to go in.
fn target_path(
    target: &FileTarget,
    env: &dyn Fn(&str) -> Option<String>,
    cwd: &Path,
    project: bool,
) -> Option<PathBuf> {
    let Some((var, dir, file)) = target.user.filter(|_| !project) else {
        return Some(cwd.join(target.project));
    };
    if let Some(base) = env(var).filter(|d| !d.is_empty()) {
        // XDG_CONFIG_HOME names the base, the others the agent's own directory.
        return Some(if var == "XDG_CONFIG_HOME" {
            Path::new(&base).join(file)
        } else {
            Path::new(&base).join(file.rsplit('/').next().unwrap_or(file))
        });
    }
    env("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(dir).join(file))
}

fn file_target(
    target: &FileTarget,
    args: &InitArgs,
    env: &dyn Fn(&str) -> Option<String>,
    cwd: &Path,
) -> Result<String> {
    let project = args.project || target.user.is_none();
    let path = target_path(target, env, cwd, project).context("no home directory: set HOME")?;
    let name = if args.project {
        format!("{} --project", target.agent)
    } else {
        target.agent.to_owned()
    };
    match target.own {
        None => instruction_block(&name, &path, env, args.uninstall, args.dry_run),
        Some(content) => {
            let text = content(&hook_program());
            own_file(&name, &path, &text, env, args.uninstall, args.dry_run)
        }
    }
}

/// Where lens records the directories it created for a file of its own.
fn dirs_record(agent: &str, path: &Path, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let key = crate::handle::fnv1a32(path.display().to_string().as_bytes());
    let agent = agent.split(' ').next().unwrap_or(agent);
    crate::log::dir(env).map(|d| d.join("backups").join(format!("{agent}-{key:08x}.dirs")))
}

/// Record the directories that writing `path` will create, so `--uninstall` can take
/// them back too.
fn record_created_dirs(
    name: &str,
    path: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<()> {
    let created: Vec<PathBuf> = path
        .ancestors()
        .skip(1)
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    if created.is_empty() {
        return Ok(());
    }
    let record = dirs_record(name, path, env)
        .context("no state directory to record what lens creates: set LENS_LOG_DIR or HOME")?;
    let lines: String = created
        .iter()
        .map(|d| format!("{}\n", d.display()))
        .collect();
    write_file(&record, &lines)
}

/// Remove the directories lens recorded creating for `path`, those that are empty.
fn remove_created_dirs(name: &str, path: &Path, env: &dyn Fn(&str) -> Option<String>) {
    if let Some(record) = dirs_record(name, path, env) {
        let created = read(&record).ok().flatten().unwrap_or_default();
        for dir in created.lines() {
            let _ = std::fs::remove_dir(dir); // only when empty
        }
        let _ = std::fs::remove_file(&record);
    }
}

fn own_file(
    name: &str,
    path: &Path,
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
    uninstall: bool,
    dry_run: bool,
) -> Result<String> {
    let agent = name.split(' ').next().unwrap_or(name);
    let current = read(path)?;
    let first_line = text.lines().next().unwrap_or_default();
    let ours = |t: &str| t.starts_with(first_line) || t.contains("added by `lens init");
    if uninstall {
        let Some(current) = current else {
            return Ok(format!(
                "lens init {agent}: `{}` does not exist; nothing changed\n",
                path.display()
            ));
        };
        // The plugin names this binary; one written by a lens elsewhere is still lens's.
        let unchanged = current == text
            || (agent == "opencode" && current.starts_with(first_line) && {
                let exe = current
                    .lines()
                    .find_map(|l| l.strip_prefix("const LENS = "))
                    .and_then(|q| serde_json::from_str::<String>(q).ok());
                exe.is_some_and(|exe| current == opencode_plugin(&exe))
            });
        if !unchanged {
            bail!(
                "`{}` is not the file `lens init {agent}` wrote (it was edited, or is not lens's); remove it by hand",
                path.display()
            );
        }
        if dry_run {
            return Ok(format!(
                "lens init {agent} --uninstall: would remove `{}`:\n{}",
                path.display(),
                diff(&current, "")
            ));
        }
        std::fs::remove_file(path)
            .with_context(|| format!("cannot remove `{}`", path.display()))?;
        remove_created_dirs(name, path, env);
        return Ok(format!(
            "lens init {agent} --uninstall: removed `{}`\n",
            path.display()
        ));
    }
    match &current {
        Some(t) if t == text => {
            return Ok(format!(
                "lens init {agent}: already installed in `{}`; nothing changed\n",
                path.display()
            ));
        }
        Some(t) if ours(t) => bail!(
            "`{}` holds an older or edited lens file; run `lens init {name} --uninstall` or remove it, then install again",
            path.display()
        ),
        Some(_) => bail!(
            "`{}` exists and is not lens's; nothing changed",
            path.display()
        ),
        None => {}
    }
    if dry_run {
        return Ok(format!(
            "lens init {agent}: would create `{}`:\n{}",
            path.display(),
            diff("", text)
        ));
    }
    record_created_dirs(name, path, env)?;
    write_file(path, text)?;
    Ok(format!(
        "lens init {agent}: created `{}`; undo with `lens init {name} --uninstall`\n",
        path.display()
    ))
}

/// `lens init --list` lines for the file targets.
fn list_files(env: &dyn Fn(&str) -> Option<String>, cwd: &Path) -> String {
    let mut out = String::new();
    for target in FILES {
        let scopes: &[(&str, bool)] = if target.user.is_some() {
            &[("user", false), ("project", true)]
        } else {
            &[("project", true)]
        };
        for &(scope, project) in scopes {
            let Some(path) = target_path(target, env, cwd, project) else {
                continue;
            };
            let status = match read(&path) {
                Ok(None) => "not installed (no file)",
                Err(_) => "unreadable",
                Ok(Some(text)) => {
                    let installed = match target.own {
                        Some(_) => text.contains(&format!("`lens init {}`", target.agent)),
                        None => {
                            instructions::installed(&text, target.agent)
                                || instructions::installed(
                                    &text,
                                    &format!("{} --project", target.agent),
                                )
                        }
                    };
                    if installed {
                        "installed"
                    } else {
                        "not installed"
                    }
                }
            };
            out.push_str(&format!(
                "{}\t{scope}\t{}\t{status}\n",
                target.agent,
                path.display()
            ));
        }
    }
    out
}

/// Write `text` to `path` through a temporary file and a rename, keeping the file's mode.
pub(crate) fn write_file(path: &Path, text: &str) -> Result<()> {
    let Some(dir) = path.parent() else {
        bail!("`{}` has no directory", path.display())
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let temp = path.with_file_name(format!(
        ".{}.lens-tmp",
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    std::fs::write(&temp, text).with_context(|| format!("cannot write `{}`", temp.display()))?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&temp, meta.permissions());
    }
    std::fs::rename(&temp, path).with_context(|| format!("cannot replace `{}`", path.display()))
}

/// A line diff of `before` and `after`: `-` and `+` lines, unchanged ones indented.
pub(crate) fn diff(before: &str, after: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    // Longest common subsequence table; settings files are small.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", a[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("- {}\n", a[i]));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lens_s_own_hook_commands_are_recognised() {
        assert!(is_ours("/usr/local/bin/lens hook claude", "hook claude"));
        assert!(is_ours("lens hook claude --post", "hook claude --post"));
        assert!(is_ours("'/opt/my tools/lens' hook claude", "hook claude"));
        assert!(!is_ours("/usr/bin/lens hook claude --post", "hook claude"));
        assert!(!is_ours("mylens hook claude", "hook claude"));
        assert!(!is_ours("hook claude", "hook claude"));
    }

    #[test]
    fn style_follows_the_file() {
        assert_eq!(style(None).as_deref(), Some("  "));
        assert_eq!(style(Some("{\"a\":1}")), None);
        assert_eq!(style(Some("{\n    \"a\": 1\n}\n")).as_deref(), Some("    "));
        assert_eq!(style(Some("{\n\t\"a\": 1\n}\n")).as_deref(), Some("\t"));
    }

    #[test]
    fn diff_marks_added_and_removed_lines() {
        assert_eq!(diff("a\nb\nc\n", "a\nx\nc\n"), "  a\n- b\n+ x\n  c\n");
        assert_eq!(diff("", "a\n"), "+ a\n");
    }
}
