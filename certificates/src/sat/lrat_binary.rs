//! Binary LRAT (issue 47): the proof of a binary refutation certificate, and a bare binary
//! proof for `gamecert-check lrat`. The same steps and the same checker as the text
//! ([`crate::sat::lrat`]: what is accepted, what is charged, what is held); only the
//! encoding differs, about a third of the text's bytes. `docs/formats.md` describes it for
//! someone writing a second checker.
//!
//! # The proof
//!
//! Numbers are unsigned LEB128 varints: seven bits a byte, least significant first, the high
//! bit set on every byte but the last; at most 10 bytes and at most 2^64 - 1 (a tenth byte
//! above 1 is refused). Overlong forms (a final `0x00` after a continuation) are read as the
//! number they spell. Let `max` be the largest clause id so far (at first the number of input
//! clauses, `m`, whose ids are `1..=m`).
//!
//! * **Addition**: the byte `a` (0x61); the id as the difference `id - max` (at least 1, so ids
//!   increase); the literals, `2v` for `v` and `2v + 1` for `-v`, then 0; the hints, each a
//!   clause `j < id` as `2 (id - j)`, or `2 (id - j) + 1` for a RAT hint (negative in the text),
//!   then 0. The addition makes `max = id`.
//! * **Deletion**: the byte `d` (0x64); each deleted clause `j` as `max + 1 - j` (at least 1),
//!   then 0.
//!
//! Any other tag byte is refused, and so are a literal code 1 (-0), a hint difference of 0
//! (the clause being added) or of `id` and more (before clause 1), a deletion difference past
//! clause 1, an id past 2^64 - 1, and a file that ends inside a step. Every error names the
//! offset in the file of the byte where the step at fault begins, and a truncation or a bad
//! number the byte where it is.
//!
//! # The certificate
//!
//! [`MAGIC`] (8 bytes), the header's length `L` (4 bytes, little-endian, at most
//! [`MAX_HEADER_BYTES`]), `L` bytes of UTF-8 JSON (the refutation's fields without `lrat`,
//! read by [`crate::voronoi::one_round`] with the JSON certificate's rules), then the proof to
//! the end of the file: the file must end right after the empty clause.
//!
//! # Work
//!
//! Every byte is charged [`BYTE_COST`] as it is read, every step [`STEP_COST`] more, and the
//! header's bytes as they are held (then as a JSON text is, before it is parsed); the rest is
//! the text checker's charges. No number sizes a buffer: the header is held as its bytes
//! arrive, never allocated from its length.

use crate::base::budget::Budget;
use crate::sat::cnf::Cnf;
use crate::sat::lrat::{check_steps, LratError, LratReport, Step, Steps};
use std::io::BufRead;

/// The first 8 bytes of a binary refutation certificate.
pub const MAGIC: &[u8; 8] = b"GCREFUT1";

/// The longest header a certificate may have: 1 GiB (its JSON holds the formula of a
/// refutation through a reduction).
pub const MAX_HEADER_BYTES: u32 = 1 << 30;

/// The tag of an addition.
pub const ADDITION: u8 = b'a';
/// The tag of a deletion.
pub const DELETION: u8 = b'd';

/// Work units charged per byte of a binary proof as it is read.
pub const BYTE_COST: u64 = 4;

/// Work units charged per step besides its bytes.
pub const STEP_COST: u64 = 4;

/// Whether a proof starting with `first` is binary (text LRAT starts with a digit, a `c`, a
/// separator or a line end).
pub fn is_binary(first: u8) -> bool {
    first == ADDITION || first == DELETION
}

/// The bytes buffered now (empty at the end of the input), reads interrupted retried.
fn available<R: BufRead>(read: &mut R) -> Result<&[u8], String> {
    loop {
        match read.fill_buf() {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => fail!("the file cannot be read: {e}"),
            Ok(_) => break,
        }
    }
    read.fill_buf().map_err(|e| format!("the file cannot be read: {e}"))
}

/// Reads a certificate's magic and header and returns the header's text; `read` is then at
/// the proof's first byte, [`proof_offset`] of the header into the file.
pub fn read_header(read: &mut impl BufRead, budget: &mut Budget) -> Result<String, String> {
    let mut head = Vec::with_capacity(12);
    while head.len() < 12 {
        let chunk = available(read)?;
        if chunk.is_empty() {
            fail!(
                "byte {}: the file ends inside the magic and the header's length (12 bytes)",
                head.len()
            );
        }
        let n = chunk.len().min(12 - head.len());
        head.extend_from_slice(&chunk[..n]);
        read.consume(n);
    }
    ensure!(
        head[..8] == MAGIC[..],
        "byte 0: the file does not start with the magic {:?}",
        String::from_utf8_lossy(MAGIC)
    );
    let len = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
    ensure!(
        len <= MAX_HEADER_BYTES,
        "byte 8: the header's length {len} is more than {MAX_HEADER_BYTES} bytes, the most a \
         header may have"
    );
    // Held as the bytes arrive, each charged first: a length alone allocates nothing.
    let mut header = Vec::new();
    while header.len() < len as usize {
        let chunk = available(read)?;
        if chunk.is_empty() {
            fail!(
                "byte {}: the file ends inside the header ({len} bytes from byte 12)",
                12 + header.len()
            );
        }
        let n = chunk.len().min(len as usize - header.len());
        budget.charge_each(n as u64, 2, "reading the certificate's header")?;
        header.extend_from_slice(&chunk[..n]);
        read.consume(n);
    }
    String::from_utf8(header)
        .map_err(|e| format!("byte {}: the header is not UTF-8", 12 + e.utf8_error().valid_up_to()))
}

/// Where a certificate's proof starts: after the magic, the length and `header`.
pub fn proof_offset(header: &str) -> u64 {
    12 + header.len() as u64
}

/// Checks that the binary proof `read` holds (its first byte at `offset` in its file) refutes
/// `cnf`; the rest of `read` after the empty clause is not read.
pub fn check_binary_lrat(
    cnf: &Cnf,
    read: impl BufRead,
    offset: u64,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    check_steps(cnf, &mut BinaryProof::new(read, offset), budget)
}

/// [`check_binary_lrat`] for a certificate's proof: the file must end with the empty clause.
pub fn check_certificate_proof(
    cnf: &Cnf,
    read: impl BufRead,
    offset: u64,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    let mut proof = BinaryProof::new(read, offset);
    let report = check_steps(cnf, &mut proof, budget)?;
    let more = available(&mut proof.read).map(|rest| !rest.is_empty());
    match more {
        Ok(false) => Ok(report),
        Ok(true) => Err(proof.at(
            proof.offset,
            "bytes follow the empty clause: a binary refutation ends with it".into(),
        )),
        Err(why) => Err(proof.at(proof.offset, why)),
    }
}

/// A text or a binary LRAT proof, told apart by its first byte ([`is_binary`]), checked as
/// `gamecert-check lrat` does.
pub fn check_any_lrat(
    cnf: &Cnf,
    mut read: impl BufRead,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    let first = available(&mut read)
        .map(|bytes| bytes.first().copied())
        .map_err(|why| LratError { line: 0, byte: None, clause_id: None, message: why })?;
    match first {
        Some(first) if is_binary(first) => check_binary_lrat(cnf, read, 0, budget),
        _ => crate::sat::lrat::check_lrat_reader(cnf, read, budget),
    }
}

/// A binary proof read one part of a step at a time ([`Steps`]): the checker's reader, which
/// the tools that rewrite a proof use too (`gamecert export-proof`).
pub struct BinaryProof<R> {
    read: R,
    /// The offset in the file of the next byte.
    offset: u64,
    /// Where the proof starts in the file.
    start: u64,
    /// Where the step being read starts.
    step_at: u64,
    /// The id of the addition being read.
    id: u64,
    /// The largest id before the step being read.
    max_id: u64,
}

impl<R: BufRead> BinaryProof<R> {
    /// The proof `read` holds, its first byte at `offset` in its file.
    pub fn new(read: R, offset: u64) -> BinaryProof<R> {
        BinaryProof { read, offset, start: offset, step_at: offset, id: 0, max_id: 0 }
    }

    /// The offset in the file of the next byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn at(&self, byte: u64, message: String) -> LratError {
        LratError { line: 0, byte: Some(byte), clause_id: None, message }
    }

    /// Consumes `n` bytes already looked at, charged first.
    fn advance(&mut self, n: usize, budget: &mut Budget) -> Result<(), String> {
        budget.charge_each(n as u64, BYTE_COST, "reading the binary LRAT proof")?;
        self.read.consume(n);
        self.offset += n as u64;
        Ok(())
    }

    /// The next varint, `what` naming it in errors.
    fn varint(&mut self, what: &str, budget: &mut Budget) -> Result<u64, String> {
        let at = self.offset;
        let too_long = || {
            format!("byte {at}: {what} is longer than 10 bytes or past 2^64 - 1 (a varint is at most 2^64 - 1, in at most 10 bytes)")
        };
        let (mut value, mut read) = (0u64, 0usize);
        loop {
            let chunk = available(&mut self.read)?;
            if chunk.is_empty() {
                fail!("byte {}: the file ends inside {what} (from byte {at})", self.offset);
            }
            // The common case: the rest of the number is in the buffer, one charge for it.
            let mut used = 0;
            for &b in chunk.iter() {
                if read == 9 && b > 1 {
                    return Err(too_long());
                }
                value |= u64::from(b & 0x7f) << (7 * read);
                read += 1;
                used += 1;
                if b & 0x80 == 0 {
                    self.advance(used, budget)?;
                    return Ok(value);
                }
            }
            self.advance(used, budget)?;
        }
    }
}

impl<R: BufRead> Steps for BinaryProof<R> {
    fn next_step(&mut self, max_id: u64, budget: &mut Budget) -> Result<Option<Step>, String> {
        self.max_id = max_id;
        self.step_at = self.offset;
        budget.charge(STEP_COST, "reading the binary LRAT proof")?;
        let Some(&tag) = available(&mut self.read)?.first() else { return Ok(None) };
        self.advance(1, budget)?;
        match tag {
            ADDITION => {
                let delta = self.varint("a clause id's difference", budget)?;
                ensure!(
                    delta > 0,
                    "clause id difference 0: an added id must be greater than the largest \
                     earlier id {max_id}"
                );
                self.id = max_id.checked_add(delta).ok_or_else(|| {
                    format!(
                        "the clause id difference {delta} takes the id past 2^64 - 1 (the \
                         largest earlier id is {max_id})"
                    )
                })?;
                Ok(Some(Step::Addition(self.id)))
            }
            DELETION => Ok(Some(Step::Deletion)),
            other => fail!(
                "0x{other:02x} is not a step's tag: 0x61 ('a') begins an addition, 0x64 ('d') a \
                 deletion"
            ),
        }
    }

    fn literal(&mut self, budget: &mut Budget) -> Result<i64, String> {
        let code = self.varint("a literal", budget)?;
        ensure!(code != 1, "literal code 1 (2v + 1 with v = 0) names no variable");
        // code >> 1 < 2^63: an i64.
        let var = (code >> 1) as i64;
        Ok(if code & 1 == 1 { -var } else { var })
    }

    fn hint(&mut self, budget: &mut Budget) -> Result<i64, String> {
        let code = self.varint("a hint", budget)?;
        if code == 0 {
            return Ok(0);
        }
        let (delta, id) = (code >> 1, self.id);
        ensure!(delta > 0, "a hint's difference 0 names clause {id}, the clause being added");
        ensure!(delta < id, "a hint's difference {delta} from clause {id} reaches past clause 1");
        let hint = i64::try_from(id - delta)
            .map_err(|_| format!("hint {} is past 2^63 - 1", id - delta))?;
        Ok(if code & 1 == 1 { -hint } else { hint })
    }

    fn deleted(&mut self, budget: &mut Budget) -> Result<u64, String> {
        let code = self.varint("a deleted clause's difference", budget)?;
        ensure!(
            code <= self.max_id,
            "a deleted clause's difference {code} reaches past clause 1 (the largest id so far is \
             {})",
            self.max_id
        );
        // 0 ends the deletion; otherwise max + 1 - code, at least 1.
        Ok(if code == 0 { 0 } else { self.max_id - (code - 1) })
    }

    fn end_step(&mut self, _: &mut Budget) -> Result<(), String> {
        Ok(())
    }

    fn consumed(&self) -> u64 {
        self.offset - self.start
    }

    fn error(&self, clause_id: Option<u64>, message: String) -> LratError {
        LratError { clause_id, ..self.at(self.step_at, message) }
    }

    fn at_end(&self, message: String) -> LratError {
        self.at(self.offset, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::lrat::check_lrat;
    use crate::sat::lrat::tests::{chain, square};

    fn varint(out: &mut Vec<u8>, mut n: u64) {
        while n >= 0x80 {
            out.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
    }

    /// The binary of a well-formed text proof of a formula of `m` clauses (increasing ids,
    /// hints below their clause, deletions of earlier ids), by the rules of the module docs.
    fn binary(text: &str, m: u64) -> Vec<u8> {
        let mut out = Vec::new();
        let mut max = m;
        for line in text.lines() {
            let words: Vec<&str> = line.split_ascii_whitespace().collect();
            if words.is_empty() || words[0].starts_with('c') {
                continue;
            }
            if words[1] == "d" {
                out.push(DELETION);
                for w in &words[2..] {
                    let id: u64 = w.parse().unwrap();
                    if id == 0 {
                        break;
                    }
                    varint(&mut out, max + 1 - id);
                }
                out.push(0);
                continue;
            }
            let id: u64 = words[0].parse().unwrap();
            out.push(ADDITION);
            varint(&mut out, id - max);
            let rest: Vec<i64> = words[1..].iter().map(|w| w.parse().unwrap()).collect();
            let zero = rest.iter().position(|&n| n == 0).unwrap();
            for &lit in &rest[..zero] {
                varint(&mut out, 2 * lit.unsigned_abs() + u64::from(lit < 0));
            }
            out.push(0);
            for &hint in rest[zero + 1..].iter().take_while(|&&h| h != 0) {
                varint(&mut out, 2 * (id - hint.unsigned_abs()) + u64::from(hint < 0));
            }
            out.push(0);
            max = id;
        }
        out
    }

    fn check(cnf: &Cnf, proof: &[u8]) -> Result<LratReport, LratError> {
        check_binary_lrat(cnf, proof, 0, &mut Budget::new(crate::base::budget::DEFAULT_MAX_WORK))
    }

    fn rejects(cnf: &Cnf, proof: &[u8], needle: &str) -> LratError {
        let e = check(cnf, proof).expect_err("rejected");
        assert!(e.to_string().contains(needle), "error {e} does not mention {needle:?}");
        e
    }

    /// The text and the binary form of the same proof get the same verdict, and the same
    /// report when accepted: the proofs of the text checker's tests, accepted and rejected.
    #[test]
    fn the_binary_and_the_text_agree() {
        let cases: &[(Cnf, &str)] = &[
            (square(), "c a refutation\n5 1 0 1 3 0\n\n5 d 1 3 0\n6 0 5 2 4 0\n"),
            (chain(), "5 -1 0 -1 4 3 -2 4 3 0\n6 0 5 1 2 0\n"),
            (chain(), "5 -1 0 -2 4 3 -1 4 3 0\n6 0 5 1 2 0\n"),
            (chain(), "5 -1 -2 0 3 -1 -2 4 0\n6 -1 0 3 4 0\n7 0 6 1 2 0\n"),
            (square(), "5 3 -1 0 0\n6 -3 1 0 -5 0\n7 3 0 5 1 3 0\n8 0 7 6 2 4 0\n"),
            (square(), "5 1 0 1 3 0\n5 d 2 0\n6 0 5 2 4 0\n"),
            (square(), "5 1 0 1 0\n"),
            (square(), "5 1 0 1 3 0\n"),
            (square(), "5 1 -1 0 1 3 0\n"),
            (chain(), "5 -1 0 -1 4 3 0\n6 0 5 1 2 0\n"),
            (chain(), "5 -1 0 -1 4 -2 4 3 0\n"),
            (chain(), "5 -1 0 -1 4 3 -1 4 3 -2 4 3 0\n"),
            (chain(), "5 d 1 0\n6 -1 0 -1 4 3 -2 4 3 0\n"),
            (Cnf { num_vars: 2, clauses: vec![vec![1, 2]] }, "2 0 0\n"),
            (square(), "1000000000000 1 0 1 3 0\n1000000000001 1 0 1 0\n"),
            (Cnf { num_vars: 1, clauses: vec![vec![1], vec![], vec![-1]] }, "10 0 2 0\n"),
        ];
        for (cnf, text) in cases {
            let by_text = check_lrat(cnf, text, &mut Budget::unlimited());
            let bytes = binary(text, cnf.clauses.len() as u64);
            let by_binary = check(cnf, &bytes);
            assert_eq!(by_text.is_ok(), by_binary.is_ok(), "{text:?}: {by_text:?} {by_binary:?}");
            if let (Ok(a), Ok(b)) = (&by_text, &by_binary) {
                assert_eq!(a, b, "{text:?}");
            }
            if let (Err(a), Err(b)) = (&by_text, &by_binary) {
                assert_eq!((a.clause_id, &a.message), (b.clause_id, &b.message), "{text:?}");
                assert!(b.byte.is_some() || b.message.contains("ends before"), "{b}");
            }
            // Told apart by the first byte, as `gamecert-check lrat` reads them.
            let any = check_any_lrat(cnf, &bytes[..], &mut Budget::unlimited());
            assert_eq!(any.is_ok(), by_text.is_ok());
        }
    }

    #[test]
    fn the_encoding_is_as_documented() {
        // docs/formats.md's example: the square refuted.
        let bytes = binary("5 1 0 1 3 0\n5 d 1 3 0\n6 0 5 2 4 0\n", 4);
        assert_eq!(bytes, [0x61, 1, 2, 0, 8, 4, 0, 0x64, 5, 3, 0, 0x61, 1, 0, 2, 8, 4, 0]);
        assert_eq!(check(&square(), &bytes).unwrap().empty_clause_id, 6);
        assert!(is_binary(b'a') && is_binary(b'd') && !is_binary(b'5') && !is_binary(b'c'));
    }

    #[test]
    fn a_truncated_proof_names_its_byte() {
        let bytes = binary("5 1 0 1 3 0\n6 0 5 2 4 0\n", 4);
        for cut in 0..bytes.len() {
            let e = check(&square(), &bytes[..cut]).unwrap_err();
            assert!(e.byte.is_some(), "{cut}: {e}");
            let expected =
                if [0, 7].contains(&cut) { "ends before" } else { "the file ends inside" };
            assert!(e.message.contains(expected), "{cut}: {e}");
        }
        let e = check(&square(), &[0x61, 1, 0x82]).unwrap_err();
        assert!(
            e.to_string().contains("byte 3: the file ends inside a literal (from byte 2)"),
            "{e}"
        );
    }

    #[test]
    fn numbers_past_their_range_are_refused() {
        // A varint of 11 bytes, and one whose tenth byte passes 2^64 - 1.
        let mut long = vec![0x61];
        long.extend([0x80; 10]);
        long.push(1);
        rejects(&square(), &long, "longer than 10 bytes or past 2^64 - 1");
        let mut over = vec![0x61];
        over.extend([0xff; 9]);
        over.push(2);
        rejects(&square(), &over, "longer than 10 bytes or past 2^64 - 1");
        // 2^64 - 1 itself is a number: an id difference that overflows the id.
        let mut max = vec![0x61];
        max.extend([0xff; 9]);
        max.push(1);
        rejects(&square(), &max, "takes the id past 2^64 - 1");
        // An id difference of 0.
        rejects(&square(), &[0x61, 0, 0, 0], "clause id difference 0");
        // A literal code 1 (-0).
        rejects(&square(), &[0x61, 1, 1, 0, 0], "literal code 1");
        // A literal past the largest variable.
        let mut lit = vec![0x61, 1];
        varint(&mut lit, 2 * (1 << 31));
        rejects(&square(), &lit, "beyond the largest variable");
    }

    #[test]
    fn hints_and_deletions_stay_below_the_clause() {
        // A hint difference 0 (the clause being added; code 0 ends the hints, so it is the odd
        // code 1), and one past clause 1.
        let e =
            rejects(&square(), &[0x61, 1, 2, 0, 1, 0], "names clause 5, the clause being added");
        assert_eq!((e.byte, e.clause_id), (Some(0), Some(5)));
        rejects(
            &square(),
            &[0x61, 1, 2, 0, 10, 0],
            "difference 5 from clause 5 reaches past clause 1",
        );
        rejects(
            &square(),
            &[0x61, 1, 2, 0, 11, 0],
            "difference 5 from clause 5 reaches past clause 1",
        );
        // A deletion past clause 1.
        rejects(&square(), &[0x64, 5, 0], "deleted clause's difference 5 reaches past clause 1");
        // A hint past 2^63 - 1 (an id so large the text could not write it as a hint).
        let mut big = vec![0x61];
        varint(&mut big, u64::MAX - 4);
        big.extend([2, 0, 2, 0]);
        rejects(&square(), &big, "past 2^63 - 1");
    }

    #[test]
    fn a_bad_tag_is_refused_at_its_byte() {
        let mut bytes = binary("5 1 0 1 3 0\n", 4);
        let at = bytes.len() as u64;
        bytes.push(b'x');
        let e = rejects(&square(), &bytes, "0x78 is not a step's tag");
        assert_eq!(e.byte, Some(at));
        // Offsets count from the file's start: a proof after a header of 100 bytes.
        let e =
            check_binary_lrat(&square(), &[0x00][..], 100, &mut Budget::unlimited()).unwrap_err();
        assert!(e.to_string().starts_with("binary LRAT byte 100:"), "{e}");
    }

    #[test]
    fn a_certificate_ends_with_its_empty_clause() {
        let mut bytes = binary("5 1 0 1 3 0\n6 0 5 2 4 0\n", 4);
        let proof = |b: &[u8]| check_certificate_proof(&square(), b, 0, &mut Budget::unlimited());
        assert!(proof(&bytes).is_ok());
        bytes.push(0x61);
        let e = proof(&bytes).unwrap_err();
        assert!(e.message.contains("bytes follow the empty clause"), "{e}");
        // A bare proof, like a text one, is not read past its empty clause.
        assert!(check_binary_lrat(&square(), &bytes[..], 0, &mut Budget::unlimited()).is_ok());
    }

    #[test]
    fn every_byte_is_charged() {
        let bytes = binary("5 1 0 1 3 0\n6 0 5 2 4 0\n", 4);
        let mut budget = Budget::unlimited();
        check_binary_lrat(&square(), &bytes[..], 0, &mut budget).unwrap();
        let setup = {
            let mut b = Budget::unlimited();
            let _ = check_binary_lrat(&square(), &[][..], 0, &mut b);
            b.used()
        };
        assert!(budget.used() - setup >= BYTE_COST * bytes.len() as u64);
        // A long run of deletions that delete nothing runs out of budget.
        let empty_deletions = [0x64u8, 0].repeat(1 << 20);
        let budget = &mut Budget::new(1_000_000);
        let e = check_binary_lrat(&square(), &empty_deletions[..], 0, budget).unwrap_err();
        assert!(e.message.contains("work limit reached"), "{e}");
        // A header is charged as it is held.
        let mut file = MAGIC.to_vec();
        file.extend(1000u32.to_le_bytes());
        file.extend([b' '; 1000]);
        let e = read_header(&mut &file[..], &mut Budget::new(1000)).unwrap_err();
        assert!(e.contains("work limit reached while reading the certificate's header"), "{e}");
    }

    #[test]
    fn a_header_is_read_to_its_length() {
        let mut file = MAGIC.to_vec();
        file.extend(2u32.to_le_bytes());
        file.extend(b"{}");
        assert_eq!(read_header(&mut &file[..], &mut Budget::unlimited()).unwrap(), "{}");
        assert_eq!(proof_offset("{}"), 14);
        let e = read_header(&mut &file[..13], &mut Budget::unlimited()).unwrap_err();
        assert!(e.starts_with("byte 13: the file ends inside the header"), "{e}");
        let e = read_header(&mut &file[..5], &mut Budget::unlimited()).unwrap_err();
        assert!(e.starts_with("byte 5: the file ends inside the magic"), "{e}");
        let mut long = MAGIC.to_vec();
        long.extend((MAX_HEADER_BYTES + 1).to_le_bytes());
        let e = read_header(&mut &long[..], &mut Budget::unlimited()).unwrap_err();
        assert!(e.contains("is more than 1073741824 bytes"), "{e}");
        let mut other = b"GCTASTR1".to_vec();
        other.extend(2u32.to_le_bytes());
        assert!(read_header(&mut &other[..], &mut Budget::unlimited()).is_err());
        let mut bad = MAGIC.to_vec();
        bad.extend(1u32.to_le_bytes());
        bad.push(0xff);
        let e = read_header(&mut &bad[..], &mut Budget::unlimited()).unwrap_err();
        assert!(e.contains("byte 12: the header is not UTF-8"), "{e}");
    }
}
