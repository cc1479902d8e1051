//! The binary form of a certificate (issue 47, `GCVALUE1`): the JSON data model written
//! compactly, read by a serde `Deserializer` of its own as the bytes arrive, so that every
//! certificate kind is filled from it exactly as from JSON (the same types, `deny_unknown_fields`
//! and the envelope's rules; a byte offset where JSON gives a line and column).
//!
//! The format (docs/formats.md, "Binary certificates", is the reference, with an example): the
//! magic `GCVALUE1`, then one value, then the end of the file. A value is a tag byte and its
//! payload; every number in a payload is a LEB128 varint (at most 10 bytes, within u64, no
//! redundant last zero byte).
//!
//! | tag | value |
//! |---|---|
//! | `00` `01` `02` | null, false, true |
//! | `03` v | the unsigned integer v |
//! | `04` m | the negative integer -1 - m (m < 2^63) |
//! | `05` 8 bytes | a finite f64, little-endian |
//! | `06` len, bytes | a string (UTF-8) |
//! | `07` len, bytes | a string, also appended to the string table |
//! | `08` i | the string table's entry i |
//! | `09` values `0B` | an array |
//! | `0A` (key value)* `0B` | an object; every key a string (`06` to `08`, `0D` to `0F`) |
//! | `0C` count, v* | an array of count unsigned integers |
//! | `0D` alphabet, count, bytes | a coded string: count characters of the alphabet (a string `06` to `08` of k = 2 to 16 distinct characters), c = floor(log_k 256) to a byte as a base-k number, the first most significant, the last byte the rest |
//! | `0E` count, bytes | a coded string in the alphabet of the last coded string |
//! | `0F` p, string | the first p bytes of the previous string, then the string (`06` to `08`, `0D`, `0E`) |
//! | `10`..`1F` values | an array of tag - 16 values |
//! | `80`..`FF` | the unsigned integer tag - 128 |
//!
//! The previous string (of `0F`) is the last string value of 8 to [`PREVIOUS_MAX`] bytes read:
//! not an object key, an alphabet or a `0F`'s own second part. The top-level value is an object
//! whose first three entries are `format`, `version` and `kind`, in this order (the body's type
//! depends on the kind, and the file is read once).
//!
//! **Budget.** Every value is charged [`VALUE_COST`] before it is handed on (a packed array's
//! elements each), every byte a string holds [`BYTE_COST`] before it is held (a literal as its
//! bytes arrive, a coded string a byte of codes at a time, a table entry's bytes again at every
//! reference, since the reader may copy them), every table entry [`ENTRY_COST`] more: what the
//! decoder and the types it fills hold is a bounded multiple of what was charged, and no count
//! or length read from the file sizes an allocation by itself (a string grows as its bytes
//! arrive; arrays give serde no size hint). Nesting is capped at [`MAX_DEPTH`] arrays and
//! objects (serde's recursion follows the file's nesting). A truncated file, an unknown tag, a
//! bad varint, a table index past the table, invalid UTF-8 or bytes after the value are errors
//! naming the byte offset.

use crate::base::budget::Budget;
use crate::base::error::FormatError;
use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use serde::Deserializer;
use std::fmt;
use std::io::BufRead;

/// The first eight bytes of a binary certificate.
pub const MAGIC: &[u8; 8] = b"GCVALUE1";

/// The deepest nesting of arrays and objects read (serde_json's limit).
pub const MAX_DEPTH: u32 = 128;

/// Units per value: the JSON reader's rate ([`crate::base::prepay::JSON_VALUE_COST`]), since
/// the same types are filled.
pub const VALUE_COST: u64 = crate::base::prepay::JSON_VALUE_COST;

/// Units per byte a string holds.
pub const BYTE_COST: u64 = crate::base::prepay::BYTE_COST;

/// Units per string-table entry, beyond its bytes.
pub const ENTRY_COST: u64 = 32;

/// The longest string kept as the previous string (of tag `0F`).
pub const PREVIOUS_MAX: usize = 4096;

/// How many JSON bytes a stored byte of a binary certificate counts for when the default
/// budget is sized (`Limits::for_input`): the binary form holds 3 to 6 times fewer bytes than
/// the JSON for the same check, and the largest honest certificate measured (a Voronoi value
/// on the binary tree of height 5, 18 MB) needs 9 (docs/checker-limits.md).
pub const BINARY_BYTE_WEIGHT: u64 = 10;

/// The bytes a certificate stored in `stored` bytes that starts with `head` counts for when
/// the default budget is sized: [`BINARY_BYTE_WEIGHT`] each for the binary form.
pub fn weighed(head: &[u8], stored: u64) -> u64 {
    match head.starts_with(MAGIC) {
        true => stored.saturating_mul(BINARY_BYTE_WEIGHT),
        false => stored,
    }
}

/// The tags (see the module docs).
pub mod tag {
    pub const NULL: u8 = 0x00;
    pub const FALSE: u8 = 0x01;
    pub const TRUE: u8 = 0x02;
    pub const UINT: u8 = 0x03;
    pub const NEG: u8 = 0x04;
    pub const FLOAT: u8 = 0x05;
    pub const STR: u8 = 0x06;
    pub const DEFINE: u8 = 0x07;
    pub const REF: u8 = 0x08;
    pub const ARRAY: u8 = 0x09;
    pub const OBJECT: u8 = 0x0A;
    pub const END: u8 = 0x0B;
    pub const PACKED: u8 = 0x0C;
    pub const CODED: u8 = 0x0D;
    pub const SAME: u8 = 0x0E;
    pub const FRONT: u8 = 0x0F;
    /// Arrays of 0 to 15 values: `SHORT + len`.
    pub const SHORT: u8 = 0x10;
    /// The unsigned integers 0 to 127: `SMALL + v`.
    pub const SMALL: u8 = 0x80;
}

/// Characters of an alphabet of `k` (2..=16) to a byte: the most c with k^c <= 256.
pub fn per_byte(k: usize) -> u32 {
    (1..=8).rev().find(|&c| k.pow(c) <= 256).unwrap_or(1)
}

/// A decoding error: a message and, once known, the byte offset it names.
#[derive(Debug)]
pub struct Error {
    message: String,
    offset: Option<u64>,
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error { message: message.to_string(), offset: None }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.offset {
            Some(at) => write!(f, "at byte {at}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

type Result<T> = std::result::Result<T, Error>;

/// A string just read: in the decoder's scratch buffer or in the table.
#[derive(Clone, Copy)]
enum Text {
    Scratch,
    Entry(usize),
}

/// The decoder: a serde `Deserializer` over a byte reader, charging `budget` as it reads.
pub struct Decoder<'b, R> {
    r: R,
    offset: u64,
    budget: &'b mut Budget,
    table: Vec<Box<str>>,
    scratch: Vec<u8>,
    previous: String,
    alphabet: Vec<char>,
    depth: u32,
    /// A tag read ahead (by `Option`, by an array's end) and where it was.
    peeked: Option<(u8, u64)>,
}

impl<'b, R: BufRead> Decoder<'b, R> {
    /// A decoder of `r` (at the magic) charging `budget`.
    pub fn new(r: R, budget: &'b mut Budget) -> Self {
        Decoder {
            r,
            offset: 0,
            budget,
            table: Vec::new(),
            scratch: Vec::new(),
            previous: String::new(),
            alphabet: Vec::new(),
            depth: 0,
            peeked: None,
        }
    }

    fn fail<T>(&self, at: u64, message: impl Into<String>) -> Result<T> {
        Err(Error { message: message.into(), offset: Some(at) })
    }

    fn charge(&mut self, units: u64) -> Result<()> {
        let at = self.offset;
        self.budget.charge(units, "reading the certificate").or_else(|why| self.fail(at, why))
    }

    /// The bytes buffered at the reader (empty at the end of the file).
    fn buffered(&mut self) -> Result<&[u8]> {
        let at = self.offset;
        match self.r.fill_buf() {
            Ok(buf) => Ok(buf),
            Err(e) => Err(Error { message: e.to_string(), offset: Some(at) }),
        }
    }

    fn byte(&mut self, what: &str) -> Result<u8> {
        let at = self.offset;
        let Some(&b) = self.buffered()?.first() else {
            return self.fail(at, format!("the file ends inside {what}"));
        };
        self.r.consume(1);
        self.offset += 1;
        Ok(b)
    }

    /// A LEB128 varint: at most 10 bytes, within u64, no redundant last zero byte.
    fn varint(&mut self, what: &str) -> Result<u64> {
        let at = self.offset;
        let (mut value, mut shift) = (0u64, 0u32);
        loop {
            let b = self.byte(what)?;
            let low = u64::from(b & 0x7f);
            if shift > 63 || shift == 63 && low > 1 {
                return self.fail(at, format!("{what} is a varint past 2^64 - 1"));
            }
            value |= low << shift;
            if b & 0x80 == 0 {
                if b == 0 && shift > 0 {
                    return self.fail(at, format!("{what} is a varint with a redundant zero byte"));
                }
                return Ok(value);
            }
            shift += 7;
        }
    }

    fn tag(&mut self) -> Result<(u8, u64)> {
        if let Some(peeked) = self.peeked.take() {
            return Ok(peeked);
        }
        let at = self.offset;
        Ok((self.byte("a value")?, at))
    }

    /// Reads `len` bytes into the scratch buffer, each charged before it is held.
    fn bytes(&mut self, len: u64) -> Result<()> {
        self.scratch.clear();
        let mut left = len;
        while left > 0 {
            let at = self.offset;
            let take = self.buffered()?.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            if take == 0 {
                return self.fail(
                    at,
                    format!("the file ends inside a string ({left} of its {len} bytes missing)"),
                );
            }
            self.charge(take as u64 * BYTE_COST)?;
            match self.r.fill_buf() {
                Ok(buf) => self.scratch.extend_from_slice(&buf[..take]),
                Err(e) => return self.fail(at, e.to_string()),
            }
            self.r.consume(take);
            self.offset += take as u64;
            left -= take as u64;
        }
        Ok(())
    }

    fn text(&self, text: Text) -> &str {
        match text {
            // The scratch buffer holds UTF-8 whenever a `Text::Scratch` is handed out.
            Text::Scratch => std::str::from_utf8(&self.scratch).unwrap_or_default(),
            Text::Entry(i) => &self.table[i],
        }
    }

    /// A string of tag `t` (read at `at`), charged; `value`: a string value (not a key, an
    /// alphabet or a suffix), which may become the previous string.
    fn string(&mut self, t: u8, at: u64, value: bool) -> Result<Text> {
        let text = match t {
            tag::STR | tag::DEFINE => {
                let len = self.varint("a string's length")?;
                self.bytes(len)?;
                if let Err(e) = std::str::from_utf8(&self.scratch) {
                    return self.fail(
                        at,
                        format!("a string is not UTF-8 (its byte {} is invalid)", e.valid_up_to()),
                    );
                }
                if t == tag::STR {
                    Text::Scratch
                } else {
                    self.charge(ENTRY_COST.saturating_add(len.saturating_mul(BYTE_COST)))?;
                    self.table.push(self.text(Text::Scratch).into());
                    Text::Entry(self.table.len() - 1)
                }
            }
            tag::REF => {
                let index = self.varint("a string's index")?;
                let Some(entry) = usize::try_from(index).ok().filter(|&i| i < self.table.len())
                else {
                    let entries = self.table.len();
                    return self.fail(
                        at,
                        format!("string index {index} is past the table's {entries} entries"),
                    );
                };
                self.charge((self.table[entry].len() as u64).saturating_mul(BYTE_COST))?;
                Text::Entry(entry)
            }
            tag::CODED | tag::SAME => self.coded(t)?,
            tag::FRONT => {
                let p = self.varint("a prefix's length")?;
                let Some(p) =
                    usize::try_from(p).ok().filter(|&p| self.previous.is_char_boundary(p))
                else {
                    return self.fail(
                        at,
                        format!(
                            "a prefix of {p} bytes of the previous string of {} bytes",
                            self.previous.len()
                        ),
                    );
                };
                self.charge(p as u64 * BYTE_COST)?;
                let (t, suffix_at) = self.tag()?;
                if !matches!(t, tag::STR | tag::DEFINE | tag::REF | tag::CODED | tag::SAME) {
                    return self.fail(
                        suffix_at,
                        format!("tag {t:#04x} where a prefixed string's rest was expected"),
                    );
                }
                let rest = self.string(t, suffix_at, false)?;
                let mut whole = self.previous.as_bytes()[..p].to_vec();
                whole.extend_from_slice(self.text(rest).as_bytes());
                self.scratch = whole;
                Text::Scratch
            }
            _ => return self.fail(at, format!("tag {t:#04x} where a string was expected")),
        };
        let len = self.text(text).len();
        if value && (8..=PREVIOUS_MAX).contains(&len) {
            let text = match text {
                Text::Scratch => std::str::from_utf8(&self.scratch).unwrap_or_default(),
                Text::Entry(i) => &self.table[i],
            };
            self.previous.clear();
            self.previous.push_str(text);
        }
        Ok(text)
    }

    /// A coded string (tag `0D` with its alphabet, `0E` with the last one), into the scratch
    /// buffer.
    fn coded(&mut self, t: u8) -> Result<Text> {
        if t == tag::CODED {
            let (t, at) = self.tag()?;
            if !matches!(t, tag::STR | tag::DEFINE | tag::REF) {
                return self.fail(at, format!("tag {t:#04x} where an alphabet was expected"));
            }
            let text = self.string(t, at, false)?;
            let alphabet: Vec<char> = self.text(text).chars().take(17).collect();
            let distinct = (1..alphabet.len()).all(|i| !alphabet[..i].contains(&alphabet[i]));
            if !(2..=16).contains(&alphabet.len()) || !distinct {
                return self.fail(at, "an alphabet is not 2 to 16 distinct characters");
            }
            self.alphabet = alphabet;
        } else if self.alphabet.is_empty() {
            return self.fail(self.offset - 1, "tag 0x0e before any coded string");
        }
        let count = self.varint("a coded string's length")?;
        let k = self.alphabet.len();
        let c = per_byte(k);
        let widest = self.alphabet.iter().map(|ch| ch.len_utf8()).max().unwrap_or(1) as u64;
        let mut out = Vec::new();
        let mut left = count;
        while left > 0 {
            let at = self.offset;
            let b = self.byte("a coded string")?;
            let here = left.min(u64::from(c)) as u32;
            // What the byte decodes to is charged before it is held.
            self.charge(u64::from(here) * widest * BYTE_COST)?;
            if usize::from(b) >= k.pow(here) {
                return self.fail(
                    at,
                    format!("byte {b} codes more than {here} characters of an alphabet of {k}"),
                );
            }
            let mut buf = [0u8; 4];
            for i in (0..here).rev() {
                let code = usize::from(b) / k.pow(i) % k;
                out.extend_from_slice(self.alphabet[code].encode_utf8(&mut buf).as_bytes());
            }
            left -= u64::from(here);
        }
        self.scratch = out;
        Ok(Text::Scratch)
    }

    fn enter(&mut self, at: u64) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return self.fail(at, format!("arrays and objects nested deeper than {MAX_DEPTH}"));
        }
        self.depth += 1;
        Ok(())
    }

    /// Reads the magic, the top-level object's tag and its first three entries, `format`,
    /// `version` and `kind` in this order, as JSON values (for the envelope's rules).
    fn envelope(&mut self) -> Result<[serde_json::Value; 3]> {
        for &expected in MAGIC {
            if self.byte("the magic")? != expected {
                return self.fail(0, "not a binary certificate (it does not start with GCVALUE1)");
            }
        }
        let (t, at) = self.tag()?;
        if t != tag::OBJECT {
            return self.fail(at, "the top-level value is not an object");
        }
        self.charge(VALUE_COST)?;
        self.enter(at)?;
        let mut header =
            [serde_json::Value::Null, serde_json::Value::Null, serde_json::Value::Null];
        for (field, slot) in ["format", "version", "kind"].into_iter().zip(&mut header) {
            let (t, at) = self.tag()?;
            let key = if t == tag::END { None } else { Some(self.string(t, at, false)?) };
            if key.map(|k| self.text(k)) != Some(field) {
                return self.fail(
                    at,
                    "the top-level object does not start with `format`, `version` and `kind`, in this order",
                );
            }
            *slot = serde::Deserialize::deserialize(&mut *self)?;
        }
        Ok(header)
    }

    /// Reads the rest of the top-level object into `T`, then the end of the file.
    fn body<T: DeserializeOwned>(&mut self) -> Result<T> {
        let mut entries = Entries { de: self, top: true, ended: false };
        let value = T::deserialize(MapAccessDeserializer::new(&mut entries))?;
        entries.finish()?;
        if self.peeked.is_some() || !self.buffered()?.is_empty() {
            return self.fail(self.offset, "bytes after the certificate's value");
        }
        Ok(value)
    }

    /// The error as a [`FormatError`], at the offset the decoder stopped at when it names none.
    fn located(&self, err: Error) -> FormatError {
        let at = err.offset.unwrap_or(self.offset);
        FormatError::new(format!("at byte {at}: {}", err.message))
    }
}

/// Reads a binary file's envelope (`header` checks its three values and returns the kind, as
/// for JSON), then its body with `read`, given the kind.
pub fn read<R: BufRead, T>(
    r: R,
    budget: &mut Budget,
    header: impl FnOnce([serde_json::Value; 3]) -> std::result::Result<String, FormatError>,
    read: impl FnOnce(&str, &mut Decoder<R>) -> std::result::Result<T, FormatError>,
) -> std::result::Result<T, FormatError> {
    let mut de = Decoder::new(r, budget);
    let values = de.envelope().map_err(|e| de.located(e))?;
    let kind = header(values)?;
    read(&kind, &mut de)
}

/// The body of a binary file whose envelope [`read`] has read, as a `T`.
pub fn body<T: DeserializeOwned, R: BufRead>(
    de: &mut Decoder<R>,
) -> std::result::Result<T, FormatError> {
    de.body().map_err(|e| de.located(e))
}

/// Reads any value (after the magic) with `seed`, then the end of the file: for tools that
/// read a binary file without knowing its kind (`gamecert convert`).
pub fn read_value<'de, R: BufRead, S: DeserializeSeed<'de>>(
    r: R,
    budget: &mut Budget,
    seed: S,
) -> std::result::Result<S::Value, FormatError> {
    let mut de = Decoder::new(r, budget);
    let read = (|| {
        for &expected in MAGIC {
            if de.byte("the magic")? != expected {
                return de.fail(0, "not a binary file (it does not start with GCVALUE1)");
            }
        }
        let value = seed.deserialize(&mut de)?;
        if !de.buffered()?.is_empty() {
            return de.fail(de.offset, "bytes after the value");
        }
        Ok(value)
    })();
    read.map_err(|e| de.located(e))
}

impl<'de, R: BufRead> Deserializer<'de> for &mut Decoder<'_, R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (t, at) = self.tag()?;
        self.charge(VALUE_COST)?;
        match t {
            tag::NULL => visitor.visit_unit(),
            tag::FALSE => visitor.visit_bool(false),
            tag::TRUE => visitor.visit_bool(true),
            tag::UINT => visitor.visit_u64(self.varint("an integer")?),
            tag::NEG => {
                let m = self.varint("an integer")?;
                match i64::try_from(m) {
                    Ok(m) => visitor.visit_i64(-1 - m),
                    Err(_) => self.fail(at, format!("the integer -1 - {m} is below -2^63")),
                }
            }
            tag::FLOAT => {
                let mut b = [0u8; 8];
                for x in &mut b {
                    *x = self.byte("a number")?;
                }
                match f64::from_le_bytes(b) {
                    x if x.is_finite() => visitor.visit_f64(x),
                    _ => self.fail(at, "a number that is not finite"),
                }
            }
            tag::STR | tag::DEFINE | tag::REF | tag::CODED | tag::SAME | tag::FRONT => {
                let text = self.string(t, at, true)?;
                visitor.visit_str(self.text(text))
            }
            tag::ARRAY | tag::SHORT..=0x1f => {
                self.enter(at)?;
                let left = (t != tag::ARRAY).then(|| u64::from(t - tag::SHORT));
                let mut elements = Elements { de: &mut *self, left, packed: false, ended: false };
                let value = visitor.visit_seq(&mut elements)?;
                elements.finish()?;
                self.depth -= 1;
                Ok(value)
            }
            tag::PACKED => {
                let count = self.varint("an array's count")?;
                let mut elements =
                    Elements { de: self, left: Some(count), packed: true, ended: false };
                let value = visitor.visit_seq(&mut elements)?;
                elements.finish()?;
                Ok(value)
            }
            tag::OBJECT => {
                self.enter(at)?;
                let mut entries = Entries { de: &mut *self, top: false, ended: false };
                let value = visitor.visit_map(&mut entries)?;
                entries.finish()?;
                self.depth -= 1;
                Ok(value)
            }
            t if t >= tag::SMALL => visitor.visit_u64(u64::from(t - tag::SMALL)),
            tag::END => self.fail(at, "an end (tag 0x0b) where a value was expected"),
            t => self.fail(at, format!("unknown tag {t:#04x}")),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (t, at) = self.tag()?;
        if t == tag::NULL {
            self.charge(VALUE_COST)?;
            return visitor.visit_none();
        }
        self.peeked = Some((t, at));
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let (t, at) = self.tag()?;
        if t != tag::OBJECT {
            // A unit variant is its name, anything else goes to the visitor as it is.
            if !matches!(t, tag::STR | tag::DEFINE | tag::REF | tag::CODED | tag::SAME | tag::FRONT)
            {
                self.peeked = Some((t, at));
                return self.deserialize_any(visitor);
            }
            self.charge(VALUE_COST)?;
            let text = self.string(t, at, true)?;
            return visitor.visit_enum(StrDeserializer::<Error>::new(self.text(text)));
        }
        self.charge(VALUE_COST)?;
        self.enter(at)?;
        let value = visitor.visit_enum(Variant { de: &mut *self })?;
        let (t, end_at) = self.tag()?;
        if t != tag::END {
            return self.fail(end_at, "an enum's object holds more than one entry");
        }
        self.depth -= 1;
        Ok(value)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// An array's elements: until its end tag, or `left` more (`packed`: unsigned integers).
struct Elements<'a, 'b, R> {
    de: &'a mut Decoder<'b, R>,
    left: Option<u64>,
    packed: bool,
    ended: bool,
}

impl<R: BufRead> Elements<'_, '_, R> {
    /// After the visitor: an array holds no more elements than the type took (as serde_json,
    /// whose "trailing characters" this is).
    fn finish(&mut self) -> Result<()> {
        let at = self.de.offset;
        match self.left {
            Some(0) => Ok(()),
            Some(_) => self.de.fail(at, "an array holds more elements than expected"),
            None if self.ended => Ok(()),
            None => match self.de.tag()? {
                (tag::END, _) => Ok(()),
                (_, at) => self.de.fail(at, "an array holds more elements than expected"),
            },
        }
    }
}

/// A packed integer: an unsigned integer, or one inside `Some`, as serde_json reads `5`.
struct Packed(u64);

impl<'de> Deserializer<'de> for Packed {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_u64(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de, R: BufRead> de::SeqAccess<'de> for Elements<'_, '_, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match &mut self.left {
            Some(0) => Ok(None),
            Some(left) if self.packed => {
                *left -= 1;
                let v = self.de.varint("a packed integer")?;
                self.de.charge(VALUE_COST)?;
                seed.deserialize(Packed(v)).map(Some)
            }
            Some(left) => {
                *left -= 1;
                seed.deserialize(&mut *self.de).map(Some)
            }
            None => {
                let (t, at) = self.de.tag()?;
                if t == tag::END {
                    self.ended = true;
                    return Ok(None);
                }
                self.de.peeked = Some((t, at));
                seed.deserialize(&mut *self.de).map(Some)
            }
        }
    }
}

/// An object's entries until its end tag; at the top level, past the envelope, whose keys may
/// not come again.
struct Entries<'a, 'b, R> {
    de: &'a mut Decoder<'b, R>,
    top: bool,
    ended: bool,
}

impl<R: BufRead> Entries<'_, '_, R> {
    /// After the visitor: the object's end (a visitor stopping early leaves entries unread).
    fn finish(&mut self) -> Result<()> {
        match self.ended {
            true => Ok(()),
            false => match self.de.tag()? {
                (tag::END, _) => Ok(()),
                (_, at) => self.de.fail(at, "an object holds more entries than expected"),
            },
        }
    }
}

impl<'de, R: BufRead> de::MapAccess<'de> for Entries<'_, '_, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let (t, at) = self.de.tag()?;
        if t == tag::END {
            self.ended = true;
            return Ok(None);
        }
        if !matches!(t, tag::STR | tag::DEFINE | tag::REF | tag::CODED | tag::SAME | tag::FRONT) {
            return self.de.fail(at, format!("tag {t:#04x} where an object's key was expected"));
        }
        self.de.charge(VALUE_COST)?;
        let text = self.de.string(t, at, false)?;
        let key = self.de.text(text);
        if self.top && ["format", "version", "kind"].contains(&key) {
            return self.de.fail(at, format!("duplicate field `{key}`"));
        }
        seed.deserialize(StrDeserializer::<Error>::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
}

/// An enum written as an object of one entry: the variant's name, then its content.
struct Variant<'a, 'b, R> {
    de: &'a mut Decoder<'b, R>,
}

impl<'de, R: BufRead> de::EnumAccess<'de> for Variant<'_, '_, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let (t, at) = self.de.tag()?;
        let text = self.de.string(t, at, false)?;
        let value = seed.deserialize(StrDeserializer::<Error>::new(self.de.text(text)))?;
        Ok((value, self))
    }
}

impl<'de, R: BufRead> de::VariantAccess<'de> for Variant<'_, '_, R> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        serde::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.de.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.de.deserialize_any(visitor)
    }
}
