//! JSON in and out of the engine with serde, and the error paths that name where a document went wrong
//! (`$.facts.pullRequests[3].now`), taken from serde_path_to_error.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A parse failure: where (`$` for the root) and serde's message without its line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: String,
    pub message: String,
    /// The text is not JSON at all (as opposed to JSON of the wrong shape).
    pub syntax: bool,
    /// Where, as serde_path_to_error's segments (for a config read that takes the key out and goes on).
    pub segments: Vec<Segment>,
}

/// One step of a path: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A path error from any deserializer serde_path_to_error wrapped (text, a `Value`, a JS value).
pub fn path_error<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> PathError {
    let segments: Vec<Segment> = e
        .path()
        .iter()
        .filter_map(|s| match s {
            serde_path_to_error::Segment::Seq { index } => Some(Segment::Index(*index)),
            serde_path_to_error::Segment::Map { key } => Some(Segment::Key(key.clone())),
            serde_path_to_error::Segment::Enum { variant } => Some(Segment::Key(variant.clone())),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect();
    let mut path = String::from("$");
    for s in &segments {
        match s {
            Segment::Key(k) => {
                path.push('.');
                path.push_str(k);
            }
            Segment::Index(i) => path.push_str(&format!("[{i}]")),
        }
    }
    PathError {
        path,
        message: without_position(&e.into_inner().to_string()),
        syntax: false,
        segments,
    }
}

/// `T` from JSON text. Text that is not JSON is said so, though a typed read may stop at a value of
/// the wrong type before the syntax goes wrong further on.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, PathError> {
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize(&mut de) {
        Ok(value) => match de.end() {
            Ok(()) => Ok(value),
            Err(e) => Err(not_json(text).unwrap_or_else(|| PathError {
                path: "$".into(),
                message: without_position(&e.to_string()),
                syntax: true,
                segments: Vec::new(),
            })),
        },
        Err(e) => Err(not_json(text).unwrap_or_else(|| path_error(e))),
    }
}

/// `T` from a value already parsed.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, PathError> {
    serde_path_to_error::deserialize(value).map_err(path_error)
}

/// serde_json's syntax error for `text`, if it is not JSON.
pub fn not_json(text: &str) -> Option<PathError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .err()
        .map(|e| PathError {
            path: "$".into(),
            message: without_position(&e.to_string()),
            syntax: true,
            segments: Vec::new(),
        })
}

/// serde_json's message without " at line L column C" (the path says where, in any input).
fn without_position(text: &str) -> String {
    match text.rfind(" at line ") {
        Some(i)
            if text[i + 9..]
                .split(" column ")
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            text[..i].to_string()
        }
        _ => text.to_string(),
    }
}

/// Takes the value at `segments` out of `value` (an object's key removed, an array's element removed);
/// false when there is nothing there to take.
pub fn remove_at(value: &mut Value, segments: &[Segment]) -> bool {
    let Some((last, parents)) = segments.split_last() else {
        return false;
    };
    let mut at = value;
    for s in parents {
        at = match (s, at) {
            (Segment::Key(k), Value::Object(m)) => match m.get_mut(k) {
                Some(v) => v,
                None => return false,
            },
            (Segment::Index(i), Value::Array(a)) => match a.get_mut(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    match (last, at) {
        (Segment::Key(k), Value::Object(m)) => m.shift_remove(k).is_some(),
        (Segment::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
            true
        }
        _ => false,
    }
}
