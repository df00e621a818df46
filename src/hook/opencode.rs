//! OpenCode: a plugin's `tool.execute.after` hook replaces the bash tool's output with the
//! view lens would have printed. There is no rewrite before the command.
//!
//! OpenCode takes hooks from JavaScript plugins, not from a settings file: every `*.js` or
//! `*.ts` file in `plugins/` (or `plugin/`) of a config directory (`~/.config/opencode/`,
//! `.opencode/` in the project) is loaded, and each exported function returns an object of
//! hooks (opencode.ai/docs/plugins; the glob `{plugin,plugins}/*.{ts,js}` in the
//! `opencode-linux-x64` 1.18.33 binary from the npm registry). [`PLUGIN`] is the file
//! `lens init opencode` writes; it runs `lens hook opencode --post` with one JSON object on
//! stdin and changes the output only when lens answers with one.
//!
//! Why after and not before: in that binary a tool call runs
//! `trigger("tool.execute.before", {tool, sessionID, callID}, {args})`, then the tool's own
//! `execute(args, ctx)`, and the bash tool asks for permission inside `execute`, through
//! `ctx.ask`, on the arguments as the before hook left them. A command rewritten to
//! `lens git push` would be matched against the user's `permission.bash` rules as
//! `lens git push`, so a `"git push *": "ask"` rule would no longer ask. The after hook
//! (`trigger("tool.execute.after", {tool, sessionID, callID, args}, result)`, whose
//! `result` object is what the model is given) runs once the command ran as written and
//! approved, so it cannot widen anything.
//!
//! The payload the plugin sends: `{"tool": "bash", "args": {"command": ..., "workdir"?,
//! "timeout"?}, "output": ..., "metadata": {"exit": N, "truncated": bool, "timeout"?: bool,
//! ...}, "cwd": ...}`, the hook's `input.tool`, `input.args`, `output.output` and
//! `output.metadata` as OpenCode hands them over. The answer is `{"output": VIEW}`.
//! OpenCode's bash tool gives one string with stdout and stderr in the order they arrived,
//! so lens stores and filters it as one stream. Output OpenCode cut (`truncated`), a
//! command that timed out, or metadata without an integer exit code is not output lens
//! can vouch for a view of: no opinion, which is exit 0 and nothing on stdout. The plugin
//! treats a missing lens, a non-zero exit, a timeout and an unreadable answer the same way.

use super::view_of;
use crate::json::Fields;
use serde::Deserialize;

/// The plugin `lens init opencode` writes, with `@LENS@` standing for this binary's path
/// as a JSON string. ES module syntax, and only `node:child_process`, which OpenCode's
/// runtime (Bun) and Node both provide, so a test can load the file with Node.
pub const PLUGIN: &str = r#"// Lens for OpenCode, written by `lens init opencode`; remove it with `lens init opencode --uninstall`.
//
// After each bash command, the command and its output go to `lens hook opencode --post`; when
// lens answers, the model is shown lens's view (every elided part is announced by a marker
// and kept under a handle: `lens show HANDLE --lines A-B` prints it). Nothing is rewritten
// before a command runs, so OpenCode's permission rules see every command as written. If
// lens is missing, fails, is slow or answers anything unexpected, the output stays as it was.
import { spawnSync } from "node:child_process"

const LENS = @LENS@

export const LensPlugin = async ({ directory }) => ({
  "tool.execute.after": async (input, output) => {
    try {
      if (input?.tool !== "bash" || typeof output?.output !== "string") return
      const payload = JSON.stringify({
        tool: input.tool,
        args: input.args,
        output: output.output,
        metadata: output.metadata,
        cwd: directory,
      })
      const run = spawnSync(LENS, ["hook", "opencode", "--post"], {
        input: payload,
        encoding: "utf8",
        timeout: 5000,
        maxBuffer: 256 * 1024 * 1024,
      })
      if (run.error || run.status !== 0 || !run.stdout) return
      const answer = JSON.parse(run.stdout)
      if (typeof answer?.output === "string") output.output = answer.output
    } catch {
      // no opinion: the output stays as OpenCode produced it
    }
  },
})
"#;

/// What OpenCode writes into an output it cut, in the 1.18.33 binary
/// (`...output truncated...` / `Full output saved to: PATH`) and in older releases, whose
/// bash tool appended `(Output was truncated due to length limit)` without a metadata flag.
const CUT: &[&str] = &[
    "output truncated",
    "Output was truncated",
    "output was truncated",
    "Full output saved to:",
];

#[derive(Deserialize)]
struct Payload {
    tool: String,
    args: Fields,
    output: String,
    metadata: Fields,
    cwd: Option<String>,
}

/// The answer to the plugin's after-the-command payload; `None` is no opinion.
pub fn after(payload: &[u8], env: &dyn Fn(&str) -> Option<String>) -> Option<Vec<u8>> {
    let payload: Payload = serde_json::from_slice(payload).ok()?;
    if payload.tool != "bash" {
        return None;
    }
    let command = payload.args.string("command")?;
    let meta = &payload.metadata;
    let flag_set = |key: &str| meta.get(key).is_some() && meta.boolean(key) != Some(false);
    if flag_set("truncated") || flag_set("timeout") {
        return None;
    }
    if CUT.iter().any(|note| payload.output.contains(note)) {
        return None;
    }
    let exit: i32 = serde_json::from_str(meta.get("exit")?.get()).ok()?;
    let cwd = payload.cwd.unwrap_or_default();
    let (view, _) = view_of(&command, &payload.output, "", exit, &cwd, env)?;
    let answer = format!("{{\"output\":{}}}\n", serde_json::to_string(&view).ok()?);
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_lens_cannot_vouch_for_is_no_opinion() {
        let nothing = |_: &str| None;
        for payload in [
            r#"{"tool":"read","args":{"command":"ls"},"output":"x","metadata":{"exit":0}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{"exit":0,"truncated":true}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{"exit":0,"truncated":"no"}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{"exit":0,"timeout":true}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{"exit":null}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{"exit":1.5}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"output":"x","metadata":{}}"#,
            r#"{"tool":"bash","args":{},"output":"x","metadata":{"exit":0}}"#,
            r#"{"tool":"bash","args":{"command":"ls"},"metadata":{"exit":0}}"#,
            "",
            "{",
        ] {
            assert_eq!(after(payload.as_bytes(), &nothing), None, "{payload}");
        }
    }

    #[test]
    fn the_plugin_names_lens_once_and_only_replaces_on_an_answer() {
        assert_eq!(PLUGIN.matches("@LENS@").count(), 1);
        assert!(PLUGIN.contains(r#""tool.execute.after""#));
        assert!(!PLUGIN.contains("tool.execute.before"));
        assert!(PLUGIN.contains(r#"["hook", "opencode", "--post"]"#));
        assert!(PLUGIN.contains("if (run.error || run.status !== 0 || !run.stdout) return"));
    }
}
