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
