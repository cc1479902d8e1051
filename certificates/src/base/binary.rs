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
    // In u64 and checked: 16^8 does not fit a 32-bit usize.
    let k = k as u64;
    (1..=8).rev().find(|&c| k.checked_pow(c).is_some_and(|p| p <= 256)).unwrap_or(1)
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

    /// Consumes `n` bytes of the reader's buffer, counting them (checked: an offset past
    /// 2^64 - 1 is an error, not a wrap).
    fn advance(&mut self, n: usize) -> Result<()> {
        let at = self.offset;
        let Some(next) = u64::try_from(n).ok().and_then(|n| at.checked_add(n)) else {
            return self.fail(at, "the file is longer than 2^64 - 1 bytes");
        };
        self.r.consume(n);
        self.offset = next;
        Ok(())
    }

    fn byte(&mut self, what: &str) -> Result<u8> {
        let at = self.offset;
        let Some(&b) = self.buffered()?.first() else {
            return self.fail(at, format!("the file ends inside {what}"));
        };
        self.advance(1)?;
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
            // `take` is at most `left`, a u64.
            let taken = u64::try_from(take).unwrap_or(left);
            self.charge(taken.saturating_mul(BYTE_COST))?;
            match self.r.fill_buf() {
                Ok(buf) => self.scratch.extend_from_slice(&buf[..take]),
                Err(e) => return self.fail(at, e.to_string()),
            }
            self.advance(take)?;
            left = left.saturating_sub(taken);
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
                    Text::Entry(self.table.len().saturating_sub(1))
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
                let held = u64::try_from(self.table[entry].len()).unwrap_or(u64::MAX);
                self.charge(held.saturating_mul(BYTE_COST))?;
                Text::Entry(entry)
            }
            tag::CODED | tag::SAME => self.coded(t, at)?,
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
                // p is at most the previous string's length, at most PREVIOUS_MAX.
                self.charge(u64::try_from(p).unwrap_or(u64::MAX).saturating_mul(BYTE_COST))?;
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
    fn coded(&mut self, t: u8, at: u64) -> Result<Text> {
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
            return self.fail(at, "tag 0x0e before any coded string");
        }
        let count = self.varint("a coded string's length")?;
        // k is 2 to 16 and c the most with k^c <= 256: every power below is at most 256, in
        // u32 (checked all the same).
        let k = self.alphabet.len() as u32;
        let c = per_byte(k as usize);
        let widest = self.alphabet.iter().map(|ch| ch.len_utf8() as u64).max().unwrap_or(1);
        let mut out = Vec::new();
        let mut left = count;
        while left > 0 {
            let at = self.offset;
            let b = self.byte("a coded string")?;
            let here = u32::try_from(left.min(u64::from(c))).unwrap_or(c);
            // What the byte decodes to is charged before it is held.
            self.charge(u64::from(here).saturating_mul(widest).saturating_mul(BYTE_COST))?;
            if k.checked_pow(here).is_none_or(|limit| u32::from(b) >= limit) {
                return self.fail(
                    at,
                    format!("byte {b} codes more than {here} characters of an alphabet of {k}"),
                );
            }
            let mut buf = [0u8; 4];
            let mut rest = u32::from(b);
            let mut codes = [0u32; 8];
            for code in codes[..here as usize].iter_mut().rev() {
                *code = rest % k;
                rest /= k;
            }
            for &code in &codes[..here as usize] {
                let ch = self.alphabet[code as usize];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            left = left.saturating_sub(u64::from(here));
        }
        self.scratch = out;
        Ok(Text::Scratch)
    }

    fn enter(&mut self, at: u64) -> Result<()> {
        match self.depth.checked_add(1).filter(|&d| d <= MAX_DEPTH) {
            Some(depth) => {
                self.depth = depth;
                Ok(())
            }
            None => self.fail(at, format!("arrays and objects nested deeper than {MAX_DEPTH}")),
        }
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads the magic, the top-level object's tag and its first three entries, `format`,
    /// `version` and `kind` in this order, as JSON values (for the envelope's rules), with the
    /// offsets of the three values.
    fn envelope(&mut self) -> Result<([serde_json::Value; 3], [u64; 3])> {
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
        let mut places = [0u64; 3];
        let fields = ["format", "version", "kind"].into_iter().zip(&mut header).zip(&mut places);
        for ((field, slot), place) in fields {
            let (t, at) = self.tag()?;
            let key = if t == tag::END { None } else { Some(self.string(t, at, false)?) };
            if key.map(|k| self.text(k)) != Some(field) {
                return self.fail(
                    at,
                    "the top-level object does not start with `format`, `version` and `kind`, in this order",
                );
            }
            *place = self.offset;
            *slot = serde::Deserialize::deserialize(&mut *self)?;
        }
        Ok((header, places))
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
    let (values, [format, version, kind]) = de.envelope().map_err(|e| de.located(e))?;
    // The envelope's rules give JSON's messages, in the order format, version, kind: each
    // is placed at the value it names.
    let place = |at: u64, e: FormatError| FormatError::new(format!("at byte {at}: {}", e.message));
    let name = header(values).map_err(|e| {
        // By the messages' openings (format.rs, `kind_of`), never by what a value holds.
        let m = e.message.as_str();
        let at = if m.starts_with("version ")
            || m.starts_with("missing or non-numeric field `version`")
        {
            version
        } else if m.starts_with("field `kind`") || m.starts_with("missing field `kind`") {
            kind
        } else {
            format
        };
        place(at, e)
    })?;
    // A kind the reader does not know is the kind's value; the body's errors are placed.
    read(&name, &mut de)
        .map_err(|e| if e.message.starts_with("at byte ") { e } else { place(kind, e) })
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
        if de.peeked.is_some() || !de.buffered()?.is_empty() {
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
                match i64::try_from(m).ok().and_then(|m| (-1i64).checked_sub(m)) {
                    Some(v) => visitor.visit_i64(v),
                    None => self.fail(at, format!("the integer -1 - {m} is below -2^63")),
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
                let left = (t != tag::ARRAY).then(|| u64::from(t & 0x0f));
                let mut elements = Elements { de: &mut *self, left, packed: false, ended: false };
                let value = visitor.visit_seq(&mut elements)?;
                elements.finish()?;
                self.leave();
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
                self.leave();
                Ok(value)
            }
            t if t >= tag::SMALL => visitor.visit_u64(u64::from(t & 0x7f)),
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
        self.leave();
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
                *left = left.saturating_sub(1);
                let v = self.de.varint("a packed integer")?;
                self.de.charge(VALUE_COST)?;
                seed.deserialize(Packed(v)).map(Some)
            }
            Some(left) => {
                *left = left.saturating_sub(1);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Certificate;

    /// A literal string.
    fn s(text: &str) -> Vec<u8> {
        let mut out = vec![tag::STR, text.len() as u8];
        out.extend_from_slice(text.as_bytes());
        out
    }

    /// A certificate file: the magic, the envelope of `kind`, the entries, the end.
    fn file(kind: &str, entries: &[Vec<u8>]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(tag::OBJECT);
        out.extend(s("format"));
        out.extend(s("gamecert-certificate"));
        out.extend(s("version"));
        out.push(tag::SMALL + 1);
        out.extend(s("kind"));
        out.extend(s(kind));
        for e in entries {
            out.extend_from_slice(e);
        }
        out.push(tag::END);
        out
    }

    /// The dnf-strategy `{"player": "first", "claim": "wins", "moves": [["1.", 2]]}`, its
    /// move's position and number given.
    fn dnf(position: Vec<u8>, number: Vec<u8>) -> Vec<u8> {
        let mut moves = vec![tag::ARRAY, tag::SHORT + 2];
        moves.extend(position);
        moves.extend(number);
        moves.push(tag::END);
        file("dnf-strategy", &[s("player"), s("first"), s("claim"), s("wins"), s("moves"), moves])
    }

    fn read(bytes: &[u8]) -> std::result::Result<Certificate, String> {
        let mut budget = Budget::new(1 << 30);
        Certificate::from_binary(bytes, &mut budget).map_err(|e| e.message)
    }

    fn error(bytes: &[u8]) -> String {
        read(bytes).map(|c| format!("read as {c:?}")).unwrap_err()
    }

    #[test]
    fn reads_what_json_reads() {
        let json = r#"{"format": "gamecert-certificate", "version": 1, "kind": "dnf-strategy",
            "player": "first", "claim": "wins", "moves": [["1.", 2]]}"#;
        let expected = Certificate::from_json(json).unwrap();
        assert_eq!(read(&dnf(s("1."), vec![tag::SMALL + 2])).unwrap(), expected);
        // The same value in other encodings: a defined string and a reference, a coded one,
        // a packed array, an integer by its varint.
        let coded = vec![tag::CODED, tag::STR, 2, b'.', b'1', 2, 0b10];
        assert_eq!(read(&dnf(coded, vec![tag::UINT, 2])).unwrap(), expected);
        let mut defined = s("1.");
        defined[0] = tag::DEFINE;
        let mut twice = dnf(defined, vec![tag::SMALL + 2]);
        let at = twice.len() - 1;
        // A second move referring to entry 0 of the table (the keys were literals).
        twice.splice(at - 1..at - 1, [tag::SHORT + 2, tag::REF, 0, tag::SMALL + 2]);
        let json2 = json.replace(r#"[["1.", 2]]"#, r#"[["1.", 2], ["1.", 2]]"#);
        assert_eq!(read(&twice).unwrap(), Certificate::from_json(&json2).unwrap());
    }

    #[test]
    fn coded_strings_decode_in_base_k() {
        // "WB.W.B" in the alphabet ".BW" (k = 3, five to a byte): codes 2 1 0 2 0 | 1.
        let byte = (((2 * 3 + 1) * 3) * 3 + 2) * 3;
        let position = vec![tag::CODED, tag::STR, 3, b'.', b'B', b'W', 6, byte, 1];
        let json = r#"{"format": "gamecert-certificate", "version": 1, "kind": "dnf-strategy",
            "player": "first", "claim": "wins", "moves": [["WB.W.B", 2]]}"#;
        assert_eq!(
            read(&dnf(position, vec![tag::SMALL + 2])).unwrap(),
            Certificate::from_json(json).unwrap()
        );
        assert_eq!(
            (per_byte(2), per_byte(3), per_byte(4), per_byte(6), per_byte(7), per_byte(16)),
            (8, 5, 4, 3, 2, 2)
        );
    }

    #[test]
    fn every_malformed_input_is_refused_naming_its_byte() {
        let good = dnf(s("1."), vec![tag::SMALL + 2]);
        // Where the move's position string starts.
        let at = good.len() - 7;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"GCVALUE2".to_vec(), "at byte 0: not a binary certificate"),
            (good[..good.len() - 1].to_vec(), "the file ends inside a value"),
            (good[..at + 3].to_vec(), "the file ends inside a string (1 of its 2 bytes missing)"),
            ([&good[..], &[0]].concat(), "bytes after the certificate's value"),
            (dnf(vec![0x1f + 0x20], vec![tag::SMALL + 2]), "unknown tag 0x3f"),
            (
                dnf(vec![tag::END], vec![tag::SMALL + 2]),
                "an end (tag 0x0b) where a value was expected",
            ),
            (dnf(s("1."), [vec![tag::UINT], vec![0xff; 10], vec![1]].concat()), "past 2^64 - 1"),
            (dnf(s("1."), vec![tag::UINT, 0x82, 0x00]), "a redundant zero byte"),
            (
                dnf(vec![tag::REF, 5], vec![tag::SMALL + 2]),
                "string index 5 is past the table's 0 entries",
            ),
            (dnf(vec![tag::STR, 2, 0xff, b'.'], vec![tag::SMALL + 2]), "a string is not UTF-8"),
            (dnf(vec![tag::SAME, 2, 0], vec![tag::SMALL + 2]), "tag 0x0e before any coded string"),
            (
                dnf(vec![tag::CODED, tag::STR, 2, b'.', b'.', 2, 0], vec![tag::SMALL + 2]),
                "not 2 to 16 distinct",
            ),
            (
                dnf(vec![tag::CODED, tag::STR, 3, b'.', b'1', b'2', 2, 9], vec![tag::SMALL + 2]),
                "byte 9 codes more than 2 characters",
            ),
            (
                dnf(vec![tag::FRONT, 30, tag::STR, 0], vec![tag::SMALL + 2]),
                "a prefix of 30 bytes of the previous string of 12 bytes",
            ),
            (
                dnf(
                    s("1."),
                    vec![tag::NEG, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
                ),
                "below -2^63",
            ),
            (dnf(s("1."), s("2")), "invalid type: string \"2\""),
            (
                dnf(vec![tag::SMALL + 7], vec![tag::SMALL + 2]),
                "invalid type: integer `7`, expected a string",
            ),
            (
                file("dnf-strategy", &[s("player"), s("first"), s("claimz"), s("wins")]),
                "unknown field `claimz`, expected",
            ),
            (file("dnf-strategy", &[s("kind"), s("x")]), "duplicate field `kind`"),
            (file("chess", &[]), "unknown certificate kind 'chess'"),
            (
                [&MAGIC[..], &[tag::ARRAY, tag::END]].concat(),
                "at byte 8: the top-level value is not an object",
            ),
            (
                [&MAGIC[..], &[tag::OBJECT], &s("version")[..]].concat(),
                "at byte 9: the top-level object does not start with `format`",
            ),
        ];
        for (bytes, expected) in cases {
            let message = error(&bytes);
            assert!(message.contains(expected), "{expected:?} not in {message:?}");
            assert!(message.starts_with("at byte "), "{message}");
        }
        // The envelope's rules are JSON's, with JSON's messages, placed at the value named.
        let envelope = |format: &str, version: Vec<u8>, kind: Vec<u8>| {
            let mut out = MAGIC.to_vec();
            out.push(tag::OBJECT);
            out.extend(s("format"));
            out.extend(s(format));
            out.extend(s("version"));
            out.extend(version);
            out.extend(s("kind"));
            out.extend(kind);
            out.push(tag::END);
            out
        };
        // format's value at 9 + 8, version's at 17 + 22 + 9, kind's at 48 + 1 + 6.
        let cases = [
            (
                envelope("gamecert-instance", vec![tag::SMALL + 1], s("witness")),
                "at byte 17: format is 'gamecert-instance'",
            ),
            (
                envelope("gamecert-version", vec![tag::SMALL + 1], s("witness")),
                "at byte 17: format is 'gamecert-version'",
            ),
            (
                envelope("gamecert-certificate", vec![tag::SMALL + 2], s("witness")),
                "at byte 48: version 2 is not supported",
            ),
            (
                envelope("gamecert-certificate", vec![tag::NULL], s("witness")),
                "at byte 48: missing or non-numeric field `version`",
            ),
            (
                envelope("gamecert-certificate", vec![tag::SMALL + 1], vec![tag::SMALL + 3]),
                "at byte 55: field `kind` is 3",
            ),
            (
                envelope("gamecert-certificate", vec![tag::SMALL + 1], s("chess")),
                "at byte 55: unknown certificate kind 'chess'",
            ),
        ];
        for (bytes, expected) in cases {
            let message = error(&bytes);
            assert!(message.starts_with(expected), "{expected:?} not at the start of {message:?}");
        }
        // A pair given three elements: too many, as serde_json's "trailing characters".
        let three = dnf(s("1."), vec![tag::SMALL + 2, tag::SMALL + 3]);
        let three: Vec<u8> =
            three.iter().map(|&b| if b == tag::SHORT + 2 { tag::SHORT + 3 } else { b }).collect();
        assert!(error(&three).contains("more elements than expected"), "{}", error(&three));
    }

    #[test]
    fn nesting_is_capped_and_costs_are_charged_before_they_are_held() {
        // The envelope's values are read as any JSON value: nesting is the file's.
        let deep = [vec![tag::ARRAY; 200], vec![tag::END; 200]].concat();
        let mut bytes = MAGIC.to_vec();
        bytes.push(tag::OBJECT);
        bytes.extend(s("format"));
        bytes.extend(deep);
        let message = error(&bytes);
        assert!(message.contains(&format!("nested deeper than {MAX_DEPTH}")), "{message}");
        // A string claiming 2^40 bytes in a file of a few: the end of the file, not an
        // allocation.
        let huge = vec![tag::STR, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
        let message = error(&dnf(huge, vec![tag::SMALL + 2]));
        assert!(message.contains("the file ends inside a string"), "{message}");
        // A packed array claiming 2^60 elements: each charged as it is read.
        let packed = [vec![tag::PACKED], vec![0x80; 8], vec![0x10]].concat();
        let message = error(&file("heap-labelling", &[s("values"), packed]));
        assert!(message.contains("the file ends inside a packed integer"), "{message}");
        // References to a long entry are charged its bytes each: a small budget runs out.
        let long = "x".repeat(100);
        let mut define = vec![tag::DEFINE, 100];
        define.extend(long.as_bytes());
        let mut moves = vec![tag::ARRAY, tag::SHORT + 2];
        moves.extend(define);
        moves.extend([tag::SMALL + 2, tag::END]);
        for _ in 0..1000 {
            moves.splice(
                moves.len() - 1..moves.len() - 1,
                [tag::SHORT + 2, tag::REF, 0, tag::SMALL + 2],
            );
        }
        let bytes = file(
            "dnf-strategy",
            &[s("player"), s("first"), s("claim"), s("wins"), s("moves"), moves],
        );
        let mut budget = Budget::new(200_000);
        let err = Certificate::from_binary(&bytes[..], &mut budget).unwrap_err();
        assert!(err.message.contains("work limit reached while reading the certificate"), "{err}");
        assert!(budget.exhausted());
    }

    /// Reads `bytes` (no magic) as a `T` with the decoder itself.
    fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> std::result::Result<T, String> {
        let mut budget = Budget::new(1 << 30);
        let mut de = Decoder::new(bytes, &mut budget);
        T::deserialize(&mut de).map_err(|e| de.located(e).message)
    }

    #[test]
    fn every_other_rejection_names_its_byte() {
        let pos = |p: Vec<u8>| dnf(p, vec![tag::SMALL + 2]);
        let num = |n: Vec<u8>| dnf(s("1."), n);
        // A string of 8 bytes with a two-byte character at bytes 1 and 2: the previous string.
        let previous = {
            let mut p = vec![tag::STR, 9];
            p.extend("aé345678".as_bytes());
            p
        };
        let two = |first: Vec<u8>, second: Vec<u8>| {
            let mut moves = vec![tag::ARRAY, tag::SHORT + 2];
            moves.extend(first);
            moves.extend([tag::SMALL + 2, tag::SHORT + 2]);
            moves.extend(second);
            moves.extend([tag::SMALL + 2, tag::END]);
            file(
                "dnf-strategy",
                &[s("player"), s("first"), s("claim"), s("wins"), s("moves"), moves],
            )
        };
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"GCVAL".to_vec(), "at byte 5: the file ends inside the magic"),
            (
                num([vec![tag::FLOAT], f64::NAN.to_le_bytes().to_vec()].concat()),
                "a number that is not finite",
            ),
            (
                num([vec![tag::FLOAT], f64::INFINITY.to_le_bytes().to_vec()].concat()),
                "a number that is not finite",
            ),
            (
                num([vec![tag::FLOAT], 2.5f64.to_le_bytes().to_vec()].concat()),
                "invalid type: floating point `2.5`",
            ),
            (
                num(vec![tag::UINT, 0x80, 0x80, 0x80, 0x80, 0x10]),
                "invalid value: integer `4294967296`",
            ),
            (num(vec![tag::NEG, 0]), "invalid value: integer `-1`"),
            (
                pos(vec![tag::CODED, tag::SMALL + 1, 1, 0]),
                "tag 0x81 where an alphabet was expected",
            ),
            (pos(vec![tag::CODED, tag::STR, 1, b'.', 1, 0]), "not 2 to 16 distinct"),
            (
                pos([vec![tag::CODED, tag::STR, 17], b"abcdefghijklmnopq".to_vec(), vec![1, 0]]
                    .concat()),
                "not 2 to 16 distinct",
            ),
            (pos(vec![tag::CODED, tag::STR, 2, 0xc3, 0xa9, 1, 0]), "not 2 to 16 distinct"),
            (
                pos(vec![tag::FRONT, 1, tag::SMALL + 1]),
                "tag 0x81 where a prefixed string's rest was expected",
            ),
            (
                pos(vec![tag::FRONT, 1, tag::FRONT, 0, tag::STR, 0]),
                "tag 0x0f where a prefixed string's rest was expected",
            ),
            (
                pos(vec![
                    tag::FRONT,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x01,
                    tag::STR,
                    0,
                ]),
                "a prefix of 9223372036854775808 bytes",
            ),
            (
                two(previous.clone(), vec![tag::FRONT, 2, tag::STR, 0]),
                "a prefix of 2 bytes of the previous string of 9 bytes",
            ),
            (
                two(previous.clone(), vec![tag::FRONT, 10, tag::STR, 0]),
                "a prefix of 10 bytes of the previous string of 9 bytes",
            ),
            (
                pos(vec![tag::STR, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
                "of its 9223372036854775808 bytes missing)",
            ),
            (
                pos(vec![tag::DEFINE, 0xff, 0xff, 0xff, 0xff, 0x0f, b'x']),
                "of its 4294967295 bytes missing)",
            ),
            (
                pos(vec![tag::REF, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
                "string index 18446744073709551615 is past the table's 0 entries",
            ),
            (pos(vec![tag::SAME, 0]), "tag 0x0e before any coded string"),
            (
                file("dnf-strategy", &[vec![tag::SMALL + 1], s("first")]),
                "tag 0x81 where an object's key was expected",
            ),
            (
                file("dnf-strategy", &[vec![tag::ARRAY]]),
                "tag 0x09 where an object's key was expected",
            ),
            (
                file("dnf-strategy", &[s("version"), vec![tag::SMALL + 1]]),
                "duplicate field `version`",
            ),
            (
                file("dnf-strategy", &[s("moves"), [vec![tag::PACKED, 2], vec![1, 2]].concat()]),
                "invalid type: integer `1`, expected a tuple",
            ),
            (
                num(vec![
                    tag::UINT,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x80,
                    0x01,
                ]),
                "an integer is a varint past 2^64 - 1",
            ),
            (
                num(vec![tag::UINT, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]),
                "an integer is a varint past 2^64 - 1",
            ),
            (num(vec![tag::UINT, 0x80, 0x00]), "an integer is a varint with a redundant zero byte"),
        ];
        for (bytes, expected) in cases {
            let message = error(&bytes);
            assert!(message.contains(expected), "{expected:?} not in {message:?}");
            assert!(message.starts_with("at byte "), "{message}");
        }
        // Truncated inside every kind of payload.
        let ends: [(&[u8], &str); 8] = [
            (&[tag::STR, 0x80], "at byte 2: the file ends inside a string's length"),
            (
                &[tag::STR, 3, b'a'],
                "at byte 3: the file ends inside a string (2 of its 3 bytes missing)",
            ),
            (&[tag::REF, 0xff], "at byte 2: the file ends inside a string's index"),
            (&[tag::FLOAT, 0, 0, 0], "at byte 4: the file ends inside a number"),
            (
                &[tag::CODED, tag::STR, 2, b'.', b'1', 9, 0],
                "at byte 7: the file ends inside a coded string",
            ),
            (
                &[tag::CODED, tag::STR, 2, b'.', b'1'],
                "at byte 5: the file ends inside a coded string's length",
            ),
            (&[tag::FRONT, 0], "at byte 2: the file ends inside a value"),
            (&[tag::ARRAY, tag::SMALL], "at byte 2: the file ends inside a value"),
        ];
        for (bytes, expected) in ends {
            let message = decode::<serde_json::Value>(bytes).unwrap_err();
            assert!(message.contains(expected), "{expected:?} not in {message:?}");
        }
        // The place named is the tag's.
        let same = pos(vec![tag::SAME, 0]);
        let message = error(&same);
        assert!(message.starts_with(&format!("at byte {}: ", same.len() - 5)), "{message}");
        // The largest integers a varint holds are read (the bound is exact).
        let max = [vec![tag::UINT], vec![0xff; 9], vec![0x01]].concat();
        assert_eq!(decode::<u64>(&max).unwrap(), u64::MAX);
        let min = [vec![tag::NEG], vec![0xff; 8], vec![0x7f]].concat();
        assert_eq!(decode::<i64>(&min).unwrap(), i64::MIN);
        let below = [vec![tag::NEG], vec![0x80; 9], vec![0x01]].concat();
        assert!(decode::<i64>(&below).unwrap_err().contains("is below -2^63"));
        // A packed array of more elements than a pair takes.
        assert_eq!(decode::<(u32, u32)>(&[tag::PACKED, 2, 5, 6]).unwrap(), (5, 6));
        let message = decode::<(u32, u32)>(&[tag::PACKED, 3, 5, 6, 7]).unwrap_err();
        assert!(
            message.contains("at byte 4: an array holds more elements than expected"),
            "{message}"
        );
        let message = decode::<(u32, u32)>(&[tag::PACKED, 2, 5]).unwrap_err();
        assert!(message.contains("at byte 3: the file ends inside a packed integer"), "{message}");
    }

    #[test]
    fn an_enum_is_its_name_or_an_object_of_one_entry() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        enum E {
            A,
            B(u32),
        }
        assert_eq!(decode::<E>(&[tag::STR, 1, b'A']).unwrap(), E::A);
        let b = [&[tag::OBJECT][..], &s("B"), &[tag::SMALL + 5, tag::END]].concat();
        assert_eq!(decode::<E>(&b).unwrap(), E::B(5));
        let two = [&[tag::OBJECT][..], &s("B"), &[tag::SMALL + 5], &s("A"), &[tag::NULL, tag::END]]
            .concat();
        let message = decode::<E>(&two).unwrap_err();
        assert!(message.contains("an enum's object holds more than one entry"), "{message}");
        let message = decode::<E>(&[tag::OBJECT, tag::SMALL + 1]).unwrap_err();
        assert!(message.contains("tag 0x81 where a string was expected"), "{message}");
        // Any other value goes to the visitor, which refuses it.
        assert!(decode::<E>(&[tag::SMALL + 1]).unwrap_err().contains("invalid type"));
    }

    #[test]
    fn the_offset_cannot_wrap_and_alphabets_of_any_size_are_safe() {
        let mut budget = Budget::unlimited();
        let mut de = Decoder::new(&b"ab"[..], &mut budget);
        de.offset = u64::MAX;
        let err = de.byte("a value").unwrap_err();
        assert!(err.to_string().contains("longer than 2^64 - 1 bytes"), "{err}");
        // per_byte is exact for the alphabets the format allows and total for any other.
        for k in 2..=16usize {
            let c = per_byte(k);
            assert!(k.pow(c) <= 256 && k.pow(c + 1) > 256, "{k}");
        }
        for k in [0, 1, 17, 255, 256, 257, usize::MAX] {
            let _ = per_byte(k);
        }
        assert_eq!(per_byte(usize::MAX), 1);
    }

    #[test]
    fn a_long_string_is_refused_before_it_is_held() {
        // 1 MB of string, a budget of 10,000 units: refused before the bytes are copied.
        let text = "x".repeat(1 << 20);
        let mut literal = vec![tag::STR, 0x80, 0x80, 0x40];
        literal.extend(text.as_bytes());
        let bytes = dnf(literal, vec![tag::SMALL + 2]);
        let mut budget = Budget::new(10_000);
        let err = Certificate::from_binary(&bytes[..], &mut budget).unwrap_err();
        assert!(err.message.contains("work limit reached"), "{err}");
        assert!(budget.used() <= 10_000);
        let mut budget = Budget::new(10_000);
        let mut de = Decoder::new(&bytes[..], &mut budget);
        de.envelope().unwrap();
        let _ = de.body::<crate::posdnf::dnf::DnfStrategy>();
        assert!(de.scratch.capacity() < 10_000, "{} bytes held", de.scratch.capacity());
    }

    #[test]
    fn read_value_refuses_what_follows_the_value() {
        let mut budget = Budget::new(1 << 20);
        let bytes = [&MAGIC[..], &[tag::SMALL + 1, tag::NULL]].concat();
        let err =
            read_value(&bytes[..], &mut budget, std::marker::PhantomData::<serde_json::Value>)
                .unwrap_err();
        assert!(err.message.contains("at byte 9: bytes after the value"), "{err}");
        let bytes = [&MAGIC[..], &[tag::SHORT + 1, tag::SMALL + 1]].concat();
        let value =
            read_value(&bytes[..], &mut budget, std::marker::PhantomData::<serde_json::Value>);
        assert_eq!(value.unwrap(), serde_json::json!([1]));
        let err = read_value(
            &b"GCVALUE2\x80"[..],
            &mut budget,
            std::marker::PhantomData::<serde_json::Value>,
        )
        .unwrap_err();
        assert!(err.message.contains("at byte 0: not a binary file"), "{err}");
    }
}
