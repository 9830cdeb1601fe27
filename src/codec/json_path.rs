//! Typed JSON parsing whose errors name the JSON path (`$.pullRequests[3].number`), without a second
//! deserializer per type: serde_json parses at full speed, and only on failure a small scanner walks
//! the text up to where serde_json stopped to say which key or index that was. (Tracking the path
//! during the parse doubled the deserializer code of every type in the Wasm and halved its speed.)

/// A parse failure: where (`$` for the root) and serde's message without its line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: String,
    pub message: String,
    /// The text is not JSON at all (as opposed to JSON of the wrong shape).
    pub syntax: bool,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// What `from_str` reads: serde's `Deserialize` in the Action's and the CLI's build, the pages' own
/// reader's `Read` in theirs (src/lean.rs).
#[cfg(feature = "full")]
pub trait FromJson: serde::de::DeserializeOwned {}
#[cfg(feature = "full")]
impl<T: serde::de::DeserializeOwned> FromJson for T {}
#[cfg(not(feature = "full"))]
pub use crate::codec::lean::Read as FromJson;

/// The pages' `from_str`: their own reader (src/lean.rs), to the same values and errors as the one below.
#[cfg(not(feature = "full"))]
pub fn from_str<T: FromJson>(text: &str) -> Result<T, PathError> {
    crate::codec::lean::from_str(text)
}

/// `T` from JSON text; its structs are read as objects only (src/objects.rs). Text that is not JSON is
/// said so first, though the shape went wrong before the syntax did (`[` where an object belongs).
#[cfg(feature = "full")]
pub fn from_str<T: FromJson>(text: &str) -> Result<T, PathError> {
    // The Action's and the CLI's build read the plain path faster (src/json_in.rs); what it leaves,
    // serde_json reads, and only serde_json's errors are ever reported.
    if let Some(value) = crate::codec::json_in::from_str(text) {
        return Ok(value);
    }
    crate::codec::objects::from_str(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            return PathError { path: "$".into(), message: without_position(&e), syntax: true };
        }
        not_json(text).unwrap_or_else(|| PathError { path: path_at(text, e.line(), e.column()), message: without_position(&e), syntax: false })
    })
}

/// serde_json's syntax error for `text`, if it is not JSON. A typed read stops at the first value of
/// the wrong type; where the text is not JSON further on, that is what both readers report instead.
pub(crate) fn not_json(text: &str) -> Option<PathError> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).err().map(|e| PathError { path: "$".into(), message: without_position(&e), syntax: true })
}

/// The same for a value already parsed: straight from the value, and only when that fails through
/// text, so the error names its path the one way. Writing a board of 10,000 out and parsing it again
/// cost 520 ms on every call.
#[cfg(feature = "full")]
pub fn from_value<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<T, PathError> {
    T::deserialize(value).or_else(|_| from_str(&value.to_string()))
}

/// serde_json's message without " at line L column C" (the path says where, in any input).
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    if e.line() == 0 {
        return text;
    }
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).map(str::to_string).unwrap_or(text)
}

enum Frame {
    /// An object: the key whose value is being read, if one has been read since `{` or `,`.
    Object { key: Option<String> },
    /// An array: the index of the element being read. It counts from the `[` or `,` before the
    /// element, because serde_json may stop on a peek at the element's first byte.
    Array { index: usize },
}

/// The path of the value being read when a parser stopped at `line`/`column` (serde_json's 1-based
/// line and the column of the last byte it consumed on it).
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    path_to(text, offset(text, line, column))
}

/// The byte offset of serde_json's line and column: the bytes it had consumed.
pub(crate) fn offset(text: &str, line: usize, column: usize) -> usize {
    let bytes = text.as_bytes();
    let line_start = if line <= 1 { 0 } else { bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(line - 2).map_or(bytes.len(), |(i, _)| i + 1) };
    (line_start + column).min(bytes.len())
}

/// The same at a byte offset: the path of the value being read when `end` bytes were consumed.
pub fn path_to(text: &str, end: usize) -> String {
    let bytes = text.as_bytes();
    let end = end.min(bytes.len());
    let mut frames: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => frames.push(Frame::Object { key: None }),
            b'[' => frames.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                frames.pop();
            }
            b',' => match frames.last_mut() {
                Some(Frame::Object { key }) => *key = None,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let (s, after) = read_string(bytes, i + 1);
                if let Some(Frame::Object { key }) = frames.last_mut() {
                    if key.is_none() {
                        *key = Some(s);
                    }
                }
                i = after;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::from("$");
    for frame in &frames {
        match frame {
            Frame::Object { key: Some(k) } => {
                path.push('.');
                path.push_str(k);
            }
            Frame::Object { key: None } => {}
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The keys of the root object, and those of the object at its key `inner` (sorted), as a parse into a
/// `serde_json::Value` would keep them (a repeated key counts once, its last value standing). The
/// text must be JSON (checked before); anything but an object has no keys.
pub fn keys_of(text: &str, inner: &str) -> (Vec<String>, Vec<String>) {
    let bytes = text.as_bytes();
    let (mut outer, mut nested) = (Vec::new(), Vec::new());
    let Some(root) = object_at(bytes, skip_ws(bytes, 0)) else { return (outer, nested) };
    for (key, _, value) in members(bytes, root) {
        if key == inner {
            nested = object_at(bytes, value).map(|start| members(bytes, start).into_iter().map(|(k, _, _)| k).collect()).unwrap_or_default();
        }
        if !outer.contains(&key) {
            outer.push(key);
        }
    }
    crate::codec::sorting::sort(&mut nested);
    nested.dedup();
    (outer, nested)
}

/// The text without the member or element at `path` (`$.a.b[0].c`, as `path_at` writes it), with
/// one comma beside it; none when the path leads nowhere (the root, or a key holding `.` or `[`).
/// A repeated key loses its last occurrence, the one a parse keeps.
pub fn remove_at(text: &str, path: &str) -> Option<String> {
    let rest = path.strip_prefix('$')?;
    let mut steps: Vec<Result<String, usize>> = Vec::new();
    for part in rest.split('.').skip(1) {
        let mut pieces = part.split('[');
        steps.push(Ok(pieces.next().unwrap_or_default().to_string()));
        for index in pieces {
            steps.push(Err(index.strip_suffix(']')?.parse().ok()?));
        }
    }
    let bytes = text.as_bytes();
    let (mut at, mut span) = (skip_ws(bytes, 0), None);
    for step in &steps {
        let (start, value) = match step {
            Ok(key) => members(bytes, object_at(bytes, at)?).into_iter().rev().find(|(k, _, _)| k == key).map(|(_, start, v)| (start, v))?,
            Err(i) => {
                let v = *elements(bytes, at)?.get(*i)?;
                (v, v)
            }
        };
        span = Some((start, skip_value(bytes, value)));
        at = value;
    }
    let (start, end) = span?;
    let after = skip_ws(bytes, end);
    let (start, end) = if bytes.get(after) == Some(&b',') {
        (start, after + 1)
    } else {
        let before = bytes[..start].iter().rposition(|b| !b.is_ascii_whitespace());
        match before {
            Some(comma) if bytes[comma] == b',' => (comma, end),
            _ => (start, end),
        }
    };
    Some(format!("{}{}", &text[..start], &text[end..]))
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The index after the JSON value starting at `i`.
pub(crate) fn skip_value(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = read_string(bytes, i + 1).1;
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return i,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

fn object_at(bytes: &[u8], i: usize) -> Option<usize> {
    (bytes.get(i) == Some(&b'{')).then_some(i)
}

/// An object's members from its `{`: each key, where the member starts and where its value starts.
fn members(bytes: &[u8], open: usize) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut i = skip_ws(bytes, open + 1);
    while bytes.get(i) == Some(&b'"') {
        let (key, after) = read_string(bytes, i + 1);
        let value = skip_ws(bytes, skip_ws(bytes, after) + 1);
        out.push((key, i, value));
        i = skip_ws(bytes, skip_value(bytes, value));
        if bytes.get(i) != Some(&b',') {
            break;
        }
        i = skip_ws(bytes, i + 1);
    }
    out
}

/// Where each element of the array at `open` starts; none when it is not an array.
fn elements(bytes: &[u8], open: usize) -> Option<Vec<usize>> {
    if bytes.get(open) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = skip_ws(bytes, open + 1);
    while i < bytes.len() && bytes[i] != b']' {
        out.push(i);
        i = skip_ws(bytes, skip_value(bytes, i));
        if bytes.get(i) != Some(&b',') {
            break;
        }
        i = skip_ws(bytes, i + 1);
    }
    Some(out)
}

/// A JSON string's contents from just after its opening quote, and the index after its closing one.
fn read_string(bytes: &[u8], mut i: usize) -> (String, usize) {
    let mut out = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (String::from_utf8_lossy(&out).into_owned(), i + 1),
            b'\\' if i + 1 < bytes.len() => {
                let escaped = bytes[i + 1];
                match escaped {
                    b'u' => {
                        let code = std::str::from_utf8(bytes.get(i + 2..i + 6).unwrap_or_default()).ok().and_then(|h| u32::from_str_radix(h, 16).ok());
                        let c = code.and_then(char::from_u32).unwrap_or('\u{fffd}');
                        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        i += 6;
                        continue;
                    }
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    other => out.push(other),
                }
                i += 2;
                continue;
            }
            b => out.push(b),
        }
        i += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), i)
}

// Native only: the reference crate is a native dev-dependency (the Wasm suite builds these too).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::config::Config;
    use crate::core::facts::Facts;

    /// The path serde_path_to_error finds by tracking the parse, in our `$` notation: the reference
    /// the scanner must agree with.
    fn tracked<T: serde::de::DeserializeOwned>(text: &str) -> String {
        let mut de = serde_json::Deserializer::from_str(text);
        let e = serde_path_to_error::deserialize::<_, T>(&mut de).map(|_| ()).expect_err("the case is malformed");
        crate::core::config::json_path(&e.path().to_string())
    }

    #[test]
    fn the_scanner_names_the_same_path_as_tracking_the_parse() {
        // (rule, facts text) — every one malformed in shape, not in syntax.
        let facts = [
            ("a scalar of the wrong type", r#"{"now": "2026-11-30T12:00:00Z", "pullRequests": [{"number": "one"}]}"#),
            ("deep in the second element", r#"{"now":"x","pullRequests":[{"number":1},{"number":2,"reviews":[{"author":"a","state":"APPROVED","commit":"c","submittedAt":5}]}]}"#),
            ("a missing field names its object", r#"{"now":"x","pullRequests":[{"number":1},{"title":"no number"}]}"#),
            ("an object where a list belongs", r#"{"now":"x","pullRequests":{"number":1}}"#),
            ("a list where a string belongs", r#"{"now":"x","pullRequests":[{"number":1,"labels":[["a"]]}]}"#),
            ("across lines", "{\n  \"now\": \"x\",\n  \"pullRequests\": [\n    {\"number\": 1},\n    {\"number\": 2, \"isDraft\": \"yes\"}\n  ]\n}"),
            ("escaped keys and strings before the error", r#"{"now":"x \" , [ {","pullRequests":[{"number":1,"title":"a \\ \" ] } ,","labels":[1]}]}"#),
            ("a null where a number belongs", r#"{"now":"x","pullRequests":[{"number":null}]}"#),
            ("a check's status", r#"{"now":"x","pullRequests":[{"number":1,"checks":[{"name":"a","status":"COMPLETED"},{"name":"b","status":7}]}]}"#),
        ];
        for (rule, text) in facts {
            let ours = from_str::<Facts>(text).expect_err(rule);
            assert!(!ours.syntax, "{rule}");
            assert_eq!(ours.path, tracked::<Facts>(text), "{rule}: {}", ours.message);
        }
        // An array where an object belongs is refused where it stands (serde_json alone reads it as
        // the struct's fields in order, so the reference names a path inside it).
        for (text, path) in [(r#"[1, 2]"#, "$"), (r#"{"now":"x","pullRequests":[["a"]]}"#, "$.pullRequests[0]"), (r#"{"now":"x","queueMemory":[1]}"#, "$.queueMemory")] {
            let ours = from_str::<Facts>(text).expect_err(text);
            assert_eq!((ours.path.as_str(), ours.syntax), (path, false), "{text}");
            assert!(ours.message.starts_with("invalid type: sequence, expected struct "), "{text}: {}", ours.message);
        }
        let configs = [
            ("an unknown key", r#"{"stale": {"dayz": 3}}"#),
            ("a wrong type in a list", r#"{"botPanel": {"bots": ["a", 3]}}"#),
            ("an unknown variant", r#"{"flow": "kanban"}"#),
            ("inside a map keyed by label", r#"{"followup": {"levels": {"state:reviewing": [{"after": 10, "action": "ping"}, {"after": "soon", "action": "ping"}]}}}"#),
            ("an unknown key after good ones", r#"{"stations": {"devWip": 2, "labels": {"dev": "state:dev", "reviewr": "x"}}}"#),
        ];
        for (rule, text) in configs {
            let ours = from_str::<Config>(text).expect_err(rule);
            assert_eq!(ours.path, tracked::<Config>(text), "{rule}: {}", ours.message);
        }
    }

    #[test]
    fn taking_out_a_path_leaves_the_json_a_value_would_print_without_it() {
        // (rule, text, path): the text without it must parse to the value without it.
        let cases = [
            ("a key in the middle", r#"{"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": null}"#, "$.b"),
            ("the last key, its comma before it", r#"{"a": 1, "b": {"c": [1, 2], "d": "x,}"}}"#, "$.b.d"),
            ("the only key", r#"{"a": {"b": 3}}"#, "$.a.b"),
            ("an element", "{\n  \"a\": [ {\"x\": 1} , {\"y\": [2]} ,3 ]\n}", "$.a[1]"),
            ("the last element", r#"{"a": [1, 2, [3]]}"#, "$.a[2]"),
            ("inside an element", r#"{"a": [{"x": 1, "y": 2}]}"#, "$.a[0].y"),
            ("escaped quotes in keys and strings", r#"{"k\"": "v\"}", "b": "]", "c": 1}"#, "$.b"),
            ("a repeated key: the one a parse keeps goes", r#"{"a": 1, "a": 2, "b": 3}"#, "$.a"),
        ];
        for (rule, text, path) in cases {
            let out = remove_at(text, path).unwrap_or_else(|| panic!("{rule}: no path"));
            let mut want: serde_json::Value = serde_json::from_str(text).unwrap();
            let steps: Vec<&str> = path[2..].split(['.', '[']).collect();
            let (last, init) = steps.split_last().unwrap();
            let mut at = &mut want;
            for step in init {
                at = match step.strip_suffix(']') { Some(i) => &mut at[i.parse::<usize>().unwrap()], None => &mut at[*step] };
            }
            match last.strip_suffix(']') {
                Some(i) => drop(at.as_array_mut().unwrap().remove(i.parse().unwrap())),
                None => drop(at.as_object_mut().unwrap().remove(*last)),
            }
            let got: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{rule}: {out:?} is not JSON: {e}"));
            if rule.starts_with("a repeated key") {
                assert_eq!(got, serde_json::json!({"a": 1, "b": 3}), "{rule}: {out}");
            } else {
                assert_eq!(got, want, "{rule}: {out}");
            }
        }
        // Nowhere to go: the root, a missing key or index, a step into a scalar.
        for path in ["$", "$.z", "$.a[5]", "$.a[0].x", "$.a.b"] {
            assert_eq!(remove_at(r#"{"a": [1]}"#, path), None, "{path}");
        }
    }

    #[test]
    fn keys_are_the_roots_and_one_objects_as_a_value_keeps_them() {
        let text = r#" {"queue": null, "followup": {"levels": {}, "board": {"x": 1}}, "b": 1, "followup": {"z": 1, "people": 2, "z": 3}} "#;
        assert_eq!(keys_of(text, "followup"), (vec!["queue".to_string(), "followup".into(), "b".into()], vec!["people".to_string(), "z".into()]));
        assert_eq!(keys_of(r#"{"followup": [1]}"#, "followup"), (vec!["followup".to_string()], vec![]));
        assert_eq!(keys_of("[1]", "followup"), (vec![], vec![]));
    }

    #[test]
    fn syntax_errors_say_so_and_messages_lose_their_position() {
        let e = from_str::<Facts>("{\"now\": ").unwrap_err();
        assert!(e.syntax);
        // Not JSON, though its first byte is already the wrong shape: the syntax is what is said.
        for text in ["[", "[1, 2", "{\"pullRequests\": [[}"] {
            let e = from_str::<Facts>(text).unwrap_err();
            assert!(e.syntax && e.path == "$", "{text}: {e}");
        }
        let e = from_str::<Facts>(r#"{"now": 3}"#).unwrap_err();
        assert_eq!((e.path.as_str(), e.message.as_str(), e.syntax), ("$.now", "invalid type: integer `3`, expected a string", false));
    }
}
