//! Mutations of seed files: on the parsed JSON value tree (numbers, strings, arrays, objects,
//! types), with raw-text splices the tree cannot hold (duplicate keys, NaN and other
//! non-JSON literals, nesting 10^4 deep), and on the serialised text (bytes, truncation,
//! invalid UTF-8 read lossily, lone surrogates). Every mutant is a function of its seed.

use super::rng::Rng;
use super::seeds::{Seed, KINDS};
use serde_json::{Map, Number, Value};

/// Largest mutated file, in bytes (huge strings and arrays are grown up to about this).
pub const MAX_FILE: usize = 1 << 20;

/// A mutant pair and what was done to it.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub instance: String,
    pub certificate: String,
    /// The mutations, in order (`cert:` / `inst:` then the operation and its place).
    pub description: String,
}

/// One place in a value tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn pointer(path: &[Step]) -> String {
    if path.is_empty() {
        return "/".into();
    }
    path.iter()
        .map(|s| match s {
            Step::Key(k) => format!("/{k}"),
            Step::Index(i) => format!("/{i}"),
        })
        .collect()
}

fn collect_paths(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(path.clone());
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                collect_paths(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(Step::Key(k.clone()));
                collect_paths(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    let mut cur = v;
    for s in path {
        cur = match s {
            Step::Key(k) => cur.get_mut(k.as_str()).expect("a collected path"),
            Step::Index(i) => cur.get_mut(*i).expect("a collected path"),
        };
    }
    cur
}

fn node_at<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut cur = v;
    for s in path {
        cur = match s {
            Step::Key(k) => cur.get_mut(k.as_str())?,
            Step::Index(i) => cur.get_mut(*i)?,
        };
    }
    Some(cur)
}

fn strings_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.len() <= 64 => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings_in(i, out)),
        Value::Object(map) => {
            for (k, item) in map {
                out.push(k.clone());
                strings_in(item, out);
            }
        }
        _ => {}
    }
}

/// Replacements spliced into the text after serialisation: a string node `"@@RAWk@@"` or an
/// object key `"@@KEYk@@"` stands for `raw[k]`.
struct Raw {
    pieces: Vec<String>,
}

impl Raw {
    fn value(&mut self, text: String) -> Value {
        self.pieces.push(text);
        Value::String(format!("@@RAW{}@@", self.pieces.len() - 1))
    }

    fn key(&mut self, text: String) -> String {
        self.pieces.push(text);
        format!("@@KEY{}@@", self.pieces.len() - 1)
    }

    /// Puts the raw pieces in. A marker copied many times (an array extended by copies of a
    /// nesting splice) gets its piece only while the text stays under [`MAX_FILE`], and `0`
    /// after that.
    fn splice(&self, mut text: String) -> String {
        for (k, piece) in self.pieces.iter().enumerate().rev() {
            for marker in [format!("\"@@RAW{k}@@\""), format!("\"@@KEY{k}@@\"")] {
                let mut out = String::with_capacity(text.len());
                let mut rest = text.as_str();
                let mut first = true;
                while let Some(at) = rest.find(&marker) {
                    out.push_str(&rest[..at]);
                    let room = out.len() + piece.len() + rest.len() - at <= MAX_FILE;
                    out.push_str(if first || room { piece } else { "0" });
                    first = false;
                    rest = &rest[at + marker.len()..];
                }
                out.push_str(rest);
                text = out;
            }
        }
        text
    }
}

/// Numbers at the edges of every integer type the checker might use, and some that are not
/// integers at all.
fn special_number(rng: &mut Rng, old: Option<&Number>, raw: &mut Raw) -> (Value, String) {
    let base = old.and_then(|n| n.as_i64()).unwrap_or(0);
    // Half near the old value (most such files still parse), half at the edges.
    let v: Value = if rng.chance(1, 2) {
        match rng.below(8) {
            0 => Value::from(base.wrapping_add(1)),
            1 => Value::from(base.wrapping_sub(1)),
            2 => Value::from(base.wrapping_add(rng.below(5) as i64 + 2)),
            3 => Value::from(base.wrapping_sub(rng.below(5) as i64 + 2)),
            4 => Value::from(0),
            5 => Value::from(1),
            6 => Value::from(base.wrapping_mul(2)),
            _ => Value::from(base.wrapping_neg()),
        }
    } else if rng.chance(1, 3) {
        // A sweep of magnitudes: sizes, weights and counts the checker allows but must bound.
        let m: i64 = if rng.chance(1, 2) {
            10i64.pow(2 + rng.below(9) as u32)
        } else {
            1i64 << (8 + rng.below(33))
        };
        Value::from(m + rng.below(3) as i64 - 1)
    } else {
        match rng.below(23) {
            // Large but plausible sizes: allowed by the formats, expensive to honour.
            17 => Value::from(1_000_000),
            18 => Value::from(20_000_000),
            19 => Value::from(1_000_000_000),
            20 => Value::from(1 << 16),
            21 => Value::from((1 << 16) + 1),
            22 => Value::from(1 << 20),
            0 => Value::from(-1),
            1 => Value::from(1i64 << 31),
            2 => Value::from((1i64 << 31) - 1),
            3 => Value::from(1i64 << 32),
            4 => Value::from((1i64 << 32) + 1),
            5 => Value::from(i64::MAX),
            6 => Value::from(1u64 << 63),
            7 => Value::from(u64::MAX),
            8 => Value::from(i64::MIN),
            9 => Value::from(1e300),
            10 => raw.value("-0".into()),
            11 => Value::from(3.5),
            12 => Value::from((1i64 << 53) + 1),
            13 => Value::from(u64::from(u32::MAX)),
            14 => Value::from(65_536),
            15 => Value::from(-1e300),
            _ => Value::from(1_000_000_007),
        }
    };
    let text = match &v {
        Value::String(_) => "-0".to_string(),
        other => other.to_string(),
    };
    (v, text)
}

const NON_JSON: &[&str] = &[
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "00",
    "01",
    "+1",
    "0x1F",
    "1.",
    ".5",
    "1e",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "-9223372036854775809",
    "1E400",
    "nul",
    "True",
    "undefined",
    "'a'",
];

/// Characters a string edit draws from: the string's own, the alphabets of positions, masks,
/// labels and names, and some that no format uses.
const ALPHABET: &[char] = &[
    '.', 'W', 'B', 'r', 'b', 'P', 'N', '0', '1', '2', '3', '7', '9', 'a', 'f', 'g', 'x', 'z', 'F',
    '-', '_', ' ', '/', ',', ':', '"', '\\', '\0', '\n', 'é', '€', '🦀', '\u{feff}', '\u{202e}',
];

/// Words of the formats and their opposites.
const OPPOSITES: &[(&str, &str)] = &[
    ("first", "second"),
    ("second", "first"),
    ("A", "B"),
    ("B", "A"),
    ("white", "black"),
    ("black", "white"),
    ("wins", "at-least-ties"),
    ("at-least-ties", "wins"),
    ("margin-at-least", "wins"),
    ("first-player-wins", "second-player-wins"),
    ("second-player-wins", "first-player-wins"),
    ("black-wins", "black-cannot-win"),
    ("black-cannot-win", "black-wins"),
    ("direct", "reduction"),
    ("reduction", "direct"),
    ("sat-voronoi1", "sat-voronoi2"),
    ("sat-voronoi2", "sat-voronoi1"),
    ("normal", "misere"),
    ("misere", "normal"),
    ("vertexnim", "nimg"),
    ("nimg", "vertexnim"),
    ("r", "b"),
    ("b", "r"),
];

fn mutate_string(s: &str, rng: &mut Rng, names: &[String], size: usize) -> (String, String) {
    let chars: Vec<char> = s.chars().collect();
    let pick_char = |rng: &mut Rng| {
        if !chars.is_empty() && rng.chance(1, 2) {
            chars[rng.below(chars.len())]
        } else {
            *rng.pick(ALPHABET)
        }
    };
    let at = |rng: &mut Rng, n: usize| if n == 0 { 0 } else { rng.below(n + 1) };
    // A claim turned into its opposite: the certificate then claims what it did not prove.
    if let Some(&(_, other)) = OPPOSITES.iter().find(|(a, _)| *a == s) {
        if rng.chance(1, 2) {
            return (other.to_string(), format!("flip {s:?} -> {other:?}"));
        }
    }
    match rng.below(14) {
        0 | 1 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            let c = pick_char(rng);
            let mut out = chars.clone();
            out[i] = c;
            (out.into_iter().collect(), format!("char {i} -> {c:?}"))
        }
        2 => {
            let i = at(rng, chars.len());
            let c = pick_char(rng);
            let mut out = chars.clone();
            out.insert(i.min(out.len()), c);
            (out.into_iter().collect(), format!("insert {c:?} at {i}"))
        }
        3 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            let mut out = chars.clone();
            out.remove(i);
            (out.into_iter().collect(), format!("delete char {i}"))
        }
        4 if chars.len() >= 2 => {
            let i = rng.below(chars.len() - 1);
            let mut out = chars.clone();
            out.swap(i, i + 1);
            (out.into_iter().collect(), format!("swap chars {i},{}", i + 1))
        }
        5 => {
            let n = at(rng, chars.len());
            (chars[..n].iter().collect(), format!("truncate to {n} chars"))
        }
        6 if !names.is_empty() => {
            let other = rng.pick(names).clone();
            let d = format!("replace by {:?}", short(&other));
            (other, d)
        }
        7 => {
            let budget = MAX_FILE.saturating_sub(size).max(16);
            let unit = if s.is_empty() { "x".to_string() } else { s.to_string() };
            let times = match rng.below(3) {
                0 => 2,
                1 => 1 + rng.below(64),
                _ => budget / unit.len().max(1),
            }
            .max(1);
            let out = unit.repeat(times);
            let d = format!("repeat {times} times ({} bytes)", out.len());
            (out, d)
        }
        8 => (String::new(), "empty".into()),
        9 => {
            let picks = [
                "0",
                "-1",
                "ffffffffffffffffffff",
                "10000000000000000",
                "18446744073709551616",
                "g",
                "first",
                "second",
                "A",
                "wins",
                "black-wins",
                "black-cannot-win",
                "first-player-wins",
                "second-player-wins",
                "reduction",
                "direct",
                "sat-voronoi1",
                "sat-voronoi2",
                "white",
                "black",
                "margin-at-least",
                "at-least-ties",
            ];
            let p = rng.pick(&picks).to_string();
            let d = format!("replace by {p:?}");
            (p, d)
        }
        10 if !chars.is_empty() => {
            // A run of the string's own characters repeated: positions and masks one longer or
            // much longer.
            let i = rng.below(chars.len());
            let c = chars[i];
            let most = if rng.chance(1, 4) { 4096 } else { 4 };
            let k = 1 + rng.below(most);
            let mut out = chars.clone();
            for _ in 0..k {
                out.insert(i, c);
            }
            (out.into_iter().collect(), format!("insert {k} x {c:?} at {i}"))
        }
        11 if chars.len() >= 2 => {
            let mut out = chars.clone();
            out.reverse();
            (out.into_iter().collect(), "reverse".into())
        }
        12 => {
            let i = at(rng, chars.len());
            let mut out: String = chars[..i].iter().collect();
            out.push_str(s);
            (out, format!("duplicate prefix of {i} chars"))
        }
        _ => {
            // Shift one character by +-1 (a digit, a hex digit, a letter of a position).
            if chars.is_empty() {
                return ("\u{0}".into(), "replace empty by NUL".into());
            }
            let i = rng.below(chars.len());
            let c = chars[i] as u32;
            let d = if rng.chance(1, 2) { 1 } else { u32::MAX };
            let c2 = char::from_u32(c.wrapping_add(d)).unwrap_or('?');
            let mut out = chars.clone();
            out[i] = c2;
            (out.into_iter().collect(), format!("char {i} {:?} -> {c2:?}", chars[i]))
        }
    }
}

fn short(s: &str) -> String {
    if s.len() <= 40 {
        s.to_string()
    } else {
        let mut end = 40;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...({} bytes)", &s[..end], s.len())
    }
}

fn deep_nesting(rng: &mut Rng) -> (String, String) {
    let depth = *rng.pick(&[129usize, 1_000, 10_000, 10_000, 100_000]);
    if rng.chance(1, 2) {
        (format!("{}{}", "[".repeat(depth), "]".repeat(depth)), format!("[ nested {depth} deep"))
    } else {
        (
            format!("{}0{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
            format!("{{\"a\": nested {depth} deep"),
        )
    }
}

fn other_type(rng: &mut Rng, raw: &mut Raw, graft: Option<Value>) -> (Value, String) {
    match rng.below(14) {
        0 => (Value::Null, "null".into()),
        1 => (Value::Bool(true), "true".into()),
        2 => (Value::Bool(false), "false".into()),
        3 => (Value::from(0), "0".into()),
        4 => (Value::from(-1), "-1".into()),
        5 => (Value::String(String::new()), "\"\"".into()),
        6 => (Value::String("x".into()), "\"x\"".into()),
        7 => (Value::Array(vec![]), "[]".into()),
        8 => (Value::Object(Map::new()), "{}".into()),
        9 => (Value::Array(vec![Value::from(0)]), "[0]".into()),
        10 => {
            let (text, d) = deep_nesting(rng);
            (raw.value(text), d)
        }
        11 => {
            let lit = rng.pick(NON_JSON).to_string();
            let d = format!("literal {lit}");
            (raw.value(lit), d)
        }
        _ => match graft {
            Some(v) => {
                let d = format!("graft {}", short(&v.to_string()));
                (v, d)
            }
            None => (Value::Null, "null".into()),
        },
    }
}

/// One mutation of the tree `root`; returns its description.
fn mutate_tree(root: &mut Value, rng: &mut Rng, raw: &mut Raw, donor: Option<&Value>) -> String {
    let mut paths = Vec::new();
    collect_paths(root, &mut Vec::new(), &mut paths);
    let mut names = Vec::new();
    strings_in(root, &mut names);
    if let Some(d) = donor {
        strings_in(d, &mut names);
    }
    let size = root.to_string().len();
    // A node: the root rarely, leaves and inner nodes alike.
    // The envelope (`format`, `version`, `kind`) rarely: its mutants only test the header.
    let envelope = |p: &Vec<Step>| matches!(p.first(), Some(Step::Key(k)) if p.len() == 1 && matches!(k.as_str(), "format" | "version" | "kind"));
    let body: Vec<&Vec<Step>> = paths.iter().skip(1).filter(|p| !envelope(p)).collect();
    let path = if body.is_empty() || rng.chance(1, 20) {
        paths[rng.below(paths.len())].clone()
    } else {
        body[rng.below(body.len())].clone()
    };
    let graft = {
        let p = &paths[rng.below(paths.len())];
        let mut r = root.clone();
        let v = node_mut(&mut r, p).clone();
        // A node from the donor (another seed of the same kind) when there is one.
        match donor {
            Some(d) if rng.chance(1, 2) => {
                let mut dp = Vec::new();
                collect_paths(d, &mut Vec::new(), &mut dp);
                let mut dc = d.clone();
                let q = &dp[rng.below(dp.len())];
                Some(node_mut(&mut dc, q).clone())
            }
            _ => Some(v),
        }
    };
    let at = pointer(&path);
    // Crossover: the donor's node at the same place, if it has one (a strategy, a value, a
    // list of moves from another instance of the kind).
    if let Some(d) = donor {
        if rng.chance(1, 16) {
            let mut dc = d.clone();
            if let Some(v) = node_at(&mut dc, &path) {
                let d = format!("{at} := the donor's {}", short(&v.to_string()));
                *node_mut(root, &path) = v.clone();
                return d;
            }
        }
    }
    let node = node_mut(root, &path);
    // Now and then, whatever the node: another type (or a graft, a literal, nesting).
    if rng.chance(1, 12) {
        let (v, d) = other_type(rng, raw, graft);
        *node = v;
        return format!("{at} := {d}");
    }
    match node {
        Value::Number(n) => {
            let (v, d) = special_number(rng, Some(n), raw);
            let old = n.to_string();
            *node = v;
            format!("{at} number {old} -> {d}")
        }
        Value::Bool(b) => {
            *b = !*b;
            format!("{at} bool negated")
        }
        Value::Null => {
            let (v, d) = special_number(rng, None, raw);
            *node = v;
            format!("{at} null -> {d}")
        }
        Value::String(s) => {
            let (out, d) = mutate_string(s, rng, &names, size);
            *s = out;
            format!("{at} string {d}")
        }
        Value::Array(items) => mutate_array(items, rng, raw, &at, size),
        Value::Object(map) => mutate_object(map, rng, raw, &at),
    }
}

fn mutate_array(
    items: &mut Vec<Value>,
    rng: &mut Rng,
    raw: &mut Raw,
    at: &str,
    size: usize,
) -> String {
    let n = items.len();
    match rng.below(13) {
        0 => {
            let k = if n == 0 { 0 } else { rng.below(n) };
            items.truncate(k);
            format!("{at} truncate {n} -> {k} elements")
        }
        1 if n > 0 => {
            let i = rng.below(n);
            items.remove(i);
            format!("{at} delete element {i} of {n}")
        }
        2 if n > 0 => {
            let i = rng.below(n);
            let j = rng.below(n + 1);
            let v = items[i].clone();
            items.insert(j, v);
            format!("{at} duplicate element {i} at {j}")
        }
        3 if n >= 2 => {
            let i = rng.below(n);
            let j = rng.below(n);
            items.swap(i, j);
            format!("{at} swap elements {i},{j}")
        }
        4 if n >= 2 => {
            for i in (1..n).rev() {
                let j = rng.below(i + 1);
                items.swap(i, j);
            }
            format!("{at} shuffle {n} elements")
        }
        5 if n >= 2 => {
            items.reverse();
            format!("{at} reverse {n} elements")
        }
        6 => {
            // Extend hugely by copies of one element (or zeros), up to about 1 MB.
            let unit = if n > 0 { items[rng.below(n)].clone() } else { Value::from(0) };
            let each = unit.to_string().len() + 1;
            let budget = MAX_FILE.saturating_sub(size) / each;
            let k = match rng.below(3) {
                0 => 1 + rng.below(8),
                1 => 1 + rng.below(1000),
                _ => budget.max(1),
            };
            items.extend(std::iter::repeat_n(unit, k));
            format!("{at} extend by {k} copies")
        }
        7 => {
            let (v, d) = special_number(rng, None, raw);
            let j = rng.below(n + 1);
            items.insert(j, v);
            format!("{at} insert {d} at {j}")
        }
        8 => {
            items.clear();
            format!("{at} empty (was {n})")
        }
        9 if n > 0 => {
            let i = rng.below(n);
            let v = std::mem::take(&mut items[i]);
            items[i] = Value::Array(vec![v]);
            format!("{at} wrap element {i} in []")
        }
        10 if n > 0 => {
            let i = rng.below(n);
            let j = rng.below(n);
            items[j] = items[i].clone();
            format!("{at} element {j} := element {i}")
        }
        11 => {
            let (text, d) = deep_nesting(rng);
            let j = rng.below(n + 1);
            items.insert(j, raw.value(text));
            format!("{at} insert {d} at {j}")
        }
        _ => {
            let lit = rng.pick(NON_JSON).to_string();
            let j = rng.below(n + 1);
            items.insert(j, raw.value(lit.clone()));
            format!("{at} insert literal {lit} at {j}")
        }
    }
}

fn mutate_object(map: &mut Map<String, Value>, rng: &mut Rng, raw: &mut Raw, at: &str) -> String {
    let keys: Vec<String> = map.keys().cloned().collect();
    let key = |rng: &mut Rng| keys[rng.below(keys.len())].clone();
    match rng.below(6) {
        0 if !keys.is_empty() => {
            let k = key(rng);
            map.remove(&k);
            format!("{at} remove field {k:?}")
        }
        1 if !keys.is_empty() => {
            // The key twice in the text: `{"k": v, "k": w}` (the tree cannot hold it).
            let k = key(rng);
            let (v, d) = match rng.below(3) {
                0 => (map[&k].clone(), "the same value".to_string()),
                1 => other_type(rng, raw, None),
                _ => {
                    let (v, d) = special_number(rng, map[&k].as_number(), raw);
                    (v, d)
                }
            };
            let marker = raw.key(serde_json::to_string(&k).expect("a key"));
            map.insert(marker, v);
            format!("{at} duplicate key {k:?} with {d}")
        }
        2 if !keys.is_empty() => {
            let k = key(rng);
            let v = map.remove(&k).expect("a key");
            let mut renamed = k.clone();
            if rng.chance(1, 2) {
                renamed.push('s');
            } else {
                renamed = renamed.to_uppercase();
            }
            map.insert(renamed.clone(), v);
            format!("{at} rename field {k:?} -> {renamed:?}")
        }
        3 => {
            // An optional field of some kind, mostly with a value of its own shape.
            let (k, v) = optional_field(rng);
            let (v, d) = if rng.chance(1, 4) {
                other_type(rng, raw, None)
            } else {
                let d = short(&v.to_string());
                (v, d)
            };
            map.insert(k.to_string(), v);
            format!("{at} add field {k:?} = {d}")
        }
        4 if !keys.is_empty() => {
            let a = key(rng);
            let b = key(rng);
            let va = map[&a].clone();
            let vb = map[&b].clone();
            map.insert(a.clone(), vb);
            map.insert(b.clone(), va);
            format!("{at} swap fields {a:?},{b:?}")
        }
        _ => {
            let k = "kind".to_string();
            if map.contains_key(&k) {
                let mut all: Vec<&str> = KINDS.to_vec();
                all.extend([
                    "refutation",
                    "voronoi-one-round",
                    "voronoi",
                    "posdnf-game",
                    "heap-game",
                    "triangle-avoidance",
                    "coin-game",
                    "marking-game",
                    "vertexnim",
                    "flip-game",
                ]);
                let to = rng.pick(&all).to_string();
                map.insert(k, Value::String(to.clone()));
                format!("{at} kind -> {to:?}")
            } else {
                let (v, d) = other_type(rng, raw, None);
                map.insert("extra".into(), v);
                format!("{at} add field \"extra\" = {d}")
            }
        }
    }
}

/// An optional field of some format with a plausible value (the checker must not trust it).
fn optional_field(rng: &mut Rng) -> (&'static str, Value) {
    use serde_json::json;
    let small = |rng: &mut Rng| rng.below(8) as i64 - 1;
    match rng.below(16) {
        0 => ("period", json!({"from": small(rng), "length": small(rng)})),
        1 => ("period", json!({"from": 0, "length": 1})),
        2 => ("margin", json!(small(rng))),
        3 => ("edge", json!([small(rng), small(rng)])),
        4 => ("winning_move", json!({"heap": 0, "take": 1, "leave": []})),
        5 => ("winning_move", json!([[small(rng)], [small(rng)]])),
        6 => ("start", json!({"white": ["v0"], "black": []})),
        7 => ("rounds", json!([0, 1, 2, 3, 4, 5, 6, 7])),
        8 => ("symmetries", json!([["......", "v0", "v1", [["v0", "v1"], ["v1", "v0"]]]])),
        9 => ("twin_classes", json!([["v0", "v1"], ["p1", "p2"]])),
        10 => ("generators", json!([[["v0", "v1"], ["v1", "v0"]]])),
        11 => ("orbits", json!([["......", [0]]])),
        12 => ("convex_polygon", json!(rng.pick(&[3, 7, 8, 20_000_000, 20_000_001]))),
        13 => ("first", json!({"at_least": small(rng), "moves": []})),
        14 => ("second", json!({"at_most": small(rng), "moves": []})),
        _ => ("directed", json!(true)),
    }
}

/// Mutations of the serialised text.
fn mutate_text(text: &str, rng: &mut Rng) -> (String, String) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let pos = |rng: &mut Rng| rng.below(n + 1);
    match rng.below(10) {
        0 => {
            let i = pos(rng);
            let cut = floor_boundary(text, i);
            (text[..cut].to_string(), format!("truncate text at byte {cut} of {n}"))
        }
        1 => {
            // Invalid UTF-8, read lossily (the API takes &str; files are read the same way).
            let mut b = bytes.to_vec();
            let i = pos(rng);
            const JUNK: [&[u8]; 4] =
                [&[0xff], &[0xc3], &[0xed, 0xa0, 0x80], &[0xf8, 0x88, 0x80, 0x80, 0x80]];
            let junk = JUNK[rng.below(JUNK.len())];
            for (k, &j) in junk.iter().enumerate() {
                b.insert(i + k, j);
            }
            (
                String::from_utf8_lossy(&b).into_owned(),
                format!("invalid UTF-8 {junk:02x?} at byte {i}, read lossily"),
            )
        }
        2 => {
            // A lone surrogate escape inside the first string after a random place.
            let i = pos(rng);
            match text[floor_boundary(text, i)..].find('"') {
                Some(q) => {
                    let at = floor_boundary(text, i) + q + 1;
                    let esc =
                        rng.pick(&["\\ud800", "\\udfff", "\\u0000", "\\uZZZZ", "\\x41", "\\"]);
                    let mut out = text.to_string();
                    out.insert_str(at, esc);
                    (out, format!("insert escape {esc} at byte {at}"))
                }
                None => (format!("{text}\\ud800"), "append \\ud800".into()),
            }
        }
        3 => {
            let junk = rng.pick(&[
                ",", "]", "}", "[", "{", "\"", ":", "\u{feff}", "\u{a0}", "//c\n", "/*", "\0",
                "}}}}", ",,",
            ]);
            let i = floor_boundary(text, pos(rng));
            let mut out = text.to_string();
            out.insert_str(i, junk);
            (out, format!("insert {junk:?} at byte {i}"))
        }
        4 => {
            // A digit changed (most such texts still parse and reach the checker).
            let start = pos(rng);
            match (start..n).find(|&i| bytes[i].is_ascii_digit()) {
                Some(i) => {
                    let mut b = bytes.to_vec();
                    b[i] = b'0' + rng.below(10) as u8;
                    (
                        String::from_utf8_lossy(&b).into_owned(),
                        format!("digit at byte {i} -> {}", b[i] as char),
                    )
                }
                None => (text.to_string(), "no digit to change".into()),
            }
        }
        5 if n > 0 => {
            let i = rng.below(n);
            let mut b = bytes.to_vec();
            b[i] = rng.below(128) as u8;
            (String::from_utf8_lossy(&b).into_owned(), format!("byte {i} -> {:#04x}", b[i]))
        }
        6 if n > 0 => {
            let a = floor_boundary(text, rng.below(n));
            let len = 1 + rng.below(64);
            let b = floor_boundary(text, (a + len).min(n));
            let mut out = text.to_string();
            out.replace_range(a..b, "");
            (out, format!("delete bytes {a}..{b}"))
        }
        7 if n > 0 => {
            let a = floor_boundary(text, rng.below(n));
            let len = 1 + rng.below(64);
            let b = floor_boundary(text, (a + len).min(n));
            let piece = text[a..b].to_string();
            let mut out = text.to_string();
            out.insert_str(b, &piece);
            (out, format!("duplicate bytes {a}..{b}"))
        }
        8 => {
            let tail = rng.pick(&["\n", " x", "{}", "\n{\"format\": 1}", "\0"]);
            (format!("{text}{tail}"), format!("append {tail:?}"))
        }
        _ => (format!("\u{feff}{text}"), "prepend a BOM".into()),
    }
}

/// A mutation of a text instance (an edge list, a positive DNF), aimed at the classes the
/// checker's text readers must refuse, or read exactly (issue 31): white space that is not a
/// separator (a non-breaking space, a vertical tab, a lone `\r`), a keyword where a vertex name
/// stands, long runs of comment or blank lines, and long newline-free runs; otherwise a
/// generic text mutation.
fn mutate_text_instance(text: &str, rng: &mut Rng) -> (String, String) {
    let mut out = text.to_string();
    let line_starts: Vec<usize> =
        std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    match rng.below(7) {
        0 => {
            let spaces: Vec<usize> = text.match_indices(' ').map(|(i, _)| i).collect();
            let sep = *rng.pick(&[
                "\u{a0}",
                "\u{b}",
                "\u{c}",
                "\r",
                "\u{2003}",
                "\u{3000}",
                "\u{85}",
                "\t",
                "\r\n",
                "\r\r\n",
                " \u{200b}",
                "\u{feff} ",
                " \0",
                "\u{ad} ",
                " \u{1b}",
            ]);
            if spaces.is_empty() {
                return (format!("{sep}{text}"), format!("prepend separator {sep:?}"));
            }
            let at = *rng.pick(&spaces);
            out.replace_range(at..at + 1, sep);
            (out, format!("the space at byte {at} -> {sep:?}"))
        }
        1 => {
            let word = *rng.pick(&["white", "black", "vertex", "p", "c", "0", "#", "-1"]);
            let at = *rng.pick(&line_starts);
            let shape = *rng.pick(&["vertex {}\n", "white {}\n", "a {}\n", "{} a\n", "{} 1 2 0\n"]);
            let line = shape.replace("{}", word);
            out.insert_str(at, &line);
            (out, format!("insert the line {line:?} at byte {at}"))
        }
        2 => {
            let comment = *rng.pick(&["c a comment\n", "# a comment\n", "\n", "c\n", " \t\r\n"]);
            let count = 1 + rng.below(MAX_FILE / comment.len());
            let at = *rng.pick(&line_starts);
            out.insert_str(at, &comment.repeat(count));
            (out, format!("{count} lines {comment:?} at byte {at}"))
        }
        // A line end that is not one: a `\r` at the end of the file, or doubled before `\n`.
        4 if rng.below(2) == 0 => {
            (format!("{}\r", text.trim_end_matches('\n')), "end with \\r".into())
        }
        4 => (text.replacen('\n', "\r\r\n", 1 + rng.below(3)), "\\r\\r\\n line ends".into()),
        3 => {
            let piece = *rng.pick(&["1 ", "a", "0", " ", "\u{a0}", "c"]);
            let count = 1 + rng.below(MAX_FILE / piece.len());
            let at = floor_boundary(text, rng.below(text.len() + 1));
            out.insert_str(at, &piece.repeat(count));
            (out, format!("a newline-free run of {count} {piece:?} at byte {at}"))
        }
        _ => mutate_text(text, rng),
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Mutates one file: 1 to 4 operations, each on the tree (most) or the text.
fn mutate_file(
    text: &str,
    donor: Option<&str>,
    rng: &mut Rng,
    label: &str,
    log: &mut Vec<String>,
) -> String {
    let mut tree: Value = serde_json::from_str(text).expect("seed files are JSON");
    let donor: Option<Value> = donor.map(|d| serde_json::from_str(d).expect("seed files are JSON"));
    let mut raw = Raw { pieces: Vec::new() };
    let mut text_ops = Vec::new();
    let ops = 1 + (0..3).take_while(|_| rng.chance(1, 3)).count();
    for _ in 0..ops {
        if rng.chance(1, 10) {
            text_ops.push(());
        } else {
            let d = mutate_tree(&mut tree, rng, &mut raw, donor.as_ref());
            log.push(format!("{label}: {d}"));
        }
    }
    let serialised = if rng.chance(1, 2) {
        serde_json::to_string(&tree)
    } else {
        serde_json::to_string_pretty(&tree)
    }
    .expect("a value tree serialises");
    let mut out = raw.splice(serialised);
    for () in text_ops {
        let (t, d) = mutate_text(&out, rng);
        log.push(format!("{label}: text {d}"));
        out = t;
    }
    // Several growing operations stay within a few MiB: the files are bounded.
    if out.len() > 4 * MAX_FILE {
        let cut = floor_boundary(&out, 4 * MAX_FILE);
        out.truncate(cut);
        log.push(format!("{label}: text cut to {cut} bytes"));
    }
    out
}

/// A mutant of `seed`: the certificate (most often), the instance, or both; sometimes the
/// certificate of another seed of the same kind on this instance, or an instance of another
/// kind under this certificate.
pub fn mutant(seed: &Seed, seeds: &[Seed], case_seed: u64) -> Mutant {
    let mut rng = Rng::new(case_seed);
    let same: Vec<&Seed> =
        seeds.iter().filter(|s| s.kind == seed.kind && s.name != seed.name).collect();
    let donor = (!same.is_empty()).then(|| *rng.pick(&same));
    let mut log = Vec::new();
    let (mut instance, mut certificate) = (seed.instance.clone(), seed.certificate.clone());
    if rng.chance(1, 40) {
        if let Some(d) = donor {
            certificate = d.certificate.clone();
            log.push(format!("cert: the certificate of seed {}", d.name));
        }
    }
    if rng.chance(1, 50) {
        let other = rng.pick(seeds);
        instance = other.instance.clone();
        log.push(format!("inst: the instance of seed {}", other.name));
    }
    // The certificate alone 13 in 20, the instance alone 4 in 20, both 3 in 20.
    let target = rng.below(20);
    if !(13..17).contains(&target) {
        certificate = mutate_file(
            &certificate,
            donor.map(|d| d.certificate.as_str()),
            &mut rng,
            "cert",
            &mut log,
        );
    }
    if target >= 13 {
        instance = if serde_json::from_str::<Value>(&instance).is_ok() {
            // A donor instance held as text gives no JSON subtrees.
            let donor = donor.map(|d| d.instance.as_str()).filter(|d| d.starts_with('{'));
            mutate_file(&instance, donor, &mut rng, "inst", &mut log)
        } else {
            let (text, d) = mutate_text_instance(&instance, &mut rng);
            log.push(format!("inst: text {d}"));
            text
        };
    }
    // A quarter of the mutants go in the binary form (issue 47), mutated further byte by byte;
    // from a random stream of their own, so the JSON mutations above stay as they were.
    let mut binary_rng = Rng::new(case_seed ^ 0x6263_7661_6c75_6531);
    if binary_rng.chance(1, 4) {
        if let Some(bytes) = binary_mutant(&certificate, &mut binary_rng, &mut log) {
            certificate = format!("{BINARY}{}", hex(&bytes));
        }
    }
    Mutant { instance, certificate, description: log.join("; ") }
}

/// A case's certificate in the binary form: this marker, then its bytes in hexadecimal.
pub const BINARY: &str = "@@BINARY:";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a certificate text marked [`BINARY`], if it is one.
pub fn binary_bytes(text: &str) -> Option<Vec<u8>> {
    let digits = text.strip_prefix(BINARY)?.as_bytes();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// `text` (a JSON certificate, perhaps mutated already) in the binary form, then mutated 0 to
/// 3 times on its bytes: bits flipped, bytes set to tags and edge values, truncation, ranges
/// deleted or repeated, varints inflated past their minimal length or past 2^64, string
/// lengths and table indices made huge, nesting 10^4 deep. `None` when the text is no
/// gamecert JSON the writer takes.
fn binary_mutant(text: &str, rng: &mut Rng, log: &mut Vec<String>) -> Option<Vec<u8>> {
    use gamecert::base::binary::{from_json, BinaryWriter};
    let mut bytes = Vec::new();
    from_json(|| Ok(text.as_bytes()), &mut BinaryWriter::new(&mut bytes).ok()?).ok()?;
    log.push("cert: in the binary form".into());
    let ops = rng.below(4);
    for _ in 0..ops {
        if bytes.len() < 10 {
            break;
        }
        let at = 8 + rng.below(bytes.len() - 8);
        let d = match rng.below(10) {
            0 => {
                let bit = rng.below(8);
                bytes[at] ^= 1 << bit;
                format!("bit {bit} of byte {at} flipped")
            }
            1 => {
                let v = *rng.pick(&[
                    0x00, 0x03, 0x06, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x1f, 0x20,
                    0x7f, 0x80, 0xff,
                ]);
                bytes[at] = v;
                format!("byte {at} set to {v:#04x}")
            }
            2 => {
                bytes.truncate(at);
                format!("cut at byte {at}")
            }
            3 => {
                let len = 1 + rng.below(16).min(bytes.len() - at - 1);
                bytes.drain(at..at + len);
                format!("{len} bytes deleted at {at}")
            }
            4 => {
                let len = 1 + rng.below(64).min(bytes.len() - at - 1);
                let copy = bytes[at..at + len].to_vec();
                let times = 1 + rng.below(1000);
                let room = MAX_FILE.saturating_sub(bytes.len()) / len.max(1);
                for _ in 0..times.min(room) {
                    bytes.splice(at..at, copy.iter().copied());
                }
                format!("{len} bytes at {at} repeated {times} times")
            }
            5 => {
                // A one-byte integer as a varint inflated past its minimal length.
                let Some(i) = (at..bytes.len()).find(|&i| bytes[i] >= 0x80) else { continue };
                let v = bytes[i] - 0x80;
                let pad = 1 + rng.below(12);
                let mut inflated = vec![0x03, v | 0x80];
                inflated.extend(std::iter::repeat_n(0x80, pad - 1));
                inflated.push(0x00);
                bytes.splice(i..=i, inflated);
                format!("integer at {i} inflated by {pad} bytes")
            }
            6 => {
                const HUGE: [&[u8]; 4] = [
                    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
                    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
                    &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
                    &[0x80, 0x80, 0x80, 0x80, 0x10],
                ];
                let huge = *rng.pick(&HUGE);
                let t = *rng.pick(&[0x03, 0x04, 0x06, 0x07, 0x08, 0x0c, 0x0d, 0x0f]);
                bytes.splice(at..at, std::iter::once(t).chain(huge.iter().copied()));
                format!("tag {t:#04x} with a huge varint inserted at {at}")
            }
            7 => {
                let depth = 1 + rng.below(10_000);
                bytes.splice(at..at, std::iter::repeat_n(0x09, depth));
                format!("{depth} arrays opened at {at}")
            }
            8 => {
                let b = 8 + rng.below(bytes.len() - 8);
                bytes.swap(at, b);
                format!("bytes {at} and {b} swapped")
            }
            _ => {
                let index = rng.below(1 << 20) as u64;
                let mut r = vec![0x08];
                let mut v = index;
                while v >= 0x80 {
                    r.push(v as u8 | 0x80);
                    v >>= 7;
                }
                r.push(v as u8);
                bytes.splice(at..at, r);
                format!("string reference {index} inserted at {at}")
            }
        };
        log.push(format!("cert: binary {d}"));
    }
    // In hexadecimal the file stays within the bound of a text mutant.
    bytes.truncate((4 * MAX_FILE - BINARY.len()) / 2);
    Some(bytes)
}
