//! JSON objects edited as written: each member's value kept as its exact text.
//!
//! A hook answers with the object it was given, one member changed, and `lens init` edits
//! an agent's settings file the user also edits by hand. Parsing into `serde_json::Value`
//! and writing it back would reorder keys (its map is sorted without serde_json's
//! `preserve_order`, which brings in indexmap) and rewrite numbers it cannot hold (`1e400`,
//! a 25-digit id). [`Fields`] keeps the members in order with their values as raw text,
//! so what comes back differs only where lens changed it. An object naming a member twice
//! is refused: the reader on the other side takes one of the two, and lens cannot know
//! which.

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// A JSON object's members as written: every value kept as its exact text, so what lens
/// sends back differs from what it was given only in the member it replaced. An object
/// naming a member twice is refused: the agent would read one of the two, and lens cannot
/// know which.
pub struct Fields(pub Vec<(String, Box<RawValue>)>);

impl Fields {
    pub fn parse(text: &str) -> Option<Fields> {
        serde_json::from_str(text).ok()
    }

    pub fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| &**v)
    }

    pub fn string(&self, key: &str) -> Option<String> {
        serde_json::from_str(self.get(key)?.get()).ok()
    }

    pub fn boolean(&self, key: &str) -> Option<bool> {
        serde_json::from_str(self.get(key)?.get()).ok()
    }

    /// The object's text with `key`'s value replaced by the string `value`.
    pub fn with(&self, key: &str, value: &str) -> Option<String> {
        self.get(key)?;
        let mut copy = Fields(self.0.clone());
        copy.set(key, serde_json::to_string(value).ok()?)?;
        Some(copy.render(None, 0))
    }

    /// Replace `key`'s value with the JSON text `raw`, or add it last.
    pub fn set(&mut self, key: &str, raw: String) -> Option<()> {
        let value = RawValue::from_string(raw).ok()?;
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, slot)) => *slot = value,
            None => self.0.push((key.to_owned(), value)),
        }
        Some(())
    }

    pub fn remove(&mut self, key: &str) {
        self.0.retain(|(k, _)| k != key);
    }

    /// The object as JSON text: compact with `indent` `None`, else one member per line,
    /// `depth` levels of `indent` deep. Values are written as they are held.
    pub fn render(&self, indent: Option<&str>, depth: usize) -> String {
        let members = self.0.iter().map(|(k, v)| {
            let key = serde_json::to_string(k).unwrap_or_default();
            match indent {
                Some(_) => format!("{key}: {}", v.get()),
                None => format!("{key}:{}", v.get()),
            }
        });
        block('{', '}', members.collect(), indent, depth)
    }
}

/// A JSON array's items as written.
pub fn items(text: &str) -> Option<Vec<Box<RawValue>>> {
    serde_json::from_str(text).ok()
}

/// An array of JSON texts, laid out as [`Fields::render`] lays out an object.
pub fn render_items(items: &[String], indent: Option<&str>, depth: usize) -> String {
    block('[', ']', items.to_vec(), indent, depth)
}

fn block(
    open: char,
    close: char,
    parts: Vec<String>,
    indent: Option<&str>,
    depth: usize,
) -> String {
    match indent {
        _ if parts.is_empty() => format!("{open}{close}"),
        None => format!("{open}{}{close}", parts.join(",")),
        Some(unit) => {
            let inner = unit.repeat(depth + 1);
            let lines: Vec<String> = parts.iter().map(|p| format!("{inner}{p}")).collect();
            format!(
                "{open}\n{}\n{}{close}",
                lines.join(",\n"),
                unit.repeat(depth)
            )
        }
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Fields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut members: Vec<(String, Box<RawValue>)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Box<RawValue>>()? {
                    if members.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!("`{key}` given twice")));
                    }
                    members.push((key, value));
                }
                Ok(Fields(members))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_lays_members_out_compact_or_one_per_line() {
        let mut fields = Fields::parse(r#"{"b": [1,2], "a": {"x": 1}}"#).unwrap();
        assert_eq!(fields.render(None, 0), r#"{"b":[1,2],"a":{"x": 1}}"#);
        fields.set("c", "true".into()).unwrap();
        fields.remove("b");
        assert_eq!(
            fields.render(Some("  "), 1),
            "{\n    \"a\": {\"x\": 1},\n    \"c\": true\n  }"
        );
        assert_eq!(render_items(&[], Some("  "), 0), "[]");
        assert!(fields.set("d", "not json".into()).is_none());
    }

    #[test]
    fn fields_keep_every_other_member_byte_for_byte() {
        let input = r#"{"command":"make","timeout":1e400,"description":"Build \u00e9","n":12345678901234567890123}"#;
        let fields = Fields::parse(input).unwrap();
        assert_eq!(
            fields.with("command", "lens make").unwrap(),
            r#"{"command":"lens make","timeout":1e400,"description":"Build \u00e9","n":12345678901234567890123}"#
        );
        assert!(Fields::parse(r#"{"command":"a","command":"b"}"#).is_none());
        assert!(Fields::parse(r#"["command"]"#).is_none());
        assert!(fields.with("absent", "x").is_none());
    }
}
