//! A serde_json deserializer that reads every struct as a JSON object only (issue 16: the page's Wasm
//! size). serde derive gives every struct a second reader, for a positional array (`visit_seq`), and
//! serde_json's `deserialize_struct` calls it on `[`: code in every build for a shape no facts, request
//! or config ever has. Here a struct is asked for as a map, so that reader is never instantiated, and
//! an array where an object belongs is a type error naming its path like any other.
//!
//! Every other call is handed on as it is; the wrappers only carry this rule down to nested values.

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use std::fmt;

/// A deserializer whose structs are objects only.
pub struct Objects<D>(pub D);

/// A visitor whose nested values are read through `Objects`.
struct Wrap<V>(V);

/// A seed whose value is read through `Objects`.
struct Seed<S>(S);

/// A struct variant's fields, read as a map (`newtype_variant_seed` hands its deserializer here).
struct MapSeed<V>(V);

macro_rules! forward {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method($($($arg,)*)? Wrap(visitor))
            }
        )*
    };
}

/// A visitor's leaf methods, each handed on as it is (no nested value to wrap).
macro_rules! visit {
    ($($method:ident($($ty:ty)?);)*) => {
        $(
            #[inline]
            fn $method<E: de::Error>(self $(, v: $ty)?) -> Result<V::Value, E> {
                self.0.$method($(visit!(@arg v $ty))?)
            }
        )*
    };
    (@arg $v:ident $ty:ty) => { $v };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Objects<D> {
    type Error = D::Error;

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(self, _name: &'static str, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap(visitor))
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_ignored_any(visitor)
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_identifier(visitor)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }

    forward! {
        deserialize_any; deserialize_bool; deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
        deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64; deserialize_f32; deserialize_f64;
        deserialize_char; deserialize_str; deserialize_string; deserialize_bytes; deserialize_byte_buf;
        deserialize_option; deserialize_unit; deserialize_seq; deserialize_map;
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    visit! {
        visit_bool(bool);
        visit_i64(i64);
        visit_u64(u64);
        visit_i128(i128);
        visit_u128(u128);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
        visit_none();
        visit_unit();
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Objects(d))
    }
    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Objects(d))
    }
    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Wrap(seq))
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Wrap(map))
    }
    #[inline]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Wrap(data))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Wrap<A> {
    type Error = A::Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Wrap<A> {
    type Error = A::Error;

    // A key is a string in JSON, never a struct: read as it is.
    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Wrap<A> {
    type Error = A::Error;
    type Variant = Wrap<A::Variant>;

    #[inline]
    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Wrap<A::Variant>), A::Error> {
        self.0.variant_seed(seed).map(|(value, variant)| (value, Wrap(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Wrap<A> {
    type Error = A::Error;

    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, A::Error> {
        self.0.newtype_variant_seed(MapSeed(visitor))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Objects(d))
    }
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for MapSeed<V> {
    type Value = V::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_map(Wrap(self.0))
    }
}

/// `T` from JSON text, as `serde_json::from_str` reads it but with structs as objects only.
pub fn from_str<'a, T: de::Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Objects(&mut de))?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Inner {
        a: u32,
        #[serde(default)]
        b_c: Option<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
        maybe: Option<Inner>,
        #[serde(default)]
        map: std::collections::BTreeMap<String, Inner>,
    }

    #[test]
    fn objects_read_as_serde_json_reads_them_and_arrays_are_refused_at_every_depth() {
        let text = r#"{"inner": {"a": 1}, "list": [{"a": 2, "bC": "x"}], "maybe": null, "map": {"k": {"a": 3}}}"#;
        let ours: Outer = from_str(text).unwrap();
        assert_eq!(ours, Outer { inner: Inner { a: 1, b_c: None }, list: vec![Inner { a: 2, b_c: Some("x".into()) }], maybe: None, map: [("k".to_string(), Inner { a: 3, b_c: None })].into() });
        // (rule, text): serde_json alone takes each of these arrays as a struct's fields in order.
        let cases = [
            ("the root", r#"[{"a": 1}, [], null]"#),
            ("a field", r#"{"inner": [1], "list": [], "maybe": null}"#),
            ("an element of a list", r#"{"inner": {"a": 1}, "list": [[2]], "maybe": null}"#),
            ("inside an option", r#"{"inner": {"a": 1}, "list": [], "maybe": [3]}"#),
            ("a map's value", r#"{"inner": {"a": 1}, "list": [], "maybe": null, "map": {"k": [4]}}"#),
        ];
        for (rule, text) in cases {
            assert!(serde_json::from_str::<Outer>(text).is_ok(), "{rule}: serde_json reads it");
            let e = from_str::<Outer>(text).expect_err(rule);
            assert!(e.to_string().starts_with("invalid type: sequence, expected struct "), "{rule}: {e}");
        }
        // Trailing text is still an error, and so is bad syntax.
        assert!(from_str::<Inner>(r#"{"a": 1} x"#).unwrap_err().is_syntax());
        assert!(from_str::<Inner>(r#"{"a": "#).unwrap_err().is_eof());
    }
}

/// A struct's key or an enum's variant read as its place in `names`, or derive's unknown-field
/// (`deny_unknown_fields`) or unknown-variant error, raised while the name is read as derive's
/// identifier visitor does, so the error is the name's in every deserializer. One reader for the names
/// of every struct and enum read without derive (src/config.rs's label names, `read_unit_enum`),
/// where derive made one each. `VARIANT` (an enum's variant, else a struct's key)
/// picks the kind at compile time, so each kind's reading is as small as one written for it alone.
pub(crate) struct NameOf<const VARIANT: bool>(pub &'static [&'static str]);

impl<'de, const VARIANT: bool> DeserializeSeed<'de> for NameOf<VARIANT> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de, const VARIANT: bool> Visitor<'de> for NameOf<VARIANT> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if VARIANT { "variant identifier" } else { "field identifier" })
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        match self.0.iter().position(|name| *name == v) {
            Some(i) => Ok(i),
            None if VARIANT => Err(E::unknown_variant(v, self.0)),
            None => Err(E::unknown_field(v, self.0)),
        }
    }
}

/// A unit-only enum's variant by name, as serde derive reads one (`deserialize_enum`, so serde_json's
/// `{"name": null}` form too): "unknown variant `x`, expected one of ...", `enum Name` where a string
/// belongs. The pages' reader (src/lean.rs) hands serde_json every variant not written as a plain string.
#[cfg(any(test, not(feature = "full")))]
pub(crate) fn read_unit_enum<'de, D: Deserializer<'de>>(d: D, name: &'static str, variants: &'static [&'static str]) -> Result<usize, D::Error> {
    d.deserialize_enum(name, variants, UnitEnum { name, variants })
}

#[cfg(any(test, not(feature = "full")))]
struct UnitEnum {
    name: &'static str,
    variants: &'static [&'static str],
}

#[cfg(any(test, not(feature = "full")))]
impl<'de> Visitor<'de> for UnitEnum {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (i, variant) = data.variant_seed(NameOf::<true>(self.variants))?;
        variant.unit_variant()?;
        Ok(i)
    }
}

#[cfg(test)]
mod reader_tests {
    use crate::core::config::{followup, queue, stations, BotPanel, Config, Stale};
    use crate::core::facts::*;
    use schemars::JsonSchema;
    use serde::de::DeserializeOwned;
    use serde::Serialize;

    /// The pages' reader of a struct (src/lean.rs's `lean_object!`) against the schema serde derive's attributes give it: the
    /// same fields in declaration order, the same required ones, the same defaults. `sample` is a value
    /// whose required fields are valid (`Default`'s, where the struct has one).
    fn holds<T: crate::codec::lean::Read + DeserializeOwned + Serialize + JsonSchema>(name: &str, sample: T) {
        let root = schemars::schema_for!(T);
        let object = root.schema.object.as_ref().expect("an object schema");
        let mut properties: Vec<&str> = object.properties.keys().map(String::as_str).collect();
        let required: Vec<&str> = object.required.iter().map(String::as_str).collect();
        let read = |text: &str| crate::codec::lean::from_str::<T>(text);

        // Every field, and in declaration order (the order a default value serializes in).
        let e = read(r#"{"__unknown": 1}"#).err().unwrap_or_else(|| panic!("{name}: an unknown field is refused"));
        let expected = e.message.split_once("expected").expect("a field list").1;
        let listed: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
        let default_text = serde_json::to_string(&sample).unwrap();
        let KeysInOrder(keys) = serde_json::from_str(&default_text).unwrap();
        let at = |k: &str| keys.iter().position(|key| key == k);
        let serialized: Vec<&str> = listed.iter().copied().filter(|k| at(k).is_some()).collect();
        assert!(serialized.windows(2).all(|w| at(w[0]) < at(w[1])), "{name}: fields out of declaration order: {listed:?}");
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        properties.sort_unstable();
        assert_eq!(sorted, properties, "{name}: the reader's fields");

        // The required fields alone read; without any one of them, that one is named.
        let default: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&default_text).unwrap();
        let minimal: serde_json::Map<String, serde_json::Value> = required.iter().map(|k| (k.to_string(), default[*k].clone())).collect();
        let got = read(&serde_json::Value::Object(minimal.clone()).to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for k in &required {
            let mut less = minimal.clone();
            less.remove(*k);
            let e = read(&serde_json::Value::Object(less).to_string()).err().unwrap_or_else(|| panic!("{name}: {k} is required"));
            assert_eq!(e.message, format!("missing field `{k}`"), "{name}");
        }

        // What was left out takes its serde default: the schema's where it names one, else `Default`'s.
        let mut want = default;
        for (k, schema) in &object.properties {
            if let Some(d) = schema.clone().into_object().metadata.and_then(|m| m.default) {
                want.insert(k.clone(), d);
            }
        }
        assert_eq!(serde_json::to_value(&got).unwrap(), serde_json::Value::Object(want), "{name}: defaults");
    }

    /// An object's keys in the order its text has them (serde_json's map sorts them).
    struct KeysInOrder(Vec<String>);

    impl<'de> serde::Deserialize<'de> for KeysInOrder {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Keys;
            impl<'de> serde::de::Visitor<'de> for Keys {
                type Value = KeysInOrder;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<KeysInOrder, A::Error> {
                    let mut keys = Vec::new();
                    while let Some(key) = map.next_key::<String>()? {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        keys.push(key);
                    }
                    Ok(KeysInOrder(keys))
                }
            }
            d.deserialize_map(Keys)
        }
    }

    #[test]
    fn each_reader_reads_its_struct_as_derive_would() {
        holds("Facts", Facts::default());
        holds("Issue", Issue::default());
        holds("IssueRef", IssueRef::default());
        holds("QueueMemory", QueueMemory::default());
        holds("SetAsideRecord", SetAsideRecord::default());
        holds("Demotion", Demotion::default());
        holds("BoardIssue", BoardIssue::default());
        holds("PullRequest", PullRequest::default());
        holds("Review", Review::default());
        holds("Check", Check::default());
        holds("Comment", Comment::default());
        holds("TimelineEvent", TimelineEvent::default());
        holds("Config", Config::default());
        holds("BotPanel", BotPanel::default());
        holds("Stale", Stale::default());
        holds("Level", followup::Level { after: 0, action: followup::Action::Ping, who: vec![], message: None });
        holds("People", followup::People::default());
        holds("WorkingHours", followup::WorkingHours::default());
        holds("Board", followup::Board::default());
        holds("Followup", followup::Followup::default());
        holds("QueueConfig", queue::QueueConfig::default());
        holds("GeneratedBranch", queue::GeneratedBranch::default());
        holds("WatchConfig", queue::WatchConfig::default());
        holds("AutoFixConfig", queue::AutoFixConfig::default());
        holds("AutoFixStep", queue::AutoFixStep::default());
        holds("Machine", stations::Machine::default());
        holds("Gate", stations::Gate::default());
        holds("Stations", stations::Stations::default());
    }

    /// The pages' reader of a unit enum (`lean_enum!`) against its schema: the same names, in declaration
    /// order, each read back as the variant that writes it.
    fn enum_holds<T: crate::codec::lean::Read + Serialize + JsonSchema>(name: &str) {
        fn names(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    if let Some(serde_json::Value::Array(values)) = m.get("enum") {
                        out.extend(values.iter().filter_map(|x| x.as_str().map(str::to_string)));
                    }
                    for (k, x) in m {
                        if k != "enum" {
                            names(x, out);
                        }
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|x| names(x, out)),
                _ => {}
            }
        }
        let mut declared = Vec::new();
        names(&serde_json::to_value(schemars::schema_for!(T)).unwrap(), &mut declared);
        let e = crate::codec::lean::from_str::<T>(r#""__nope""#).err().unwrap_or_else(|| panic!("{name}: an unknown variant is refused"));
        let expected = e.message.split_once("expected").expect("a variant list").1;
        let listed: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
        assert_eq!(listed, declared, "{name}: the variants, in declaration order");
        for v in listed {
            let read = crate::codec::lean::from_str::<T>(&format!("\"{v}\"")).unwrap_or_else(|e| panic!("{name}: {v}: {e}"));
            assert_eq!(serde_json::to_value(read).unwrap(), v, "{name}");
        }
    }

    #[test]
    fn each_enum_reader_reads_its_variants_as_derive_would() {
        enum_holds::<RepoFact>("RepoFact");
        enum_holds::<PullFact>("PullFact");
        enum_holds::<Mergeable>("Mergeable");
        enum_holds::<crate::core::config::Flow>("Flow");
        enum_holds::<followup::Action>("Action");
        enum_holds::<followup::Day>("Day");
        enum_holds::<stations::Role>("Role");
    }

    /// Derive's other messages, at the same paths: a duplicate field, an array where an object belongs.
    #[test]
    fn duplicates_and_arrays_are_refused_as_derive_refuses_them() {
        let e = crate::codec::lean::from_str::<Facts>(r#"{"now": "x", "pullRequests": [{"number": 1, "number": 2}]}"#).unwrap_err();
        assert_eq!((e.path.as_str(), e.message.as_str()), ("$.pullRequests[0].number", "duplicate field `number`"));
        let e = crate::codec::lean::from_str::<Facts>(r#"{"now": "x", "pullRequests": [{"number": 1, "checks": [[]]}]}"#).unwrap_err();
        assert_eq!((e.path.as_str(), e.message.as_str()), ("$.pullRequests[0].checks[0]", "invalid type: sequence, expected struct Check"));
    }
}
