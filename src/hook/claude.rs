//! Claude Code's hooks: PreToolUse (rewrite the Bash command) and PostToolUse (replace the
//! Bash tool's output).
//!
//! Format, from the hooks reference (https://code.claude.com/docs/en/hooks, sections
//! "PreToolUse", "PostToolUse" and "JSON output") and checked against the source of
//! `@anthropic-ai/claude-code` 2.1.197 from the npm registry:
//!
//! - Input, on stdin: `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input":
//!   {"command": ..., "description": ..., "timeout": ..., ...}, "cwd": ..., ...}`;
//!   PostToolUse adds `"tool_response": {"stdout", "stderr", "interrupted", "isImage"?,
//!   "persistedOutputPath"?, "returnCodeInterpretation"?, "backgroundTaskId"?, ...}`. It fires
//!   only after a tool call succeeded (a failing Bash command goes to PostToolUseFailure),
//!   so its exit status is 0.
//! - Rewrite: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput":
//!   {...}}}`. `updatedInput` replaces the whole input object, so every other field is
//!   copied back byte for byte. No `permissionDecision` is sent, ever: without one, Claude
//!   Code 2.1.197 applies the input (`hookUpdatedInput`) and runs its normal permission
//!   check; "allow" would skip the prompt. An input that fails the tool's schema is denied,
//!   which is why nothing but `command` changes.
//! - Output: `{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput":
//!   {...}}}`, which must match the tool's output shape (for Bash the object above) or it
//!   is ignored; the other fields are copied back untouched. Several releases ignored it
//!   for Bash (anthropics/claude-code#54196, #68951): then the agent sees the original
//!   output, which is safe.
//! - No opinion: exit 0 with nothing on stdout. Exit 2 would block the tool call, so no
//!   failure here ever exits 2.
//!
//! Permission rules are matched against the command the hook returns, not the one Claude
//! sent (hooks reference, `updatedInput`; anthropics/claude-code#65393 and #89448 show a
//! `Bash(rm -rf:*)` deny rule turning into a prompt behind a rewriting hook). So before
//! rewriting, [`Rules`] reads every settings file whose rules could apply (managed, user,
//! and `.claude/settings.json` and `settings.local.json` in the project directory and
//! every directory above the command's cwd) and leaves alone any command a `deny` or `ask`
//! rule could match, or that an `allow` rule would match only once `lens` is in front. A
//! command an `allow` rule matches as typed is left alone too: rewritten, it would stop
//! matching and prompt every time; its output still goes through the PostToolUse hook. A
//! settings file that exists but cannot be read is a reason to leave every command alone.

use super::view_of;
use crate::json::Fields;
use crate::shell;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The answer to a PreToolUse payload; `None` is no opinion.
pub fn before(payload: &[u8], env: &dyn Fn(&str) -> Option<String>) -> Option<Vec<u8>> {
    let payload: Payload = serde_json::from_slice(payload).ok()?;
    if payload.tool_name != "Bash" || payload.event.as_deref().is_some_and(|e| e != "PreToolUse") {
        return None;
    }
    let command = payload.tool_input.string("command")?;
    let rewritten = super::rewrite(&command, env)?;
    let cwd = payload.cwd.as_deref().map(Path::new);
    if !Rules::load(env, cwd)?.permit(&command, &rewritten) {
        return None;
    }
    let input = payload.tool_input.with("command", &rewritten)?;
    Some(answer("PreToolUse", "updatedInput", &input))
}

/// The answer to a PostToolUse payload; `None` is no opinion.
pub fn after(payload: &[u8], env: &dyn Fn(&str) -> Option<String>) -> Option<Vec<u8>> {
    let payload: Payload = serde_json::from_slice(payload).ok()?;
    if payload.tool_name != "Bash" || payload.event.as_deref().is_some_and(|e| e != "PostToolUse") {
        return None;
    }
    let command = payload.tool_input.string("command")?;
    let response = payload.tool_response?;
    // Output Claude Code has cut, moved to a file, left running or flagged as an image or
    // as a special exit status is not output lens can vouch for a view of.
    let unsure = [
        "persistedOutputPath",
        "backgroundTaskId",
        "returnCodeInterpretation",
        "rawOutputPath",
    ];
    if unsure.iter().any(|key| response.get(key).is_some())
        || response.boolean("interrupted") != Some(false)
        || response
            .get("isImage")
            .is_some_and(|_| response.boolean("isImage") != Some(false))
    {
        return None;
    }
    let stdout = response.string("stdout")?;
    let stderr = response.string("stderr")?;
    let cwd = payload.cwd.unwrap_or_default();
    let (out, err) = view_of(&command, &stdout, &stderr, 0, &cwd, env)?;
    let replaced = response.with("stdout", &out)?;
    let replaced = Fields::parse(&replaced)?.with("stderr", &err)?;
    Some(answer("PostToolUse", "updatedToolOutput", &replaced))
}

fn answer(event: &str, field: &str, object: &str) -> Vec<u8> {
    format!("{{\"hookSpecificOutput\":{{\"hookEventName\":\"{event}\",\"{field}\":{object}}}}}\n")
        .into_bytes()
}

#[derive(Deserialize)]
struct Payload {
    #[serde(rename = "hook_event_name")]
    event: Option<String>,
    tool_name: String,
    tool_input: Fields,
    tool_response: Option<Fields>,
    cwd: Option<String>,
}

/// The Bash permission rules of every settings file that could apply.
#[derive(Debug, Default)]
struct Rules {
    deny_or_ask: Vec<String>,
    allow: Vec<String>,
}

#[derive(Deserialize)]
struct Settings {
    #[serde(default)]
    permissions: Permissions,
}

#[derive(Default, Deserialize)]
struct Permissions {
    #[serde(default)]
    allow: Vec<String>,
    #[serde(default)]
    deny: Vec<String>,
    #[serde(default)]
    ask: Vec<String>,
}

impl Rules {
    /// `None` when a settings file exists but cannot be read: lens cannot tell what the
    /// user's rules are, so it changes nothing.
    fn load(env: &dyn Fn(&str) -> Option<String>, cwd: Option<&Path>) -> Option<Rules> {
        let mut rules = Rules::default();
        for path in settings_paths(env, cwd) {
            let text = match std::fs::read(&path) {
                Ok(text) => text,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(_) => return None,
            };
            let settings: Settings = serde_json::from_slice(&text).ok()?;
            let bash = |list: Vec<String>| list.into_iter().filter_map(|r| bash_pattern(&r));
            rules.deny_or_ask.extend(bash(settings.permissions.deny));
            rules.deny_or_ask.extend(bash(settings.permissions.ask));
            rules.allow.extend(bash(settings.permissions.allow));
        }
        Some(rules)
    }

    /// Whether `rewritten` may replace `command` without any rule treating it differently.
    fn permit(&self, command: &str, rewritten: &str) -> bool {
        let (Some(before), Some(after)) = (
            shell::command_texts(command),
            shell::command_texts(rewritten),
        ) else {
            return false;
        };
        let mut candidates = vec![command.trim()];
        candidates.extend(before.iter().flatten().copied());
        let guarded = self
            .deny_or_ask
            .iter()
            .any(|rule| candidates.iter().any(|c| matches(rule, c)));
        if guarded {
            return false;
        }
        // A command the user allowed runs without a prompt; `lens cargo test` no longer
        // matches `Bash(cargo test:*)` and would ask every time. Left alone, its output is
        // still filtered by the PostToolUse hook.
        let mut allowed = self.allow.iter().filter(|r| *r != "*");
        if allowed.any(|rule| candidates.iter().any(|c| matches(rule, c))) {
            return false;
        }
        // An allow rule that matches a command only with lens in front (`Bash(lens:*)`)
        // would approve what the user never approved.
        let widened = |rule: &String| {
            (matches(rule, rewritten.trim()) && !matches(rule, command.trim()))
                || after.iter().filter_map(|texts| texts.first()).any(|text| {
                    text.strip_prefix("lens ")
                        .is_some_and(|original| matches(rule, text) && !matches(rule, original))
                })
        };
        !self.allow.iter().any(widened)
    }
}

/// Where Claude Code reads settings from, every one that could hold rules for this command.
fn settings_paths(env: &dyn Fn(&str) -> Option<String>, cwd: Option<&Path>) -> Vec<PathBuf> {
    let mut paths = vec![PathBuf::from("/etc/claude-code/managed-settings.json")];
    if let Some(dir) = env("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        paths.push(Path::new(&dir).join("settings.json"));
    }
    if let Some(home) = env("HOME").filter(|h| !h.is_empty()) {
        paths.push(Path::new(&home).join(".claude/settings.json"));
    }
    let project = env("CLAUDE_PROJECT_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from);
    let dirs = project
        .iter()
        .map(PathBuf::as_path)
        .chain(cwd.into_iter().flat_map(Path::ancestors));
    for dir in dirs {
        paths.push(dir.join(".claude/settings.json"));
        paths.push(dir.join(".claude/settings.local.json"));
    }
    paths
}

/// The command pattern of a Bash rule: `Bash` and `Bash()` are every command; another tool's
/// rule is `None`. A rule that starts like a Bash rule but does not close is every command,
/// so a typo in a deny rule guards more rather than less.
fn bash_pattern(rule: &str) -> Option<String> {
    let rest = rule.trim().strip_prefix("Bash")?;
    if rest.is_empty() {
        return Some("*".into());
    }
    let inner = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'));
    match inner {
        Some(inner) if !inner.trim().is_empty() => Some(inner.to_owned()),
        Some(_) => Some("*".into()),
        None if rest.starts_with('(') => Some("*".into()),
        None => None, // another tool whose name starts with Bash
    }
}

/// Whether a rule pattern could match `text`: `prefix:*` is a prefix, `*` any run of
/// characters. Both sides are also compared with runs of blanks squeezed to one space.
fn matches(pattern: &str, text: &str) -> bool {
    let pattern = match pattern.strip_suffix(":*") {
        Some(prefix) => format!("{prefix}*"),
        None => pattern.to_owned(),
    };
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    glob(&pattern, text) || glob(&squeeze(&pattern), &squeeze(text))
}

/// `*`-only glob matching, linear in practice (the classic backtrack to the last star).
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(deny_or_ask: &[&str], allow: &[&str]) -> Rules {
        Rules {
            deny_or_ask: deny_or_ask.iter().filter_map(|r| bash_pattern(r)).collect(),
            allow: allow.iter().filter_map(|r| bash_pattern(r)).collect(),
        }
    }

    #[test]
    fn bash_rules_become_patterns_and_other_tools_are_ignored() {
        assert_eq!(bash_pattern("Bash").as_deref(), Some("*"));
        assert_eq!(bash_pattern("Bash()").as_deref(), Some("*"));
        assert_eq!(
            bash_pattern("Bash(git push:*)").as_deref(),
            Some("git push:*")
        );
        assert_eq!(bash_pattern("Bash(git push").as_deref(), Some("*"));
        assert_eq!(bash_pattern("Read(./.env)"), None);
        assert_eq!(bash_pattern("BashOutput"), None);
    }

    #[test]
    fn rule_patterns_match_as_prefixes_and_globs() {
        assert!(matches("git push:*", "git push --force"));
        assert!(matches("git push:*", "git push"));
        assert!(matches("npm run *", "npm run build"));
        assert!(matches("cargo test", "cargo  test"));
        assert!(matches("*", "anything"));
        assert!(!matches("git push:*", "git status"));
        assert!(!matches("cargo test", "cargo test --release"));
        assert!(glob("a*b*c", "aXbYbc"));
        assert!(!glob("a*b", "ac"));
    }

    #[test]
    fn a_command_a_deny_or_ask_rule_could_match_is_left_alone() {
        let guard = rules(&["Bash(git push:*)", "Bash(rm -rf:*)"], &[]);
        assert!(!guard.permit("git push origin main", "lens git push origin main"));
        assert!(!guard.permit("cd x && git push", "cd x && lens git push"));
        // Behind a wrapper the rule could still be meant: `env X=1 git push`.
        assert!(!guard.permit("env X=1 git push", "lens env X=1 git push"));
        assert!(guard.permit("git status", "lens git status"));
        assert!(!rules(&["Bash"], &[]).permit("git status", "lens git status"));
    }

    #[test]
    fn an_allow_rule_matching_only_with_lens_in_front_is_a_widening() {
        assert!(!rules(&[], &["Bash(lens:*)"]).permit("git push", "lens git push"));
        assert!(!rules(&[], &["Bash(lens *)"]).permit("cd x && make", "cd x && lens make"));
        assert!(rules(&[], &["Bash(*)"]).permit("make", "lens make"));
    }

    #[test]
    fn an_allowed_command_is_left_alone_so_it_keeps_running_without_a_prompt() {
        assert!(!rules(&[], &["Bash(make:*)"]).permit("make", "lens make"));
        assert!(
            !rules(&[], &["Bash(cargo test:*)"])
                .permit("cd x && cargo test", "cd x && lens cargo test")
        );
        assert!(rules(&[], &["Bash(npm run lint)"]).permit("make", "lens make"));
    }
}
