//! Writing certificates in either form, streaming, and turning one form into the other
//! (`gamecert convert`): the binary form the checker reads
//! (`gamecert_certificates::base::binary`, whose module docs and docs/formats.md give the
//! format) and JSON laid out as gamecert writes it (`Certificate::to_json`: serde_json's pretty
//! layout with every array of scalars on one line).
//!
//! Both forms are written from events of the JSON data model ([`Event`]) by a [`Sink`]:
//! [`BinaryWriter`] and [`PrettyJson`]. Events come from a value being serialised (a
//! serde_json `Formatter`, [`Events`], so the data model is exactly serde_json's) or from any
//! serde `Deserializer` (the JSON reader, the checker's binary decoder: [`Emit`]). Neither
//! side builds a tree or a text of the whole: the binary writer holds at most an array of
//! fewer than 16 elements or 64 KiB per level (to choose the shortest encoding of it), the
//! JSON writer an array as long as it holds only scalars (it goes on one line).
//!
//! The binary writer's choices (the reader accepts any valid encoding; these make it small):
//! a string is a table reference once defined; a value string seen before (a 2^20-slot filter
//! of hashes, strings up to 64 bytes) is defined at its second occurrence, an object key at its
//! first; otherwise the shortest of the literal, a coded string (its alphabet the sorted
//! characters of the string, or a recent alphabet holding them, or a recent one widened by
//! them; the alphabet defined at first use, `0E` when it is the last one) and the previous
//! string's prefix with the rest coded or literal. An array is written with its count in the
//! tag when it has fewer than 16 elements, packed when that is shorter and it holds only
//! unsigned integers, and with an end tag otherwise.

use gamecert_certificates::base::binary::{self as format, tag, PREVIOUS_MAX};
use gamecert_certificates::format::Certificate;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};

/// The two forms of a certificate file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Json,
    Binary,
}

impl Form {
    /// The form of a file that starts with `head` (its first 8 bytes or fewer).
    pub fn of(head: &[u8]) -> Form {
        if head.starts_with(format::MAGIC) {
            Form::Binary
        } else {
            Form::Json
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Form::Json => "json",
            Form::Binary => "binary",
        }
    }
}

/// Which form `solve` writes a certificate in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    #[default]
    Json,
    Binary,
    /// Binary when the JSON would pass [`AUTO_BYTES`], JSON otherwise.
    Auto,
}

/// Past this many bytes of JSON, `solve --format auto` writes the binary form.
pub const AUTO_BYTES: u64 = 4_000_000;

/// A certificate as it is to be written: its form, its bytes in that form, and the binary
/// form's bytes themselves (JSON is written when it is saved).
pub struct Encoded {
    pub form: Form,
    pub bytes: u64,
    pub binary: Option<Vec<u8>>,
}

/// `certificate` in the form `choice` decides.
pub fn encode(certificate: &Certificate, choice: Choice) -> io::Result<Encoded> {
    let binary = match choice {
        Choice::Json => false,
        Choice::Binary => true,
        Choice::Auto => certificate_size(certificate, Form::Json) > AUTO_BYTES,
    };
    if !binary {
        let bytes = certificate_size(certificate, Form::Json);
        return Ok(Encoded { form: Form::Json, bytes, binary: None });
    }
    let mut out = Vec::new();
    let bytes = write_certificate(certificate, Form::Binary, &mut out)?;
    Ok(Encoded { form: Form::Binary, bytes, binary: Some(out) })
}

/// An event of the JSON data model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event<'a> {
    Null,
    Bool(bool),
    UInt(u64),
    /// A negative integer.
    Neg(i64),
    Float(f64),
    Str(&'a str),
    /// An object's key.
    Key(&'a str),
    Array,
    Object,
    /// The end of the innermost array or object.
    End,
}

/// Where events go.
pub trait Sink {
    fn event(&mut self, event: Event) -> io::Result<()>;
    /// After the last event: the bytes written in all.
    fn finish(&mut self) -> io::Result<u64>;
}

/// Writes `certificate` as a file of `form` to `out`; the bytes written.
pub fn write_certificate(
    certificate: &Certificate,
    form: Form,
    out: impl Write,
) -> io::Result<u64> {
    match form {
        Form::Json => serialise(certificate, &mut PrettyJson::new(out)),
        Form::Binary => serialise(certificate, &mut BinaryWriter::new(out)?),
    }
}

/// The bytes `certificate` takes as a file of `form` (written to nowhere).
pub fn certificate_size(certificate: &Certificate, form: Form) -> u64 {
    write_certificate(certificate, form, io::sink()).unwrap_or(u64::MAX)
}

/// Serialises `value` into `sink` and finishes it.
pub fn serialise<T: serde::Serialize + ?Sized, S: Sink>(
    value: &T,
    sink: &mut S,
) -> io::Result<u64> {
    {
        let events = Events { sink: &mut *sink, string: None, key: false };
        let mut ser = serde_json::Serializer::with_formatter(io::sink(), events);
        value.serialize(&mut ser).map_err(io::Error::other)?;
    }
    sink.finish()
}

/// A counting writer.
struct Counted<W> {
    out: W,
    bytes: u64,
}

impl<W: Write> Counted<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.bytes += bytes.len() as u64;
        self.out.write_all(bytes)
    }
}

/// A LEB128 varint appended to `out`.
fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn varint_len(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).max(1).div_ceil(7)
}

/// An array being written: buffered (its encoding not chosen yet) or open (its tag written).
struct Frame {
    object: bool,
    count: u64,
    /// The elements' encodings while the array is buffered.
    buffer: Option<Vec<u8>>,
    /// Its elements while they are all unsigned integers (and it is buffered).
    uints: Option<Vec<u64>>,
}

/// Fewer elements than this: the count in the tag.
const SHORT_MAX: u64 = 15;
/// An array's buffer is written out past this many bytes.
const BUFFER_MAX: usize = 1 << 16;
/// Slots of the filter of strings seen once.
const SEEN_SLOTS: usize = 1 << 20;
/// Strings longer than this are never defined in the table.
const DEFINE_MAX: usize = 64;
/// Alphabets remembered for reuse.
const RECENT: usize = 16;

/// The binary form's writer (see the module docs for its choices).
pub struct BinaryWriter<W> {
    out: Counted<W>,
    frames: Vec<Frame>,
    table: HashMap<Box<str>, u64>,
    seen: Vec<u64>,
    hasher: std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>,
    recent: Vec<Vec<char>>,
    last_alphabet: Option<Vec<char>>,
    previous: String,
    /// Bytes of the element being built for the current string.
    scratch: Vec<u8>,
}

impl<W: Write> BinaryWriter<W> {
    /// A writer to `out`, the magic written.
    pub fn new(out: W) -> io::Result<Self> {
        let mut out = Counted { out, bytes: 0 };
        out.put(format::MAGIC)?;
        Ok(BinaryWriter {
            out,
            frames: Vec::new(),
            table: HashMap::new(),
            seen: vec![0; SEEN_SLOTS],
            hasher: Default::default(),
            recent: Vec::new(),
            last_alphabet: None,
            previous: String::new(),
            scratch: Vec::new(),
        })
    }

    /// Writes `bytes` where the innermost buffered array collects them, or out.
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.frames.iter_mut().rev().find_map(|f| f.buffer.as_mut()) {
            Some(buffer) => {
                buffer.extend_from_slice(bytes);
                Ok(())
            }
            None => self.out.put(bytes),
        }
    }

    /// Opens every buffered array up to frame `level` (outermost first): their tags and what
    /// they buffered go out in order.
    fn open(&mut self, level: usize) -> io::Result<()> {
        for i in 0..=level {
            if let Some(buffer) = self.frames[i].buffer.take() {
                self.frames[i].uints = None;
                self.out.put(&[tag::ARRAY])?;
                self.out.put(&buffer)?;
            }
        }
        Ok(())
    }

    /// Before an element of the innermost array (`uint`: the element if it is an unsigned
    /// integer): counts it, and opens the array when it can no longer be short or packed.
    fn element(&mut self, uint: Option<u64>) -> io::Result<()> {
        let Some(level) = self.frames.len().checked_sub(1) else { return Ok(()) };
        let frame = &mut self.frames[level];
        if frame.object {
            return Ok(());
        }
        frame.count += 1;
        if frame.buffer.is_none() {
            return Ok(());
        }
        match (uint, &mut frame.uints) {
            (Some(v), Some(uints)) => uints.push(v),
            _ => frame.uints = None,
        }
        let full = frame.buffer.as_ref().map_or(0, Vec::len) > BUFFER_MAX;
        if full || frame.count > SHORT_MAX && frame.uints.is_none() {
            self.open(level)?;
        }
        Ok(())
    }

    /// The end of the innermost array or object: a buffered array in its shortest encoding.
    fn end_frame(&mut self) -> io::Result<()> {
        let Some(frame) = self.frames.pop() else {
            return Err(io::Error::other("an end without an array or object"));
        };
        let Some(buffer) = frame.buffer else { return self.put(&[tag::END]) };
        let n = frame.count;
        let mut best: Vec<u8> = Vec::with_capacity(buffer.len() + 2);
        if n <= SHORT_MAX {
            best.push(tag::SHORT + n as u8);
            best.extend_from_slice(&buffer);
        } else {
            best.push(tag::ARRAY);
            best.extend_from_slice(&buffer);
            best.push(tag::END);
        }
        if let Some(uints) = frame.uints.filter(|u| !u.is_empty()) {
            let packed = 1 + varint_len(n) + uints.iter().map(|&v| varint_len(v)).sum::<usize>();
            if packed < best.len() {
                best.clear();
                best.push(tag::PACKED);
                varint(&mut best, n);
                for v in uints {
                    varint(&mut best, v);
                }
            }
        }
        self.put(&best)
    }

    fn hash(&self, s: &str) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(s.as_bytes());
        h.finish() | 1
    }

    /// Whether `s` was seen before (recording it).
    fn seen_before(&mut self, s: &str) -> bool {
        let h = self.hash(s);
        let slot = (h >> 1) as usize % SEEN_SLOTS;
        let before = self.seen[slot] == h;
        self.seen[slot] = h;
        before
    }

    /// A literal: `t` (`STR` or `DEFINE`), the length, the bytes.
    fn literal(out: &mut Vec<u8>, t: u8, s: &str) {
        out.push(t);
        varint(out, s.len() as u64);
        out.extend_from_slice(s.as_bytes());
    }

    /// The cost of naming `alphabet` in a coded string (beyond its tag).
    fn alphabet_cost(&self, alphabet: &[char]) -> usize {
        if self.last_alphabet.as_deref() == Some(alphabet) {
            return 0;
        }
        let text: String = alphabet.iter().collect();
        match self.table.get(text.as_str()) {
            Some(&i) => 1 + varint_len(i),
            None => 1 + varint_len(text.len() as u64) + text.len(),
        }
    }

    /// The best alphabet for coding `s` and the coded string's length in bytes, if any.
    fn coding(&self, s: &str) -> Option<(Vec<char>, usize)> {
        let mut own: Vec<char> = Vec::new();
        let mut count = 0usize;
        for c in s.chars() {
            count += 1;
            if !own.contains(&c) {
                if own.len() == 16 {
                    return None;
                }
                own.push(c);
            }
        }
        if count < 4 {
            return None;
        }
        own.sort_unstable();
        let mut candidates = vec![own.clone()];
        for alphabet in self.recent.iter().rev() {
            if own.iter().all(|c| alphabet.contains(c)) {
                candidates.push(alphabet.clone());
            } else {
                let mut wider = alphabet.clone();
                wider.extend(own.iter().filter(|c| !alphabet.contains(c)));
                if wider.len() <= 16 {
                    wider.sort_unstable();
                    candidates.push(wider);
                }
            }
        }
        candidates
            .into_iter()
            .filter(|a| a.len() >= 2)
            .map(|a| {
                let c = format::per_byte(a.len()) as usize;
                let cost =
                    1 + self.alphabet_cost(&a) + varint_len(count as u64) + count.div_ceil(c);
                (a, cost)
            })
            .min_by_key(|(_, cost)| *cost)
    }

    /// Appends `s` coded in `alphabet` to `out`, naming the alphabet (defined at first use).
    fn code(&mut self, out: &mut Vec<u8>, s: &str, alphabet: Vec<char>) {
        let text: String = alphabet.iter().collect();
        if self.last_alphabet.as_deref() == Some(&alphabet[..]) {
            out.push(tag::SAME);
        } else {
            out.push(tag::CODED);
            match self.table.get(text.as_str()) {
                Some(&i) => {
                    out.push(tag::REF);
                    varint(out, i);
                }
                None => {
                    Self::literal(out, tag::DEFINE, &text);
                    self.table.insert(text.into(), self.table.len() as u64);
                }
            }
        }
        let k = alphabet.len();
        let c = format::per_byte(k) as usize;
        let codes: Vec<usize> =
            s.chars().map(|ch| alphabet.iter().position(|&a| a == ch).unwrap_or(0)).collect();
        varint(out, codes.len() as u64);
        for group in codes.chunks(c) {
            out.push(group.iter().fold(0usize, |acc, &code| acc * k + code) as u8);
        }
        self.recent.retain(|a| *a != alphabet);
        self.recent.push(alphabet.clone());
        if self.recent.len() > RECENT {
            self.recent.remove(0);
        }
        self.last_alphabet = Some(alphabet);
    }

    /// The string `s` as a value (`key`: an object's key).
    fn string(&mut self, s: &str, key: bool) -> io::Result<()> {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        self.encode_string(&mut out, s, key);
        let put = self.put(&out);
        self.scratch = out;
        if !key && (8..=PREVIOUS_MAX).contains(&s.len()) {
            self.previous.clear();
            self.previous.push_str(s);
        }
        put
    }

    fn encode_string(&mut self, out: &mut Vec<u8>, s: &str, key: bool) {
        if let Some(&i) = self.table.get(s) {
            out.push(tag::REF);
            varint(out, i);
            return;
        }
        if s.len() <= DEFINE_MAX && (key || self.seen_before(s)) {
            Self::literal(out, tag::DEFINE, s);
            self.table.insert(s.into(), self.table.len() as u64);
            return;
        }
        let literal = 1 + varint_len(s.len() as u64) + s.len();
        let coded = self.coding(s);
        // The previous string's prefix, at a character boundary, and the rest.
        let mut p = self.previous.bytes().zip(s.bytes()).take_while(|(a, b)| a == b).count();
        while !s.is_char_boundary(p) {
            p -= 1;
        }
        let rest = &s[p..];
        let front = (!key && p >= 2).then(|| {
            let coded_rest = self.coding(rest);
            let rest_literal = 1 + varint_len(rest.len() as u64) + rest.len();
            let rest_cost =
                coded_rest.as_ref().map_or(rest_literal, |(_, c)| (*c).min(rest_literal));
            (1 + varint_len(p as u64) + rest_cost, coded_rest.filter(|(_, c)| *c < rest_literal))
        });
        let coded_cost = coded.as_ref().map_or(usize::MAX, |(_, c)| *c);
        match front {
            Some((cost, rest_coded)) if cost < literal.min(coded_cost) => {
                out.push(tag::FRONT);
                varint(out, p as u64);
                match rest_coded {
                    Some((alphabet, _)) => self.code(out, rest, alphabet),
                    None => Self::literal(out, tag::STR, rest),
                }
            }
            _ => match coded {
                Some((alphabet, cost)) if cost < literal => self.code(out, s, alphabet),
                _ => Self::literal(out, tag::STR, s),
            },
        }
    }

    fn scalar(&mut self, bytes: &[u8], uint: Option<u64>) -> io::Result<()> {
        self.element(uint)?;
        self.put(bytes)
    }
}

impl<W: Write> Sink for BinaryWriter<W> {
    fn event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Null => self.scalar(&[tag::NULL], None),
            Event::Bool(b) => self.scalar(&[if b { tag::TRUE } else { tag::FALSE }], None),
            Event::UInt(v) if v < 128 => self.scalar(&[tag::SMALL + v as u8], Some(v)),
            Event::UInt(v) => {
                let mut out = vec![tag::UINT];
                varint(&mut out, v);
                self.scalar(&out, Some(v))
            }
            Event::Neg(n) => {
                let mut out = vec![tag::NEG];
                varint(&mut out, (-1 - n) as u64);
                self.scalar(&out, None)
            }
            Event::Float(x) => {
                let mut bytes = [tag::FLOAT; 9];
                bytes[1..].copy_from_slice(&x.to_le_bytes());
                self.scalar(&bytes, None)
            }
            Event::Str(s) => {
                self.element(None)?;
                self.string(s, false)
            }
            Event::Key(s) => self.string(s, true),
            Event::Array => {
                self.element(None)?;
                self.frames.push(Frame {
                    object: false,
                    count: 0,
                    buffer: Some(Vec::new()),
                    uints: Some(Vec::new()),
                });
                Ok(())
            }
            Event::Object => {
                self.element(None)?;
                // An object inside buffered arrays: they are opened (it cannot be short).
                if let Some(level) = self.frames.len().checked_sub(1) {
                    self.open(level)?;
                }
                self.put(&[tag::OBJECT])?;
                self.frames.push(Frame { object: true, count: 0, buffer: None, uints: None });
                Ok(())
            }
            Event::End => self.end_frame(),
        }
    }

    fn finish(&mut self) -> io::Result<u64> {
        if !self.frames.is_empty() {
            return Err(io::Error::other("the value is not complete"));
        }
        self.out.out.flush()?;
        Ok(self.out.bytes)
    }
}

/// A frame of [`PrettyJson`]: an array or object, buffered (its scalars so far; an object
/// without a key yet) or open (written, `count` elements).
struct JsonFrame {
    array: bool,
    count: u64,
    items: Option<Vec<String>>,
}

/// JSON as `Certificate::to_json` lays it out: serde_json's pretty layout (two spaces), every
/// array that holds only scalars (empty arrays and objects count as scalars) on one line, and
/// a line end after the value.
pub struct PrettyJson<W> {
    out: Counted<W>,
    frames: Vec<JsonFrame>,
}

impl<W: Write> PrettyJson<W> {
    pub fn new(out: W) -> Self {
        PrettyJson { out: Counted { out, bytes: 0 }, frames: Vec::new() }
    }

    fn indent(&mut self, level: usize) -> io::Result<()> {
        self.out.put(&b" ".repeat(2 * level))
    }

    /// Writes the separator and indentation of a new element of the open frame `level` (an
    /// array; after an object's key nothing is needed).
    fn prefix(&mut self, level: usize) -> io::Result<()> {
        let frame = &mut self.frames[level];
        if !frame.array {
            return Ok(());
        }
        frame.count += 1;
        self.out.put(if frame.count > 1 { b",\n" } else { b"\n" })?;
        self.indent(level + 1)
    }

    /// Opens frame `level` (and the frames around it): its bracket and what it buffered.
    fn open(&mut self, level: usize) -> io::Result<()> {
        let Some(items) = self.frames[level].items.take() else { return Ok(()) };
        if level > 0 {
            self.open(level - 1)?;
            self.prefix(level - 1)?;
        }
        if self.frames[level].array {
            self.out.put(b"[")?;
            for (i, item) in items.iter().enumerate() {
                self.out.put(if i > 0 { b",\n" } else { b"\n" })?;
                self.indent(level + 1)?;
                self.out.put(item.as_bytes())?;
            }
            self.frames[level].count = items.len() as u64;
        } else {
            self.out.put(b"{")?;
        }
        Ok(())
    }

    /// A scalar (or an empty array or object) as the next value.
    fn value(&mut self, text: String) -> io::Result<()> {
        let Some(level) = self.frames.len().checked_sub(1) else {
            return self.out.put(text.as_bytes());
        };
        let frame = &mut self.frames[level];
        match &mut frame.items {
            Some(items) if frame.array => {
                items.push(text);
                Ok(())
            }
            _ => {
                self.prefix(level)?;
                self.out.put(text.as_bytes())
            }
        }
    }
}

fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> io::Result<String> {
    serde_json::to_string(value).map_err(io::Error::other)
}

impl<W: Write> Sink for PrettyJson<W> {
    fn event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Null => self.value("null".into()),
            Event::Bool(b) => self.value(b.to_string()),
            Event::UInt(v) => self.value(v.to_string()),
            Event::Neg(v) => self.value(v.to_string()),
            Event::Float(x) => self.value(json_text(&x)?),
            Event::Str(s) => self.value(json_text(s)?),
            Event::Key(k) => {
                let Some(level) = self.frames.len().checked_sub(1) else {
                    return Err(io::Error::other("a key outside an object"));
                };
                self.open(level)?;
                let frame = &mut self.frames[level];
                frame.count += 1;
                let first = frame.count == 1;
                self.out.put(if first { b"\n" } else { b",\n" })?;
                self.indent(level + 1)?;
                self.out.put(json_text(k)?.as_bytes())?;
                self.out.put(b": ")
            }
            Event::Array | Event::Object => {
                let array = event == Event::Array;
                self.frames.push(JsonFrame { array, count: 0, items: Some(Vec::new()) });
                Ok(())
            }
            Event::End => {
                let Some(frame) = self.frames.pop() else {
                    return Err(io::Error::other("an end without an array or object"));
                };
                match frame.items {
                    Some(items) if items.is_empty() => {
                        self.value(if frame.array { "[]" } else { "{}" }.into())
                    }
                    // A non-empty array of scalars: on one line, but no scalar of its parent.
                    Some(items) => {
                        if let Some(parent) = self.frames.len().checked_sub(1) {
                            self.open(parent)?;
                            self.prefix(parent)?;
                        }
                        self.out.put(format!("[{}]", items.join(", ")).as_bytes())
                    }
                    None => {
                        self.out.put(b"\n")?;
                        self.indent(self.frames.len())?;
                        self.out.put(if frame.array { b"]" } else { b"}" })
                    }
                }
            }
        }
    }

    fn finish(&mut self) -> io::Result<u64> {
        if !self.frames.is_empty() {
            return Err(io::Error::other("the value is not complete"));
        }
        self.out.put(b"\n")?;
        self.out.out.flush()?;
        Ok(self.out.bytes)
    }
}

/// serde_json's `Formatter` hooks as events: a value serialised through serde_json's own
/// serializer (so the data model is exactly JSON's) into a [`Sink`].
pub struct Events<'s, S> {
    sink: &'s mut S,
    /// The string being written, when inside one.
    string: Option<String>,
    key: bool,
}

impl<S: Sink> Events<'_, S> {
    fn number(&mut self, text: impl std::fmt::Display, event: Event) -> io::Result<()> {
        match &mut self.string {
            // A number as a map's key: serde_json writes it inside the key's quotes.
            Some(string) => {
                string.push_str(&text.to_string());
                Ok(())
            }
            None => self.sink.event(event),
        }
    }

    fn signed(&mut self, v: i64) -> io::Result<()> {
        let event = if v < 0 { Event::Neg(v) } else { Event::UInt(v as u64) };
        self.number(v, event)
    }
}

impl<S: Sink> serde_json::ser::Formatter for Events<'_, S> {
    fn write_null<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.sink.event(Event::Null)
    }
    fn write_bool<W: ?Sized + Write>(&mut self, _: &mut W, v: bool) -> io::Result<()> {
        self.sink.event(Event::Bool(v))
    }
    fn write_i8<W: ?Sized + Write>(&mut self, _: &mut W, v: i8) -> io::Result<()> {
        self.signed(v.into())
    }
    fn write_i16<W: ?Sized + Write>(&mut self, _: &mut W, v: i16) -> io::Result<()> {
        self.signed(v.into())
    }
    fn write_i32<W: ?Sized + Write>(&mut self, _: &mut W, v: i32) -> io::Result<()> {
        self.signed(v.into())
    }
    fn write_i64<W: ?Sized + Write>(&mut self, _: &mut W, v: i64) -> io::Result<()> {
        self.signed(v)
    }
    fn write_i128<W: ?Sized + Write>(&mut self, _: &mut W, v: i128) -> io::Result<()> {
        match i64::try_from(v) {
            Ok(v) => self.signed(v),
            Err(_) => match u64::try_from(v) {
                Ok(u) => self.number(u, Event::UInt(u)),
                Err(_) => Err(io::Error::other(format!("{v} is out of the integers JSON keeps"))),
            },
        }
    }
    fn write_u8<W: ?Sized + Write>(&mut self, _: &mut W, v: u8) -> io::Result<()> {
        self.number(v, Event::UInt(v.into()))
    }
    fn write_u16<W: ?Sized + Write>(&mut self, _: &mut W, v: u16) -> io::Result<()> {
        self.number(v, Event::UInt(v.into()))
    }
    fn write_u32<W: ?Sized + Write>(&mut self, _: &mut W, v: u32) -> io::Result<()> {
        self.number(v, Event::UInt(v.into()))
    }
    fn write_u64<W: ?Sized + Write>(&mut self, _: &mut W, v: u64) -> io::Result<()> {
        self.number(v, Event::UInt(v))
    }
    fn write_u128<W: ?Sized + Write>(&mut self, w: &mut W, v: u128) -> io::Result<()> {
        self.write_i128(w, i128::try_from(v).unwrap_or(i128::MAX))
    }
    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        self.write_f64(w, v.into())
    }
    fn write_f64<W: ?Sized + Write>(&mut self, _: &mut W, v: f64) -> io::Result<()> {
        self.number(v, Event::Float(v))
    }
    fn write_number_str<W: ?Sized + Write>(&mut self, _: &mut W, v: &str) -> io::Result<()> {
        Err(io::Error::other(format!("a number outside the data model: {v}")))
    }
    fn begin_string<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.string = Some(String::new());
        Ok(())
    }
    fn end_string<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        let s = self.string.take().unwrap_or_default();
        self.sink.event(if self.key { Event::Key(&s) } else { Event::Str(&s) })
    }
    fn write_string_fragment<W: ?Sized + Write>(&mut self, _: &mut W, s: &str) -> io::Result<()> {
        self.string.get_or_insert_with(String::new).push_str(s);
        Ok(())
    }
    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        _: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> io::Result<()> {
        use serde_json::ser::CharEscape::*;
        let c = match escape {
            Quote => '"',
            ReverseSolidus => '\\',
            Solidus => '/',
            Backspace => '\u{8}',
            FormFeed => '\u{c}',
            LineFeed => '\n',
            CarriageReturn => '\r',
            Tab => '\t',
            AsciiControl(b) => char::from(b),
        };
        self.string.get_or_insert_with(String::new).push(c);
        Ok(())
    }
    fn begin_array<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.sink.event(Event::Array)
    }
    fn end_array<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.sink.event(Event::End)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, _: &mut W, _: bool) -> io::Result<()> {
        Ok(())
    }
    fn begin_object<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.sink.event(Event::Object)
    }
    fn end_object<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.sink.event(Event::End)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, _: &mut W, _: bool) -> io::Result<()> {
        self.key = true;
        Ok(())
    }
    fn end_object_key<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.key = false;
        Ok(())
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

/// Any serde `Deserializer`'s value as events into a [`Sink`] (a seed and its visitor).
pub struct Emit<'s, S>(pub &'s mut S);

fn io_error<E: de::Error>(e: io::Error) -> E {
    E::custom(format!("cannot write: {e}"))
}

impl<'de, S: Sink> DeserializeSeed<'de> for Emit<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, S: Sink> Visitor<'de> for Emit<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.event(Event::Bool(v)).map_err(io_error)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let event = if v < 0 { Event::Neg(v) } else { Event::UInt(v as u64) };
        self.0.event(event).map_err(io_error)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.0.event(Event::UInt(v)).map_err(io_error)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.0.event(Event::Float(v)).map_err(io_error)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.event(Event::Str(v)).map_err(io_error)
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.event(Event::Null).map_err(io_error)
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.event(Event::Array).map_err(io_error)?;
        while seq.next_element_seed(Emit(&mut *self.0))?.is_some() {}
        self.0.event(Event::End).map_err(io_error)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.event(Event::Object).map_err(io_error)?;
        while map.next_key_seed(KeyEmit(&mut *self.0))?.is_some() {
            map.next_value_seed(Emit(&mut *self.0))?;
        }
        self.0.event(Event::End).map_err(io_error)
    }
}

/// An object's key as a [`Event::Key`].
struct KeyEmit<'s, S>(&'s mut S);

impl<'de, S: Sink> DeserializeSeed<'de> for KeyEmit<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, S: Sink> Visitor<'de> for KeyEmit<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.event(Event::Key(v)).map_err(io_error)
    }
}

/// The envelope of a JSON file, read by a first pass (anything else skipped).
#[derive(serde::Deserialize)]
struct Header {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
    kind: Option<serde_json::Value>,
}

/// Writes a gamecert JSON file into `sink`, its envelope first (`format`, `version`, `kind`:
/// where the binary form needs them); `open` opens the file for each of the two passes.
pub fn from_json<R: io::BufRead>(
    mut open: impl FnMut() -> io::Result<R>,
    sink: &mut impl Sink,
) -> Result<u64, String> {
    let header: Header = serde_json::from_reader(open().map_err(|e| e.to_string())?)
        .map_err(|e| format!("not JSON: {e}"))?;
    let (Some(format), Some(version), Some(kind)) = (header.format, header.version, header.kind)
    else {
        return Err("not a gamecert file: its top-level object lacks `format`, `version` or \
                    `kind`"
            .into());
    };
    let mut reader = serde_json::Deserializer::from_reader(open().map_err(|e| e.to_string())?);
    reader
        .deserialize_map(Top { sink: &mut *sink, envelope: [format, version, kind] })
        .and_then(|()| reader.end())
        .map_err(|e| format!("not JSON: {e}"))?;
    sink.finish().map_err(|e| format!("cannot write: {e}"))
}

/// The top-level object with its envelope first.
struct Top<'s, S> {
    sink: &'s mut S,
    envelope: [serde_json::Value; 3],
}

const ENVELOPE: [&str; 3] = ["format", "version", "kind"];

impl<'de, S: Sink> Visitor<'de> for Top<'_, S> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.sink.event(Event::Object).map_err(io_error)?;
        for (key, value) in ENVELOPE.into_iter().zip(self.envelope) {
            self.sink.event(Event::Key(key)).map_err(io_error)?;
            value.deserialize_any(Emit(&mut *self.sink)).map_err(de::Error::custom)?;
        }
        while let Some(key) = map.next_key::<String>()? {
            if ENVELOPE.contains(&key.as_str()) {
                map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            self.sink.event(Event::Key(&key)).map_err(io_error)?;
            map.next_value_seed(Emit(&mut *self.sink))?;
        }
        self.sink.event(Event::End).map_err(io_error)
    }
}

/// Writes a binary file read from `read` into `sink`, decoded by the checker's reader under
/// `budget` (what `verify` would give the file: a few bytes cannot expand without limit).
pub fn from_binary(
    read: impl io::BufRead,
    budget: &mut gamecert_certificates::base::budget::Budget,
    sink: &mut impl Sink,
) -> Result<u64, String> {
    format::read_value(read, budget, Emit(&mut *sink)).map_err(|e| e.to_string())?;
    sink.finish().map_err(|e| format!("cannot write: {e}"))
}
