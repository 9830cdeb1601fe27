//! The requests' JSON reader for the Action's and the CLI's build (issue 16): the facts of a board
//! are megabytes of short strings, and serde_json's reader spent most of their reading on bookkeeping
//! around each one. This reader takes only the plain path: objects (a struct only as an object, the
//! rule of src/objects.rs), arrays, strings, `true`/`false`/`null` and unsigned integers. At anything
//! else (a sign, a fraction, a lone surrogate, a control character, a type the target does not take,
//! any error at all) it gives up, and serde_json reads the text from the start: every value it
//! answers is the one serde_json would give, and every error is serde_json's, with its JSON path.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, VariantAccess, Visitor};

/// `T` from JSON text, or none where serde_json has to say (or take) it.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    let mut reader = Reader { text, at: 0, depth: 0, scratch: Vec::new() };
    let value = T::deserialize(&mut reader).ok()?;
    reader.skip_ws();
    (reader.at == text.len()).then_some(value)
}

/// Bytes as text, checked to be UTF-8: `std::str::from_utf8`, its answer and its error, with an ASCII
/// run first checked sixteen bytes at a time in the Action's and the CLI's build. A request is
/// megabytes, nearly all ASCII, and std's own ASCII run goes a word at a time, four bytes in Wasm.
pub fn utf8(bytes: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, v128, v128_load, v128_or};
        let mut i = 0;
        while i + 64 <= bytes.len() {
            // SAFETY: the 64 bytes from `i` are inside `bytes` (checked above); Wasm loads need no alignment.
            let load = |k: usize| unsafe { v128_load(bytes.as_ptr().add(i + k).cast::<v128>()) };
            if u8x16_bitmask(v128_or(v128_or(load(0), load(16)), v128_or(load(32), load(48)))) != 0 {
                break;
            }
            i += 64;
        }
        // Everything before `i` is ASCII, so `i` starts a character and the rest is checked on its own.
        return match std::str::from_utf8(&bytes[i..]) {
            // SAFETY: an ASCII prefix followed by valid UTF-8 is valid UTF-8.
            Ok(_) => Ok(unsafe { std::str::from_utf8_unchecked(bytes) }),
            // The error as std gives it for the whole, its offsets counted from the start.
            Err(_) => std::str::from_utf8(bytes),
        };
    }
    #[allow(unreachable_code)]
    std::str::from_utf8(bytes)
}

/// The reader gave up: serde_json reads the text instead.
use crate::codec::json_out::Unsupported as GiveUp;

type Result<T> = std::result::Result<T, GiveUp>;

/// serde_json stops at 128 nested values; well before that, this reader leaves the text to it.
const MAX_DEPTH: usize = 100;

pub struct Reader<'de> {
    text: &'de str,
    at: usize,
    depth: usize,
    /// A string with escapes, decoded.
    scratch: Vec<u8>,
}

/// A string read: a slice of the text when it has no escapes, else decoded into the scratch.
enum Text<'de, 's> {
    Borrowed(&'de str),
    Decoded(&'s str),
}

impl<'de> Reader<'de> {
    #[inline]
    fn bytes(&self) -> &'de [u8] {
        self.text.as_bytes()
    }

    #[inline]
    fn skip_ws(&mut self) {
        let b = self.bytes();
        while self.at < b.len() && matches!(b[self.at], b' ' | b'\n' | b'\t' | b'\r') {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Result<u8> {
        self.skip_ws();
        self.bytes().get(self.at).copied().ok_or(GiveUp)
    }

    #[inline]
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.peek()? == byte {
            self.at += 1;
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes()[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(GiveUp)
        }
    }

    /// A string, its opening quote next (after whitespace).
    #[inline]
    fn string(&mut self) -> Result<Text<'de, '_>> {
        self.expect(b'"')?;
        let b = self.bytes();
        let start = self.at;
        let end = crate::codec::json_out::next_escape(b, start);
        match b.get(end) {
            Some(b'"') => {
                self.at = end + 1;
                Ok(Text::Borrowed(&self.text[start..end]))
            }
            Some(b'\\') => self.escaped(start, end),
            _ => Err(GiveUp),
        }
    }

    /// The rest of a string from its first escape at `end`, decoded into the scratch.
    fn escaped(&mut self, start: usize, mut end: usize) -> Result<Text<'de, '_>> {
        let b = self.bytes();
        self.scratch.clear();
        self.scratch.extend_from_slice(&b[start..end]);
        loop {
            match b.get(end) {
                Some(b'"') => break,
                Some(b'\\') => {
                    let short = match b.get(end + 1) {
                        Some(b'"') => b'"',
                        Some(b'\\') => b'\\',
                        Some(b'/') => b'/',
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0c,
                        Some(b'n') => b'\n',
                        Some(b'r') => b'\r',
                        Some(b't') => b'\t',
                        Some(b'u') => 0,
                        _ => return Err(GiveUp),
                    };
                    if short != 0 {
                        self.scratch.push(short);
                        end += 2;
                    } else {
                        let unit = hex4(b, end + 2)?;
                        end += 6;
                        let c = match unit {
                            0xd800..=0xdbff => {
                                // Only a whole surrogate pair is a character; serde_json refuses the rest.
                                if b.get(end..end + 2) != Some(b"\\u") {
                                    return Err(GiveUp);
                                }
                                let low = hex4(b, end + 2)?;
                                if !(0xdc00..=0xdfff).contains(&low) {
                                    return Err(GiveUp);
                                }
                                end += 6;
                                char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)).ok_or(GiveUp)?
                            }
                            _ => char::from_u32(unit).ok_or(GiveUp)?,
                        };
                        self.scratch.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                    }
                }
                _ => return Err(GiveUp),
            }
            let next = crate::codec::json_out::next_escape(b, end);
            self.scratch.extend_from_slice(&b[end..next]);
            end = next;
        }
        self.at = end + 1;
        std::str::from_utf8(&self.scratch).map(Text::Decoded).map_err(|_| GiveUp)
    }

    /// An unsigned integer without sign, fraction or exponent (anything else is left to serde_json).
    fn integer(&mut self) -> Result<u64> {
        let b = self.bytes();
        let start = self.at;
        let mut n: u64 = 0;
        while let Some(&c) = b.get(self.at).filter(|c| c.is_ascii_digit()) {
            n = n.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            self.at += 1;
        }
        let digits = self.at - start;
        // No digits, a leading zero, or a number that goes on (`.`, `e`). Nineteen digits always fit a
        // u64, so overflow is not checked digit by digit (a checked multiply is a 128-bit one in Wasm);
        // a longer number is serde_json's to read (as a float, maybe).
        if digits == 0 || digits > 19 || (digits > 1 && b[start] == b'0') || matches!(b.get(self.at), Some(b'.' | b'e' | b'E')) {
            return Err(GiveUp);
        }
        Ok(n)
    }

    fn nest(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(GiveUp);
        }
        Ok(())
    }
}

fn hex4(b: &[u8], at: usize) -> Result<u32> {
    let digits = b.get(at..at + 4).ok_or(GiveUp)?;
    digits.iter().try_fold(0u32, |n, &c| Ok(n * 16 + char::from(c).to_digit(16).ok_or(GiveUp)?))
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'{' => self.deserialize_map(visitor),
            b'[' => self.deserialize_seq(visitor),
            b'"' => self.deserialize_str(visitor),
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            _ => visitor.visit_u64(self.integer()?),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Text::Borrowed(s) => visitor.visit_borrowed_str(s),
            Text::Decoded(s) => visitor.visit_str(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? == b'n' {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.nest()?;
        let value = visitor.visit_seq(Items { reader: &mut *self, first: true })?;
        self.depth -= 1;
        self.expect(b']')?;
        Ok(value)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.nest()?;
        let value = visitor.visit_map(Items { reader: &mut *self, first: true })?;
        self.depth -= 1;
        self.expect(b'}')?;
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value> {
        // A unit variant by name; the `{"Variant": ...}` forms are left to serde_json, and so is
        // anything but a string, which serde_json refuses (read as an identifier, a number would pass
        // as the variant of that index).
        if self.peek()? != b'"' {
            return Err(GiveUp);
        }
        visitor.visit_enum(UnitVariant(self))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(GiveUp)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(GiveUp)
    }

    // The rest reads by what the text holds, as serde_json does, and the visitor says whether it takes it.
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char string unit unit_struct tuple tuple_struct identifier
    }
}

/// The entries of an object or the elements of an array.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl Items<'_, '_> {
    /// Whether another entry follows, past its comma; `close` ends the list.
    fn next(&mut self, close: u8) -> Result<bool> {
        let c = self.reader.peek()?;
        if c == close {
            return Ok(false);
        }
        if !std::mem::take(&mut self.first) {
            if c != b',' {
                return Err(GiveUp);
            }
            self.reader.at += 1;
        } else if c == b',' {
            return Err(GiveUp);
        }
        Ok(true)
    }
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.next(b']')? {
            return Ok(None);
        }
        // `[1,]`: a comma must be followed by a value.
        if self.reader.peek()? == b']' {
            return Err(GiveUp);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> MapAccess<'de> for Items<'_, 'de> {
    type Error = GiveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.next(b'}')? {
            return Ok(None);
        }
        // A key is a string (`{"a":1,}` ends in a quote-less key and gives up here).
        let key = match self.reader.string()? {
            Text::Borrowed(s) => seed.deserialize(de::value::BorrowedStrDeserializer::new(s)),
            Text::Decoded(s) => seed.deserialize(s.into_deserializer()),
        }?;
        self.reader.expect(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.reader)
    }
}

/// An enum written as its variant's name.
struct UnitVariant<'a, 'de>(&'a mut Reader<'de>);

impl<'de> EnumAccess<'de> for UnitVariant<'_, 'de> {
    type Error = GiveUp;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self)> {
        let value = seed.deserialize(&mut *self.0)?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for UnitVariant<'_, 'de> {
    type Error = GiveUp;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _: T) -> Result<T::Value> {
        Err(GiveUp)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(GiveUp)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], _: V) -> Result<V::Value> {
        Err(GiveUp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Every text either reads as serde_json reads it, or is left to serde_json.
    #[test]
    fn reads_what_serde_json_reads_or_gives_up() {
        let texts = [
            r#"{"a": [1, 2, {"b": null}], "c": "d\"e\\f\/g\b\f\n\r\t\u00e9\ud83c\udf89", "e": true, "f": false}"#,
            r#"  [ ]  "#,
            r#"{}"#,
            r#""plain, longer than eight bytes""#,
            r#"9999999999999999999"#,
            r#"18446744073709551615"#,
            r#"18446744073709551616"#,
            r#"-1"#,
            r#"1.5"#,
            r#"1e3"#,
            r#"01"#,
            r#"[1,]"#,
            r#"[,1]"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"[1 2]"#,
            r#""\ud800""#,
            r#""\udc00x""#,
            r#""\x""#,
            "\"a\u{1}\"",
            r#"[1] x"#,
            r#"nul"#,
            r#"tru"#,
            r#"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#,
            r#""é🎉 \u0041""#,
            r#"{"a":1,"a":2}"#,
        ];
        for text in texts {
            let ours: Option<Value> = from_str(text);
            let theirs: Option<Value> = serde_json::from_str(text).ok();
            if let Some(v) = ours {
                assert_eq!(Some(v), theirs, "{text}");
            }
        }
        // The plain ones are read here, not left over.
        assert!(from_str::<Value>(texts[0]).is_some());
        assert!(from_str::<Value>(texts[4]).is_some());
        assert!(from_str::<Value>(texts[5]).is_none(), "twenty digits are left to serde_json");
    }

    #[test]
    fn reads_facts_with_their_types() {
        let text = r#"{"now": "2026-11-30T12:00:00Z", "unknown": ["labels"], "pullRequests": [{"number": 3, "mergeable": "CONFLICTING", "checks": [{"name": "a", "status": "COMPLETED", "workflow": null, "id": 7}]}]}"#;
        let ours: crate::core::facts::Facts = from_str(text).expect("read here");
        assert_eq!(ours, serde_json::from_str(text).unwrap());
        // A field of the wrong type, or an unknown one, is for serde_json to name.
        assert!(from_str::<crate::core::facts::Facts>(r#"{"now": "x", "pullRequests": [{"number": "3"}]}"#).is_none());
        assert!(from_str::<crate::core::facts::Facts>(r#"{"now": "x", "nope": 1}"#).is_none());
        assert!(from_str::<crate::core::facts::Facts>(r#"{"now": "x", "pullRequests": [[3]]}"#).is_none());
        // An enum is a string here: a number is serde_json's to refuse, not a variant's index.
        let numbered = r#"{"now": "x", "pullRequests": [{"number": 3, "mergeable": 0}]}"#;
        assert!(serde_json::from_str::<crate::core::facts::Facts>(numbered).is_err());
        assert!(from_str::<crate::core::facts::Facts>(numbered).is_none());
    }
}
