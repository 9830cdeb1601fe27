//! The answers' JSON text (issue 16): serde_json's compact output, byte for byte, from a writer whose
//! string escaping looks at eight bytes at a time. serde_json's looks each byte up in a table, and
//! escaping the plan's reasons was a twelfth of deciding a board of 10,000 pull requests in Wasm.
//!
//! Numbers go through serde_json's own formatter, so they are written as it writes them. Whatever
//! this writer does not take (bytes, a map key that is not a string or an integer) is an error, and
//! `to_string` then asks serde_json, so an answer or an error is always serde_json's.

use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer};
use serde_json::ser::{CompactFormatter, Formatter};
use std::fmt;

/// `serde_json::to_string`, faster for text with long strings.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Out(Vec::with_capacity(128));
    match value.serialize(&mut out) {
        Ok(()) => {
            debug_assert!(std::str::from_utf8(&out.0).is_ok(), "JSON text is UTF-8");
            // SAFETY: `Out`'s bytes are only ever whole `&str`s, pieces of one cut at an ASCII byte
            // (str's escapes), and ASCII. Checking them again was a millisecond of a 10,000-pull-request plan.
            Ok(unsafe { String::from_utf8_unchecked(out.0) })
        }
        Err(Unsupported) => serde_json::to_string(value),
    }
}

/// A value this writer (or json_in.rs's reader) leaves to serde_json.
#[derive(Debug)]
pub struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

impl serde::de::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

pub struct Out(Vec<u8>);

const ONES: u64 = u64::MAX / 255;

/// The index of the first byte from `i` on that JSON escapes (`"`, `\` or a control character), or
/// the length: where a string's plain run ends, written (here) or read (json_in.rs). The lowest flagged
/// byte of a word is exact (a borrow only runs upwards).
#[inline]
pub(crate) fn next_escape(b: &[u8], mut i: usize) -> usize {
    // The Action's and the CLI's build has Wasm's 128-bit vectors (scripts/build.sh): sixteen bytes a step.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128_load, v128_or};
        while i + 16 <= b.len() {
            // SAFETY: the sixteen bytes from `i` are inside `b` (checked above); Wasm loads need no alignment.
            let v = unsafe { v128_load(b.as_ptr().add(i).cast()) };
            let hits = v128_or(v128_or(u8x16_eq(v, u8x16_splat(b'"')), u8x16_eq(v, u8x16_splat(b'\\'))), u8x16_lt(v, u8x16_splat(0x20)));
            let mask = u8x16_bitmask(hits);
            if mask != 0 {
                return i + mask.trailing_zeros() as usize;
            }
            i += 16;
        }
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let ctrl = w.wrapping_sub(ONES * 0x20) & !w;
        let q = w ^ (ONES * u64::from(b'"'));
        let quote = q.wrapping_sub(ONES) & !q;
        let s = w ^ (ONES * u64::from(b'\\'));
        let slash = s.wrapping_sub(ONES) & !s;
        let hits = (ctrl | quote | slash) & (ONES << 7);
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !matches!(b[i], 0..=0x1f | b'"' | b'\\') {
        i += 1;
    }
    i
}

impl Out {
    fn str(&mut self, s: &str) {
        let b = s.as_bytes();
        self.0.reserve(b.len() + 2);
        self.0.push(b'"');
        let (mut start, mut i) = (0, 0);
        loop {
            i = next_escape(b, i);
            self.0.extend_from_slice(&b[start..i]);
            let Some(&c) = b.get(i) else { break };
            let short = match c {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                _ => 0,
            };
            if short != 0 {
                self.0.extend_from_slice(&[b'\\', short]);
            } else {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.0.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 0xf)]]);
            }
            i += 1;
            start = i;
        }
        self.0.push(b'"');
    }

    /// A number as serde_json's formatter writes it (writing into a Vec cannot fail).
    fn num(&mut self, write: impl FnOnce(&mut CompactFormatter, &mut Vec<u8>) -> std::io::Result<()>) {
        let _ = write(&mut CompactFormatter, &mut self.0);
    }
}

/// An object or array being written: whether the next entry is its first (no comma before it).
pub struct Compound<'a> {
    out: &'a mut Out,
    first: bool,
    /// Closing brackets: `}` or `]`, and `}` again for a variant's wrapping object.
    close: &'static [u8],
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.out.0.push(b',');
        }
        self.first = false;
    }

    /// A struct's field name: serde derive's, an identifier of the engine's own types, which JSON never
    /// escapes, so it is copied without the scan (a 10,000-pull-request plan has 214,000 of them).
    fn field(&mut self, key: &'static str) {
        debug_assert_eq!(next_escape(key.as_bytes(), 0), key.len(), "a field name JSON escapes: {key}");
        self.comma();
        let out = &mut self.out.0;
        out.reserve(key.len() + 3);
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\":");
    }

    fn end(self) -> Result<(), Unsupported> {
        self.out.0.extend_from_slice(self.close);
        Ok(())
    }
}

impl<'a> Serializer for &'a mut Out {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.0.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        self.num(|f, w| f.write_i64(w, v));
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Unsupported> {
        self.num(|f, w| f.write_i128(w, v));
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        self.num(|f, w| f.write_u64(w, v));
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Unsupported> {
        self.num(|f, w| f.write_u128(w, v));
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        // serde_json writes what is not a finite number as null.
        if v.is_finite() {
            self.num(|f, w| f.write_f32(w, v));
        } else {
            self.0.extend_from_slice(b"null");
        }
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        if v.is_finite() {
            self.num(|f, w| f.write_f64(w, v));
        } else {
            self.0.extend_from_slice(b"null");
        }
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.0.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unsupported> {
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, variant: &'static str, value: &T) -> Result<(), Unsupported> {
        self.0.push(b'{');
        self.str(variant);
        self.0.push(b':');
        value.serialize(&mut *self)?;
        self.0.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        self.0.push(b'[');
        Ok(Compound { out: self, first: true, close: b"]" })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        self.0.push(b'{');
        self.str(variant);
        self.0.extend_from_slice(b":[");
        Ok(Compound { out: self, first: true, close: b"]}" })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        self.0.push(b'{');
        Ok(Compound { out: self, first: true, close: b"}" })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Unsupported> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>, Unsupported> {
        self.0.push(b'{');
        self.str(variant);
        self.0.extend_from_slice(b":{");
        Ok(Compound { out: self, first: true, close: b"}}" })
    }
}

impl SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.comma();
        value.serialize(&mut *self.out)
    }
    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self)
    }
}

/// Tuples, tuple structs and tuple variants are arrays, as sequences are.
macro_rules! as_seq {
    ($($trait:ident $method:ident;)*) => {
        $(
            impl $trait for Compound<'_> {
                type Ok = ();
                type Error = Unsupported;
                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                    SerializeSeq::serialize_element(self, value)
                }
                fn end(self) -> Result<(), Unsupported> {
                    Compound::end(self)
                }
            }
        )*
    };
}

as_seq! {
    SerializeTuple serialize_element;
    SerializeTupleStruct serialize_field;
    SerializeTupleVariant serialize_field;
}

impl SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.comma();
        key.serialize(MapKey(&mut *self.out))?;
        self.out.0.push(b':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(&mut *self.out)
    }
    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self)
    }
}

/// Structs and struct variants are objects; a skipped field writes nothing.
macro_rules! as_object {
    ($($trait:ident;)*) => {
        $(
            impl $trait for Compound<'_> {
                type Ok = ();
                type Error = Unsupported;
                fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
                    self.field(key);
                    value.serialize(&mut *self.out)
                }
                fn end(self) -> Result<(), Unsupported> {
                    Compound::end(self)
                }
            }
        )*
    };
}

as_object! {
    SerializeStruct;
    SerializeStructVariant;
}

/// A map key: a string as it is, an integer in quotes (as serde_json writes them); anything else is
/// left to serde_json, which has rules of its own for it.
struct MapKey<'a>(&'a mut Out);

/// The key kinds serde_json writes and this writer leaves to it.
macro_rules! unsupported {
    ($($method:ident($($ty:ty),*);)*) => {
        $(
            fn $method(self, $(_: $ty),*) -> Result<(), Unsupported> {
                Err(Unsupported)
            }
        )*
    };
}

/// An integer key: the number in quotes.
macro_rules! int_key {
    ($($method:ident($ty:ty) => $write:ident;)*) => {
        $(
            fn $method(self, v: $ty) -> Result<(), Unsupported> {
                self.0 .0.push(b'"');
                self.0.num(|f, w| f.$write(w, v.into()));
                self.0 .0.push(b'"');
                Ok(())
            }
        )*
    };
}

impl Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.0.str(v);
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unsupported> {
        self.0.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    int_key! {
        serialize_i8(i8) => write_i64; serialize_i16(i16) => write_i64; serialize_i32(i32) => write_i64; serialize_i64(i64) => write_i64;
        serialize_u8(u8) => write_u64; serialize_u16(u16) => write_u64; serialize_u32(u32) => write_u64; serialize_u64(u64) => write_u64;
    }
    unsupported! {
        serialize_bool(bool); serialize_i128(i128); serialize_u128(u128); serialize_f32(f32); serialize_f64(f64);
        serialize_char(char); serialize_bytes(&[u8]); serialize_none(); serialize_unit(); serialize_unit_struct(&'static str);
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// Every shape serde_json writes, compared byte for byte.
    #[test]
    fn writes_what_serde_json_writes() {
        let mut text = String::new();
        for c in 0u8..0x80 {
            text.push(char::from(c));
        }
        text.push_str("é \u{2028} 🎉 a long run of plain text, longer than eight bytes\"\\");
        let value = json!({
            "s": text, "": "", "n": [0, -1, u64::MAX, i64::MIN, 1.5, -0.0, 1e300, 3.0], "b": [true, false, null],
            "nested": {"a": [[], {}, [{"x\"y": "z"}]]},
        });
        assert_eq!(to_string(&value).unwrap(), serde_json::to_string(&value).unwrap());
        for s in ["", "a", "\"", "12345678\"", "1234567\n", "ü1234567\u{1}", "\u{7f}"] {
            assert_eq!(to_string(s).unwrap(), serde_json::to_string(s).unwrap(), "{s:?}");
        }
        let keys: BTreeMap<u64, Option<f64>> = [(1, Some(f64::NAN)), (20, None), (3, Some(0.1))].into_iter().collect();
        assert_eq!(to_string(&keys).unwrap(), serde_json::to_string(&keys).unwrap());
        let plan = crate::core::plan::Plan { engine: "x".into(), ..Default::default() };
        assert_eq!(to_string(&plan).unwrap(), serde_json::to_string(&plan).unwrap());
    }

    /// The scan finds the first byte to escape wherever it falls in the word or vector steps and in the
    /// tail after them (the Action's Wasm scans sixteen bytes a step, native and the pages eight).
    #[test]
    fn the_scan_stops_at_the_first_escape() {
        for len in 0..40 {
            for at in 0..=len {
                for hit in [b'"', b'\\', 0x00, 0x1f] {
                    for before in [b'a', 0x20, 0x7f, 0xc3] {
                        let mut b = vec![before; len];
                        if at < len {
                            b[at] = hit;
                        }
                        for start in 0..=at.min(3) {
                            assert_eq!(next_escape(&b, start), at, "{b:?} from {start}");
                        }
                    }
                }
            }
        }
    }

    #[derive(serde::Serialize)]
    enum Shapes {
        Unit,
        Newtype(u8),
        Tuple(u8, char),
        Struct { a: (u8, u8), b: Option<()> },
    }

    #[test]
    fn enums_and_left_over_keys_match_serde_json() {
        for v in [Shapes::Unit, Shapes::Newtype(1), Shapes::Tuple(2, 'c'), Shapes::Struct { a: (3, 4), b: Some(()) }] {
            assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
        }
        // Keys this writer leaves to serde_json: its answer, or its error.
        let bools: BTreeMap<bool, u8> = [(true, 1)].into_iter().collect();
        assert_eq!(to_string(&bools).unwrap(), serde_json::to_string(&bools).unwrap());
        let tuples: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        assert_eq!(to_string(&tuples).unwrap_err().to_string(), serde_json::to_string(&tuples).unwrap_err().to_string());
    }
}
