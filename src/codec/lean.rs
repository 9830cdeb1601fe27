//! The pages' typed JSON reader (issue 16: the dashboard's Wasm size). serde_json reading into serde's
//! `Deserialize` types gave every struct, vector and option its own copy of serde_json's object and
//! array reading. Here one object loop and one array loop serve every type (a struct is a list of names
//! and one closure), and serde_json reads only what is rare or fiddly: a number, a string with escapes,
//! a value of the wrong type, an enum not written as a plain string, each from where that value starts.
//! So every message is serde_json's (or serde derive's), at the position serde_json gives it, and
//! `json_path` names the same path as the Action's reader; the loops raise serde_json's own syntax
//! errors where its typed read raises them (`objects::reader_tests` and the tests below hold all this).

use crate::codec::json_path::offset;
use serde::de::{self, DeserializeOwned, Visitor};
use std::fmt;

/// Where the typed read stopped.
#[derive(Debug)]
pub struct Fail {
    /// Bytes consumed when serde_json would raise it (its line and column, as one offset).
    pub at: usize,
    pub message: String,
    /// One of serde_json's syntax errors (the text is not JSON), else a value of the wrong type.
    pub syntax: bool,
}

/// Not yet placed: the caller knows the position.
const NOWHERE: usize = usize::MAX;

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fail {}

/// serde's messages (unknown field, missing field, ...) worded by serde itself.
impl de::Error for Fail {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Fail { at: NOWHERE, message: msg.to_string(), syntax: false }
    }
}

impl Fail {
    fn placed(self, at: usize) -> Box<Self> {
        Box::new(self).placed_box(at)
    }

    fn placed_box(mut self: Box<Self>, at: usize) -> Box<Self> {
        if self.at == NOWHERE {
            self.at = at;
        }
        self
    }
}

/// serde_json's syntax error (its `ErrorCode` as it prints it); its position is never shown.
fn syntax(message: &str) -> Box<Fail> {
    Box::new(Fail { at: 0, message: message.to_string(), syntax: true })
}

/// Boxed, so that every read's answer is its value's size and one pointer: the page's code moves it
/// at every field.
pub type Result<T> = std::result::Result<T, Box<Fail>>;

/// The text and the reading position in it.
pub struct Lean<'a> {
    text: &'a str,
    at: usize,
}

/// A type the pages read: `read` takes one JSON value at the position (after any whitespace).
pub trait Read: Sized {
    fn read(r: &mut Lean<'_>) -> Result<Self>;
}

impl<'a> Lean<'a> {
    fn ws(&mut self) {
        let b = self.text.as_bytes();
        while self.at < b.len() && matches!(b[self.at], b' ' | b'\n' | b'\t' | b'\r') {
            self.at += 1;
        }
    }

    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The end of the string whose opening quote is at `from`, and whether it is plain (no escape, no
    /// control character); none where the text ends first.
    fn string_end(&self, from: usize) -> Option<(usize, bool)> {
        let b = self.text.as_bytes();
        let mut i = from + 1;
        let mut plain = true;
        while i < b.len() {
            match b[i] {
                b'"' => return Some((i + 1, plain)),
                b'\\' => {
                    plain = false;
                    i += 2;
                }
                c => {
                    plain &= c >= 0x20;
                    i += 1;
                }
            }
        }
        None
    }

    /// The end of the value at `i`, which serde_json has just read without error (so it is JSON as far as
    /// it goes). A string, an object or an array ends where json_path's scanner says; a number or a word
    /// exactly where serde_json stopped reading it, since what follows may be anything (`12x`).
    fn value_end(&self, i: usize) -> usize {
        let b = self.text.as_bytes();
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        match b[i] {
            b't' | b'n' => i + 4,
            b'f' => i + 5,
            b'-' | b'0'..=b'9' => {
                // -?int(.digits)?([eE][+-]?digits)?
                let mut i = digits(i + usize::from(b[i] == b'-'));
                if b.get(i) == Some(&b'.') {
                    i = digits(i + 1);
                }
                if matches!(b.get(i), Some(b'e' | b'E')) {
                    i += 1;
                    if matches!(b.get(i), Some(b'+' | b'-')) {
                        i += 1;
                    }
                    i = digits(i);
                }
                i
            }
            _ => crate::codec::json_path::skip_value(b, i),
        }
    }

    /// The value at the position read by serde_json, `with` a deserializer over the text from there:
    /// what its typed read of the whole text would do with it, errors and all (placed in the whole text).
    fn serde<T>(&mut self, with: impl FnOnce(&mut serde_json::Deserializer<serde_json::de::StrRead<'a>>) -> serde_json::Result<T>) -> Result<T> {
        let start = self.at;
        let rest: &'a str = &self.text[start..];
        match with(&mut serde_json::Deserializer::from_str(rest)) {
            Ok(value) => {
                self.at = self.value_end(start);
                Ok(value)
            }
            Err(e) => Err(from_serde(&e, rest, start, self.at)),
        }
    }

    /// A value of a type serde reads (a number, a string with escapes), read by serde_json.
    pub(crate) fn by_serde<T: DeserializeOwned>(&mut self) -> Result<T> {
        self.serde(|d| T::deserialize(crate::codec::objects::Objects(d)))
    }

    /// The value at the position is not what `expecting` names: serde_json's message for it, from
    /// the deserializer method the Action's reader calls (`map` for a struct or a map, else a sequence).
    #[inline(never)]
    fn mismatch<T>(&mut self, expecting: &'static str, map: bool) -> Result<T> {
        let e = self.serde(|d| if map { de::Deserializer::deserialize_map(d, Expect(expecting)) } else { de::Deserializer::deserialize_seq(d, Expect(expecting)) });
        Err(e.err().unwrap_or_else(|| Box::new(de::Error::custom("a value of the wrong type was read"))))
    }

    /// A plain string (no escape, no control character), borrowed from the text; none (nothing read)
    /// for anything else.
    fn plain_str(&mut self) -> Option<&'a str> {
        if self.byte() != Some(b'"') {
            return None;
        }
        let Some((end, true)) = self.string_end(self.at) else { return None };
        let s = &self.text[self.at + 1..end - 1];
        self.at = end;
        Some(s)
    }

    /// An object's members, each value read by `value(key, where a key error is placed, reader)`;
    /// `expecting` is serde's word for the type when the value is not an object. The syntax errors
    /// are serde_json's `MapAccess`'s, where it raises them.
    pub(crate) fn object(&mut self, expecting: &'static str, value: &mut dyn FnMut(&str, usize, &mut Self) -> Result<()>) -> Result<()> {
        if self.byte() != Some(b'{') {
            return self.mismatch(expecting, true);
        }
        self.at += 1;
        let mut first = true;
        while self.next_entry(b'}', &mut first, "expected `,` or `}`", "EOF while parsing an object")? {
            if self.byte() != Some(b'"') {
                return Err(syntax("key must be a string"));
            }
            let key: std::borrow::Cow<'a, str> = match self.plain_str() {
                Some(s) => s.into(),
                None => self.by_serde::<String>()?.into(),
            };
            // serde_json places an error about a key (unknown, repeated) past it and its whitespace.
            self.ws();
            let after_key = self.at;
            match self.byte() {
                Some(b':') => self.at += 1,
                Some(_) => return Err(syntax("expected `:`")),
                None => return Err(syntax("EOF while parsing an object")),
            }
            self.ws();
            value(&key, after_key, self)?;
        }
        Ok(())
    }

    /// A struct's object: `fields` its keys, `required` a bit for each that must be there, `field(i, r)`
    /// reads the value of field `i`. serde derive's messages, where serde_json places them.
    pub(crate) fn fields(&mut self, expecting: &'static str, fields: &'static [&'static str], required: u64, field: &mut dyn FnMut(usize, &mut Self) -> Result<()>) -> Result<()> {
        let mut seen = 0u64;
        self.object(expecting, &mut |key, after_key, r| {
            let Some(i) = fields.iter().position(|name| *name == key) else {
                return Err(<Fail as de::Error>::unknown_field(key, fields).placed(after_key));
            };
            if seen & (1 << i) != 0 {
                return Err(<Fail as de::Error>::duplicate_field(fields[i]).placed(after_key));
            }
            seen |= 1 << i;
            field(i, r)
        })?;
        let missing = required & !seen;
        if missing != 0 {
            return Err(<Fail as de::Error>::missing_field(fields[missing.trailing_zeros() as usize]).placed(self.at));
        }
        Ok(())
    }

    /// An array's elements, each read by `element(reader)`; serde_json's `SeqAccess`'s syntax errors.
    pub(crate) fn array(&mut self, element: &mut dyn FnMut(&mut Self) -> Result<()>) -> Result<()> {
        if self.byte() != Some(b'[') {
            return self.mismatch("a sequence", false);
        }
        self.at += 1;
        let mut first = true;
        while self.next_entry(b']', &mut first, "expected `,` or `]`", "EOF while parsing a list")? {
            element(self)?;
        }
        Ok(())
    }

    /// serde_json's step to an object's or an array's next entry (its `has_next_key`, `has_next_element`):
    /// false at the end (`close`, consumed), true at the first byte of an entry; and its syntax errors.
    fn next_entry(&mut self, close: u8, first: &mut bool, comma_or_end: &str, eof: &str) -> Result<bool> {
        self.ws();
        match self.byte() {
            Some(b) if b == close => {
                self.at += 1;
                return Ok(false);
            }
            Some(b',') if !*first => {
                self.at += 1;
                self.ws();
            }
            Some(_) if *first => *first = false,
            Some(_) => return Err(syntax(comma_or_end)),
            None => return Err(syntax(eof)),
        }
        match self.byte() {
            Some(b) if b == close => Err(syntax("trailing comma")),
            Some(_) => Ok(true),
            None => Err(syntax("EOF while parsing a value")),
        }
    }

    /// A unit enum's variant, as its place in `variants`: a plain string here, any other form (an
    /// escape, `{"name": null}`, a wrong type) by serde_json, as derive reads it.
    pub(crate) fn variant(&mut self, name: &'static str, variants: &'static [&'static str]) -> Result<usize> {
        let start = self.at;
        if let Some(s) = self.plain_str() {
            if let Some(i) = variants.iter().position(|v| *v == s) {
                return Ok(i);
            }
            self.at = start;
        }
        self.serde(|d| crate::codec::objects::read_unit_enum(d, name, variants))
    }
}

/// serde_json's error on the text from `start`, placed in the whole text; one it raised without a
/// place (none of those this reader hands it) where the reading stood.
#[inline(never)]
fn from_serde(e: &serde_json::Error, rest: &str, start: usize, at: usize) -> Box<Fail> {
    let syntax = e.is_syntax() || e.is_eof();
    let at = if e.line() == 0 { at } else { start + offset(rest, e.line(), e.column()) };
    Box::new(Fail { at, message: crate::codec::json_path::without_position(e), syntax })
}

/// A field's value, in its place: one copy per value type of the read and of the drop of the default it
/// replaces, where inlined into each struct's reader they were copied into every field.
#[inline(never)]
pub fn read_into<T: Read>(r: &mut Lean<'_>, slot: &mut T) -> Result<()> {
    *slot = T::read(r)?;
    Ok(())
}

/// A visitor that takes nothing: serde's invalid-type message naming what was expected.
struct Expect(&'static str);

impl<'de> Visitor<'de> for Expect {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Read for String {
    fn read(r: &mut Lean<'_>) -> Result<Self> {
        match r.plain_str() {
            Some(s) => Ok(s.to_string()),
            None => r.by_serde(),
        }
    }
}

impl Read for bool {
    fn read(r: &mut Lean<'_>) -> Result<Self> {
        let rest = &r.text.as_bytes()[r.at..];
        for (word, value) in [(&b"true"[..], true), (b"false", false)] {
            if rest.starts_with(word) {
                r.at += word.len();
                return Ok(value);
            }
        }
        r.by_serde()
    }
}

/// An integer as serde_json reads it for a primitive (`deserialize_u64` and its kin all read a number
/// alike): its value whole, or anything else refused with `expecting`, the type's name in serde's words.
/// One reading for every integer type; the range check and its message are serde's primitive visitor's.
enum Number {
    Unsigned(u64),
    Signed(i64),
}

struct Integer(&'static str);

impl<'de> Visitor<'de> for Integer {
    type Value = Number;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.0)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Number, E> {
        Ok(Number::Unsigned(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Number, E> {
        Ok(Number::Signed(v))
    }
}

impl Lean<'_> {
    /// An integer that `fits` the type named `name` (serde's `invalid value` where it does not).
    #[inline(never)]
    fn integer(&mut self, name: &'static str, fits: fn(i128) -> bool) -> Result<i128> {
        let n = self.serde(|d| de::Deserializer::deserialize_u64(d, Integer(name)))?;
        let (v, unexpected) = match n {
            Number::Unsigned(v) => (i128::from(v), de::Unexpected::Unsigned(v)),
            Number::Signed(v) => (i128::from(v), de::Unexpected::Signed(v)),
        };
        if fits(v) {
            return Ok(v);
        }
        // serde_json places a visitor's error past the number.
        Err(Box::new(<Fail as de::Error>::invalid_value(unexpected, &name)).placed_box(self.at))
    }
}

macro_rules! integer {
    ($($ty:ident),*) => {
        $(impl Read for $ty {
            fn read(r: &mut Lean<'_>) -> Result<Self> {
                r.integer(stringify!($ty), |v| $ty::try_from(v).is_ok()).map(|v| v as $ty)
            }
        })*
    };
}
integer!(u8, u16, u32, u64, usize, i32, i64);

impl<T: Read> Read for Option<T> {
    fn read(r: &mut Lean<'_>) -> Result<Self> {
        if r.text.as_bytes()[r.at..].starts_with(b"null") {
            r.at += 4;
            return Ok(None);
        }
        T::read(r).map(Some)
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(r: &mut Lean<'_>) -> Result<Self> {
        let mut out = Vec::new();
        r.array(&mut |r| {
            out.push(T::read(r)?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<V: Read> Read for crate::codec::sorting::VecMap<String, V> {
    fn read(r: &mut Lean<'_>) -> Result<Self> {
        let mut pairs = Vec::new();
        r.object("a map", &mut |key, _, r| {
            pairs.push((key.to_string(), V::read(r)?));
            Ok(())
        })?;
        Ok(crate::codec::sorting::VecMap::new(pairs))
    }
}

/// `T` from JSON text, as the Action's reader (`json_path::from_str`) reads it, with the same errors:
/// its typed read's syntax error, else (the value of a wrong type) the syntax check's, if the text is
/// not JSON further on.
pub(crate) fn from_str<T: Read>(text: &str) -> std::result::Result<T, crate::codec::json_path::PathError> {
    use crate::codec::json_path::{not_json, path_to, PathError};
    let mut r = Lean { text, at: 0 };
    r.ws();
    let read = T::read(&mut r).and_then(|value| {
        r.ws();
        if r.at < text.len() {
            return Err(syntax("trailing characters"));
        }
        Ok(value)
    });
    match read {
        Ok(value) => Ok(value),
        Err(fail) if fail.syntax => Err(PathError { path: "$".into(), message: fail.message, syntax: true }),
        Err(fail) => Err(not_json(text).unwrap_or_else(|| PathError { path: path_to(text, fail.at), message: fail.message, syntax: false })),
    }
}

/// `Read` for a struct, as serde derive with `deny_unknown_fields` reads one from an object:
/// `lean_object!(T { rust_name: "jsonName" required, ... })`, `required` for a field without a serde
/// default, `init(...)` the starting value where a serde default is not `Default`'s. The fields are
/// written into the struct's defaults as they come; `objects::reader_tests` holds each list to the
/// struct's schema and its reads to derive's.
macro_rules! lean_object {
    ($ty:ident {}) => {
        impl $crate::codec::lean::Read for $ty {
            fn read(r: &mut $crate::codec::lean::Lean<'_>) -> $crate::codec::lean::Result<Self> {
                r.fields(concat!("struct ", stringify!($ty)), &[], 0, &mut |_, _| Ok(()))?;
                Ok($ty {})
            }
        }
    };
    ($ty:ident $(init($init:expr))? { $($field:ident: $json:literal $($required:ident)?),* $(,)? }) => {
        impl $crate::codec::lean::Read for $ty {
            fn read(r: &mut $crate::codec::lean::Lean<'_>) -> $crate::codec::lean::Result<Self> {
                #[allow(non_camel_case_types)]
                enum Field { $($field),* }
                const FIELDS: &[&str] = &[$($json),*];
                const REQUIRED: u64 = 0 $(| lean_object!(@required Field::$field, $($required)?))*;
                let mut out: $ty = lean_object!(@init $ty $($init)?);
                r.fields(concat!("struct ", stringify!($ty)), FIELDS, REQUIRED, &mut |i, r| {
                    match i {
                        $(i if i == Field::$field as usize => $crate::codec::lean::read_into(r, &mut out.$field)?,)*
                        _ => unreachable!("fields() gives a place in FIELDS"),
                    }
                    Ok(())
                })?;
                Ok(out)
            }
        }
    };
    (@required $field:path, required) => { 1u64 << ($field as u32) };
    (@required $field:path,) => { 0 };
    (@init $ty:ident $init:expr) => { $init };
    (@init $ty:ident) => { <$ty as Default>::default() };
}
pub(crate) use lean_object;

/// `Read` for a unit-only enum: `lean_enum!(T { Variant: "name", ... })`, in declaration order.
macro_rules! lean_enum {
    ($ty:ident { $($variant:ident: $json:literal),* $(,)? }) => {
        impl $crate::codec::lean::Read for $ty {
            fn read(r: &mut $crate::codec::lean::Lean<'_>) -> $crate::codec::lean::Result<Self> {
                const VARIANTS: &[&str] = &[$($json),*];
                const ALL: &[$ty] = &[$($ty::$variant),*];
                r.variant(stringify!($ty), VARIANTS).map(|i| ALL[i])
            }
        }
    };
}
pub(crate) use lean_enum;

/// `Read` for a type the pages leave to serde (the simulations' parameters): serde_json reads the
/// value from its own text.
macro_rules! lean_by_serde {
    ($($ty:ty),*) => {
        $(impl $crate::codec::lean::Read for $ty {
            fn read(r: &mut $crate::codec::lean::Lean<'_>) -> $crate::codec::lean::Result<Self> {
                r.by_serde()
            }
        })*
    };
}
pub(crate) use lean_by_serde;

#[cfg(test)]
mod tests {
    //! The pages' reader against the Action's (serde derive's, through `json_path::from_str`) on the
    //! same texts: realistic facts and configs, each mutated at random (a value of another type, a key
    //! dropped, added, repeated or escaped, an escape in a string, a number serde_json reads as a float,
    //! bytes deleted or inserted), compact and pretty-printed. The same value, or the same error with
    //! the same path, every time.
    use super::*;
    use crate::core::config::Config;
    use crate::core::facts::*;
    use serde::Serialize;
    use serde_json::{json, Value};

    /// xorshift64*: the cases are the same on every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Every JSON value found in the fixtures under `key` (and whole files that are facts).
    fn fixtures(key: &str) -> Vec<Value> {
        fn walk(v: &Value, key: &str, out: &mut Vec<Value>) {
            match v {
                Value::Object(m) => {
                    if key == "facts" && m.contains_key("now") && m.contains_key("pullRequests") {
                        out.push(v.clone());
                    }
                    for (k, x) in m {
                        if k == key && x.is_object() {
                            out.push(x.clone());
                        }
                        walk(x, key, out);
                    }
                }
                Value::Array(items) => items.iter().for_each(|x| walk(x, key, out)),
                _ => {}
            }
        }
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).expect("the fixtures") {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    files(&path, out);
                } else if path.extension().is_some_and(|e| e == "json") {
                    out.push(path);
                }
            }
        }
        let mut paths = Vec::new();
        files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"), &mut paths);
        paths.sort();
        let mut out = Vec::new();
        for path in paths {
            if let Ok(v) = serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()) {
                walk(&v, key, &mut out);
            }
        }
        out
    }

    /// Facts with one of every nested struct, so that every reader is reached.
    fn full_facts() -> Value {
        let pr = PullRequest {
            reviews: vec![Review::default()],
            checks: vec![Check::default()],
            comments: vec![Comment::default()],
            timeline: vec![TimelineEvent::default()],
            closing_issues: vec![IssueRef::default()],
            unknown: vec![PullFact::Checks],
            native_stack: true,
            ..PullRequest::default()
        };
        let facts = Facts {
            now: "2026-12-01T00:00:00Z".into(),
            pull_requests: vec![pr],
            issues: vec![Issue { blocked_by: Some(vec![1, 2]), pull_request: true, ..Issue::default() }],
            unknown: vec![RepoFact::Labels],
            queue_memory: QueueMemory { records: vec![SetAsideRecord::default()], demoted: vec![Demotion::default()] },
            boards: vec![BoardIssue::default()],
            team_members: crate::codec::sorting::VecMap::new(vec![("acme/core".to_string(), vec!["alice".to_string()])]),
            ..Facts::default()
        };
        serde_json::to_value(facts).unwrap()
    }

    /// Every node's JSON pointer.
    fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => m.iter().for_each(|(k, x)| pointers(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out)),
            Value::Array(items) => items.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{at}/{i}"), out)),
            _ => {}
        }
        out.push(at);
    }

    /// A mutated text of `base`, and whether it is meant to be JSON.
    fn mutate(base: &Value, rng: &mut Rng) -> String {
        let mut v = base.clone();
        let mut all = Vec::new();
        pointers(&v, String::new(), &mut all);
        // Markers the text is rewritten at after printing: forms a serde_json::Value cannot hold.
        let raw: [&str; 12] = [r#""\u0078""#, r#""\ud800""#, r#""\ud83d\ude00""#, r#""a\nb\/""#, "1e400", "1.5", "-0.0", "18446744073709551616", "-9223372036854775809", "1E2", r#""MERGEABL\u0045""#, r#"{"MERGEABLE": null}"#];
        let mut rewrites: Vec<(String, String)> = Vec::new();
        for _ in 0..rng.below(3) {
            let at = all[rng.below(all.len())].clone();
            let Some(node) = v.pointer_mut(&at) else { continue };
            match rng.below(6) {
                0 | 1 => {
                    let values = [json!(null), json!(true), json!(false), json!(0), json!(7), json!(-3), json!(4_294_967_296u64), json!(""), json!("x"), json!("MERGEABLE"), json!("APPROVED"), json!([]), json!([1]), json!(["a"]), json!({}), json!({"a": 1}), json!({"number": 1}), json!(1.25)];
                    *node = values[rng.below(values.len())].clone();
                }
                2 => {
                    let marker = format!("__raw{}__", rewrites.len());
                    rewrites.push((format!("\"{marker}\""), raw[rng.below(raw.len())].to_string()));
                    *node = json!(marker);
                }
                3 => {
                    if let Some(m) = node.as_object_mut() {
                        let keys: Vec<String> = m.keys().cloned().collect();
                        if !keys.is_empty() {
                            m.remove(&keys[rng.below(keys.len())]);
                        }
                    }
                }
                4 => {
                    if let Some(m) = node.as_object_mut() {
                        let keys: Vec<String> = m.keys().cloned().collect();
                        let marker = format!("__key{}__", rewrites.len());
                        // A repeated key, the same key escaped, or one no struct has.
                        let to = match (rng.below(3), keys.is_empty()) {
                            (0, false) => format!("\"{}\"", keys[rng.below(keys.len())]),
                            (1, false) => format!("\"\\u{:04x}{}\"", keys[0].as_bytes()[0], &keys[0][1..]),
                            _ => "\"nonsense\"".to_string(),
                        };
                        rewrites.push((format!("\"{marker}\""), to));
                        m.insert(marker, json!(1));
                    }
                }
                _ => {
                    if let Some(items) = node.as_array_mut() {
                        items.push(json!(null));
                    }
                }
            }
        }
        let mut text = if rng.below(2) == 0 { v.to_string() } else { serde_json::to_string_pretty(&v).unwrap() };
        for (from, to) in rewrites {
            text = text.replace(&from, &to);
        }
        // Bytes damaged now and then: text that is not JSON, somewhere.
        if rng.below(4) == 0 {
            let bytes = text.as_bytes();
            let at = rng.below(bytes.len() + 1);
            let mut damaged = bytes[..at].to_vec();
            match rng.below(3) {
                0 => damaged.extend_from_slice(bytes.get(at + 1..).unwrap_or_default()),
                1 => {
                    damaged.push(b"{}[],:\"\\ 0-tn\x01"[rng.below(14)]);
                    damaged.extend_from_slice(&bytes[at..]);
                }
                _ => {}
            }
            text = String::from_utf8_lossy(&damaged).into_owned();
        }
        text
    }

    /// The two readers on one text: the same value, or the same refusal.
    /// None where both read the text, else whether both refuse it as not JSON.
    fn same<T: Read + DeserializeOwned>(text: &str, value: fn(&T) -> Value) -> std::result::Result<Option<bool>, String> {
        match (from_str::<T>(text), crate::codec::json_path::from_str::<T>(text)) {
            (Ok(a), Ok(b)) if value(&a) == value(&b) => Ok(None),
            (Err(a), Err(b)) if a == b => Ok(Some(a.syntax)),
            (a, b) => Err(format!("{text}\n  pages: {:?}\n  action: {:?}", a.map(|v| value(&v)), b.map(|v| value(&v)))),
        }
    }

    fn whole<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap()
    }

    fn agree<T: Read + DeserializeOwned>(name: &str, bases: &[Value], cases: usize, seed: u64, value: fn(&T) -> Value) {
        let mut rng = Rng(seed);
        let (mut read, mut data, mut syntax) = (0, 0, 0);
        // Every fixture alike (some are refused on purpose); the ones that read are mutated.
        let mut valid = Vec::new();
        for base in bases {
            if same::<T>(&base.to_string(), value).unwrap_or_else(|e| panic!("{name}, unmutated: {e}")).is_none() {
                valid.push(base.clone());
            }
        }
        assert!(valid.len() >= 20, "{name}: {} of {} fixtures read", valid.len(), bases.len());
        let bases = valid;
        for _ in 0..cases {
            let text = mutate(&bases[rng.below(bases.len())], &mut rng);
            match same::<T>(&text, value) {
                Ok(None) => read += 1,
                Ok(Some(false)) => data += 1,
                Ok(Some(true)) => syntax += 1,
                Err(e) => panic!("{name}: the pages' reader and the Action's differ on\n{e}"),
            }
        }
        // Each outcome reached often enough to mean something (the counts are fixed by the seed).
        eprintln!("{name}: {read} read, {data} refused as the wrong shape, {syntax} as not JSON, of {cases}");
        for (what, n) in [("read", read), ("refused as the wrong shape", data), ("refused as not JSON", syntax)] {
            assert!(n * 30 >= cases, "{name}: only {n} of {cases} texts {what}");
        }
    }

    #[test]
    fn the_pages_reader_reads_facts_as_the_actions_does() {
        let mut bases = fixtures("facts");
        bases.push(full_facts());
        assert!(bases.len() > 20, "facts fixtures: {}", bases.len());
        agree::<Facts>("facts", &bases, 6000, 0x9e37_79b9_7f4a_7c15, whole);
        let requests: Vec<Value> = bases.iter().map(|f| json!({ "facts": f })).collect();
        agree::<crate::api::FactsInput>("request", &requests, 1500, 7, |i| whole(&i.facts));
    }

    #[test]
    fn the_pages_reader_reads_configs_as_the_actions_does() {
        let mut bases = fixtures("config");
        bases.push(serde_json::to_value(Config::default()).unwrap());
        assert!(bases.len() > 20, "config fixtures: {}", bases.len());
        agree::<Config>("config", &bases, 6000, 42, whole);
    }
}
