//! Gemini CLI's hooks: BeforeTool on `run_shell_command` (rewrite the command).
//!
//! Format, from the hooks reference (google-gemini/gemini-cli `docs/hooks/reference.md`,
//! "BeforeTool") and checked against the source at commit 5411f113 (2026-08-21):
//!
//! - Input, on stdin: `{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
//!   "tool_input": {"command": ..., "description"?, "dir_path"?, "is_background"?}, "cwd":
//!   ..., ...}`.
//! - Rewrite: `{"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input":
//!   {"command": ...}}}`. `tool_input` is merged into the arguments (`Object.assign` in
//!   `core/coreToolHookTriggers.ts`), so sending only `command` leaves every other field
//!   as it was. No `decision` is sent.
//! - No opinion: exit 0 with nothing on stdout, and nothing on stderr either (the runner
//!   parses stderr when stdout is empty, and plain text becomes a system message).
//!
//! Permissions: Gemini CLI decides its policy and asks the user before BeforeTool fires
//! (`scheduler/scheduler.ts` moves a call to Scheduled after confirmation, then executes it
//! through `executeToolWithHooks`), so a rule or an approval applies to the command the
//! model wrote and the rewrite cannot widen it. A background command (`is_background`) is
//! left alone.
//!
//! After the command: the reference documents `hookSpecificOutput.tool_output` for
//! AfterTool, but the source at that commit has no such field (`AfterToolOutput` carries
//! only `additionalContext` and `tailToolCallRequest`; `decision: "deny"` turns the result
//! into an error). A replaced output would be ignored, and a denied one would read as a
//! failure, so `lens hook gemini --post` has no opinion, always.

use crate::json::Fields;
use serde::Deserialize;

#[derive(Deserialize)]
struct Payload {
    #[serde(rename = "hook_event_name")]
    event: Option<String>,
    tool_name: String,
    tool_input: Fields,
}

/// The answer to a BeforeTool payload; `None` is no opinion.
pub fn before(payload: &[u8], env: &dyn Fn(&str) -> Option<String>) -> Option<Vec<u8>> {
    let payload: Payload = serde_json::from_slice(payload).ok()?;
    if payload.tool_name != "run_shell_command"
        || payload.event.as_deref().is_some_and(|e| e != "BeforeTool")
    {
        return None;
    }
    let background = payload.tool_input.get("is_background");
    if background.is_some() && payload.tool_input.boolean("is_background") != Some(false) {
        return None;
    }
    let command = payload.tool_input.string("command")?;
    let rewritten = super::rewrite(&command, env)?;
    let answer = format!(
        "{{\"hookSpecificOutput\":{{\"hookEventName\":\"BeforeTool\",\"tool_input\":{{\"command\":{}}}}}}}\n",
        serde_json::to_string(&rewritten).ok()?
    );
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(payload: &str) -> Option<serde_json::Value> {
        before(payload.as_bytes(), &|_| None).map(|a| serde_json::from_slice(&a).unwrap())
    }

    #[test]
    fn a_shell_command_lens_helps_is_rewritten_and_nothing_else_sent() {
        let got = answer(
            r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"cd web && npm test","dir_path":"/p","description":"tests"}}"#,
        )
        .unwrap();
        assert_eq!(
            got,
            serde_json::json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "cd web && lens npm test"}}})
        );
    }

    #[test]
    fn anything_else_is_no_opinion() {
        for payload in [
            r#"{"tool_name":"run_shell_command","tool_input":{"command":"ls | wc -l"}}"#,
            r#"{"tool_name":"run_shell_command","tool_input":{"command":"npm test","is_background":true}}"#,
            r#"{"tool_name":"run_shell_command","tool_input":{"command":"npm test","is_background":"no"}}"#,
            r#"{"tool_name":"read_file","tool_input":{"command":"npm test"}}"#,
            r#"{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"npm test"}}"#,
            r#"{"tool_name":"run_shell_command","tool_input":{"command":"npm test","command":"rm -rf /"}}"#,
            r#"{"tool_name":"run_shell_command"}"#,
            "",
            "[",
        ] {
            assert_eq!(answer(payload), None, "{payload}");
        }
    }
}
