//! TREC text: qrels (`query iteration document grade`) and runs
//! (`query Q0 document rank score tag`), read in one pass per line.
//!
//! The rules are those of the exact line parser of `cranfield.io.text` (`docs/input.md`):
//! fields are maximal runs of bytes that are not C `isspace` (space, tab, LF, CR, VT, FF);
//! lines end at LF (a final LF ends the last line); a line without fields is blank; a line
//! whose first field starts with `#` is a comment, unless it has the whole shape of a data
//! line (an error: a result hidden behind `#`).  A qrels line has exactly 4 fields and an
//! integer grade; a run line at least 6 (more are counted, and the first such line kept), a
//! score, and a rank that, when it is not an integer, is noted (first line) but not an error;
//! a run line of 11 fields or more that holds a second result with its own iteration token is
//! an error (a missing newline).  The text reaches the core after the checks every text gets
//! (UTF-8, no NUL, no inner BOM, the line-end rule), so a CR is whitespace here.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::judge::prefix;
use crate::numbers::{is_int, is_score, parse_int, parse_score};

pub const QRELS_FIELDS: usize = 4;
pub const RUN_FIELDS: usize = 6;
/// A run line of this many fields or more may hold two results.
pub const JOINED_FIELDS: usize = 2 * RUN_FIELDS - 1;

/// What is wrong with a text, for the Python side to word (`cranfield.io.text`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The wrong number of fields on a data line.
    Columns,
    /// A comment line with the shape of a data line.
    Hidden,
    /// Two results on one run line (`field`: where the second starts, 0-based).
    Joined,
    /// A grade that is not an integer in range.
    Grade,
    /// A score that is not a number.
    Score,
    /// No data line at all.
    Empty,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Columns => "columns",
            ErrorKind::Hidden => "hidden",
            ErrorKind::Joined => "joined",
            ErrorKind::Grade => "grade",
            ErrorKind::Score => "score",
            ErrorKind::Empty => "empty",
        }
    }
}

/// The first problem of a text: its kind, its 1-based line (0 for [`ErrorKind::Empty`]),
/// the line's bytes `start..end` and the 0-based field concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub kind: ErrorKind,
    pub line: u64,
    pub start: usize,
    pub end: usize,
    pub field: usize,
}

/// How the lines of a text were used (`cranfield.data.LineCounts`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub lines: u64,
    pub data: u64,
    pub comments: u64,
    pub blank: u64,
    pub extra: u64,
    pub first_extra: Option<u64>,
}

impl Counts {
    /// The counts of a text followed by those of the next piece of it (`next`, its lines
    /// numbered from 1): the lines added up, the first extra-column line numbered on.
    pub fn then(&mut self, next: &Counts) {
        if self.first_extra.is_none() {
            self.first_extra = next.first_extra.map(|l| self.lines + l);
        }
        self.lines += next.lines;
        self.data += next.data;
        self.comments += next.comments;
        self.blank += next.blank;
        self.extra += next.extra;
    }
}

/// FxHash (rustc's): ids are short, and a run's ids are not chosen by an adversary of the
/// process reading them (a collision costs time, never a wrong answer).
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // the last 1-7 bytes as one word (zeros after them): one step, not one per byte
            self.add(crate::words::le_word(rest));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Distinct byte strings, each given a code in order of first appearance.
#[derive(Default)]
pub struct Interner<'a> {
    map: FxMap<&'a [u8], u32>,
    pub ids: Vec<&'a [u8]>,
}

impl<'a> Interner<'a> {
    #[inline]
    pub fn code(&mut self, id: &'a [u8]) -> u32 {
        let next = self.ids.len() as u32;
        let code = *self.map.entry(id).or_insert(next);
        if code == next {
            self.ids.push(id);
        }
        code
    }
}

/// Ids interned with a shortcut for the common case of runs and qrels: the same id as on
/// the previous line (query ids come in blocks).
struct BlockInterner<'a> {
    inner: Interner<'a>,
    last: Option<(&'a [u8], u32)>,
}

impl<'a> BlockInterner<'a> {
    fn new() -> Self {
        BlockInterner {
            inner: Interner::default(),
            last: None,
        }
    }
    #[inline]
    fn code(&mut self, id: &'a [u8]) -> u32 {
        if let Some((prev, code)) = self.last
            && prev == id
        {
            return code;
        }
        let code = self.inner.code(id);
        self.last = Some((id, code));
        code
    }
}

/// C `isspace` in the "C" locale: space, tab, LF, VT, FF, CR.
const SPACE: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[0x0b] = true;
    t[0x0c] = true;
    t[b'\r' as usize] = true;
    t
};

#[inline]
fn is_space(b: u8) -> bool {
    SPACE[b as usize]
}

/// The fields of the line of `data` that starts at `start` (its bytes up to the next LF, or
/// the end), as (start, end) offsets in `data`: the runs of bytes between [`is_space`] bytes;
/// and where the line ends (its LF, or the end).  Eight bytes at a time, the line's end
/// found in the same walk: only the bytes below 0x21 (LF and every other space is one; so
/// are the other C0 controls, which stay in their field) are looked at one by one
/// ([`below_0x21`]).
#[inline]
fn split_line(data: &[u8], start: usize, out: &mut Vec<(usize, usize)>) -> usize {
    out.clear();
    let mut field = start; // where the field after the last space starts
    // a byte below 0x21 at `p`: the line's end (its LF), or the end of a field
    let mut at = |p: usize, out: &mut Vec<(usize, usize)>| {
        let b = data[p];
        if is_space(b) {
            if field < p {
                out.push((field, p));
            }
            field = p + 1;
        }
        b == b'\n'
    };
    let mut i = start;
    while let Some(w) = data.get(i..i + 8) {
        let mut m = below_0x21(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        while m != 0 {
            let p = i + (m.trailing_zeros() / 8) as usize;
            if at(p, out) {
                return p;
            }
            m &= m - 1;
        }
        i += 8;
    }
    for (p, &b) in data.iter().enumerate().skip(i) {
        if b < 0x21 && at(p, out) {
            return p;
        }
    }
    if field < data.len() {
        out.push((field, data.len()));
    }
    data.len()
}

/// The high bit of each byte of `w` that is below 0x21, the others 0: exact per byte, as no
/// sum carries into the next byte (0x7f + 0x5f < 0x100).
#[inline]
fn below_0x21(w: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let t = (w & LOW7) + 0x5f5f_5f5f_5f5f_5f5f; // a byte's high bit: its low 7 bits >= 0x21
    !(t | w) & HIGH
}

struct Tokens<'d, 'f> {
    data: &'d [u8],
    fields: &'f [(usize, usize)],
}

impl<'d> Tokens<'d, '_> {
    #[inline]
    fn get(&self, k: usize) -> &'d [u8] {
        let (s, e) = self.fields[k];
        &self.data[s..e]
    }
    /// Field `k`'s bytes `start..end` in the text.
    #[inline]
    fn span(&self, k: usize) -> (usize, usize) {
        self.fields[k]
    }
    fn len(&self) -> usize {
        self.fields.len()
    }
    /// Whether fields `k..k + 6` have the shape of a result (an integer rank, a score).
    fn result_at(&self, k: usize) -> bool {
        is_int(self.get(k + 3)) && is_score(self.get(k + 4))
    }
    /// Where a second result starts on a run line (`text._joined_at`).
    fn joined_at(&self) -> Option<usize> {
        let n = self.len();
        (RUN_FIELDS - 1..(n + 1).saturating_sub(RUN_FIELDS))
            .find(|&k| self.get(k + 1) == self.get(1) && self.result_at(k))
    }
    /// Whether a comment line has the whole shape of a data line (`text._hidden_result`).
    fn hidden(&self, run: bool) -> bool {
        if run {
            self.len() >= RUN_FIELDS && self.result_at(0)
        } else {
            self.len() == QRELS_FIELDS && is_int(self.get(3))
        }
    }
}

/// A data line: its number, its bytes `start..end` in the text, and its fields.
struct DataLine<'d, 'f> {
    line: u64,
    start: usize,
    end: usize,
    fields: Tokens<'d, 'f>,
}

impl DataLine<'_, '_> {
    fn error(&self, kind: ErrorKind, field: usize) -> ParseError {
        ParseError {
            kind,
            line: self.line,
            start: self.start,
            end: self.end,
            field,
        }
    }
}

/// The one line classifier of qrels and runs: each line of `data` is counted in `counts` as
/// blank, a comment (an error when it hides a data line: `run` says which shape) or data,
/// handed to `each`; no data line at all is [`ErrorKind::Empty`].
fn data_lines<'d>(
    data: &'d [u8],
    run: bool,
    counts: &mut Counts,
    each: impl FnMut(&DataLine<'d, '_>) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    each_data_line(data, run, counts, each)?;
    if counts.data == 0 {
        return Err(ParseError {
            kind: ErrorKind::Empty,
            line: 0,
            start: 0,
            end: 0,
            field: 0,
        });
    }
    Ok(())
}

/// [`data_lines`] for a piece of a text (no data line is not an error there); `each` may
/// stop the walk with an error of its own.
fn each_data_line<'d, E: From<ParseError>>(
    data: &'d [u8],
    run: bool,
    counts: &mut Counts,
    mut each: impl FnMut(&DataLine<'d, '_>) -> Result<(), E>,
) -> Result<(), E> {
    let mut fields = Vec::with_capacity(8);
    // the lines: (1-based number, start, end) of each, without its LF; a final LF ends the
    // last line (no empty line after it); an empty text is one empty line
    let (mut next, mut line) = (0usize, 0u64);
    while next < data.len() || (next == data.len() && (line == 0 || data[next - 1] != b'\n')) {
        let start = next;
        let end = split_line(data, start, &mut fields);
        next = end + 1;
        line += 1;
        counts.lines = line;
        let d = DataLine {
            line,
            start,
            end,
            fields: Tokens {
                data,
                fields: &fields,
            },
        };
        let f = &d.fields;
        if f.len() == 0 {
            counts.blank += 1;
            continue;
        }
        if f.get(0)[0] == b'#' {
            if f.hidden(run) {
                return Err(d.error(ErrorKind::Hidden, 0).into());
            }
            counts.comments += 1;
            continue;
        }
        counts.data += 1;
        each(&d)?;
    }
    Ok(())
}

/// Line numbers of the rows, kept only once a row's line is not its row number + 1.
#[derive(Default)]
pub struct RowLines {
    pub lines: Option<Vec<i64>>,
}

impl RowLines {
    #[inline]
    fn push(&mut self, row: usize, line: u64) {
        match &mut self.lines {
            Some(v) => v.push(line as i64),
            None if line == row as u64 + 1 => {}
            None => {
                let mut v: Vec<i64> = (1..=row as i64).collect();
                v.push(line as i64);
                self.lines = Some(v);
            }
        }
    }
}

/// A run read: rows in file order.
pub struct RunColumns<'a> {
    /// Distinct query ids, in order of first appearance.
    pub query_ids: Vec<&'a [u8]>,
    pub qcodes: Vec<i32>,
    /// The documents, as an Arrow string column: row `i` is `doc_bytes[doc_offsets[i]..
    /// doc_offsets[i + 1]]`.
    pub doc_offsets: Vec<i64>,
    pub doc_bytes: Vec<u8>,
    pub scores: Vec<f64>,
    /// The ranks of the rows before the first that is not an integer in range.
    pub ranks: Vec<i64>,
    /// (line, token) of the first rank that is not an integer in range.
    pub rank_problem: Option<(u64, &'a [u8])>,
    pub tag: &'a [u8],
    pub lines: RowLines,
    pub counts: Counts,
}

/// The score of a run data line, after its shape is checked (six fields or more, not two
/// results joined); a line of more than six fields is counted in `extra` (how many, the first).
#[inline]
fn run_line(d: &DataLine<'_, '_>, extra: &mut (u64, Option<u64>)) -> Result<f64, ParseError> {
    let f = &d.fields;
    if f.len() != RUN_FIELDS {
        if f.len() < RUN_FIELDS {
            return Err(d.error(ErrorKind::Columns, 0));
        }
        if f.len() >= JOINED_FIELDS
            && let Some(k) = f.joined_at()
        {
            return Err(d.error(ErrorKind::Joined, k));
        }
        extra.0 += 1;
        extra.1.get_or_insert(d.line);
    }
    parse_score(f.get(4)).ok_or_else(|| d.error(ErrorKind::Score, 4))
}

/// One result of a run: its query, document, score and tag.
pub struct RunRow<'d> {
    pub query: &'d [u8],
    pub doc: &'d [u8],
    pub score: f64,
    pub tag: &'d [u8],
}

/// The results of a piece of a run text (whole lines), handed to `each` in file order, with
/// the rules of [`read_run`] (no result in the piece is not an error); `counts` counts its
/// lines.
pub fn each_run_row<'d, E: From<ParseError>>(
    data: &'d [u8],
    counts: &mut Counts,
    mut each: impl FnMut(RunRow<'d>) -> Result<(), E>,
) -> Result<(), E> {
    let mut extra = (0u64, None);
    let walked = each_data_line(data, true, counts, |d| {
        let score = run_line(d, &mut extra)?;
        let f = &d.fields;
        each(RunRow {
            query: f.get(0),
            doc: f.get(2),
            score,
            tag: f.get(5),
        })
    });
    (counts.extra, counts.first_extra) = extra;
    walked
}

/// Read a TREC run.
pub fn read_run(data: &[u8]) -> Result<RunColumns<'_>, ParseError> {
    let guess = data.len() / 40 + 1;
    let mut queries = BlockInterner::new();
    let mut qcodes = Vec::with_capacity(guess);
    let mut doc_offsets = Vec::with_capacity(guess + 1);
    doc_offsets.push(0i64);
    let mut doc_bytes = Vec::with_capacity(data.len() / 4);
    let mut scores = Vec::with_capacity(guess);
    let mut ranks = Vec::with_capacity(guess);
    let mut rank_problem = None;
    let mut tag: &[u8] = b"";
    let mut row_lines = RowLines::default();
    let mut counts = Counts::default();
    let mut extra = (0u64, None);
    data_lines(data, true, &mut counts, |d| {
        let (f, line) = (&d.fields, d.line);
        let score = run_line(d, &mut extra)?;
        let row = qcodes.len();
        qcodes.push(queries.code(f.get(0)) as i32);
        doc_bytes.extend_from_slice(f.get(2));
        doc_offsets.push(doc_bytes.len() as i64);
        scores.push(score);
        if rank_problem.is_none() {
            match parse_int(f.get(3)) {
                Some(r) => ranks.push(r),
                None => rank_problem = Some((line, f.get(3))),
            }
        }
        row_lines.push(row, line);
        tag = f.get(5);
        Ok(())
    })?;
    (counts.extra, counts.first_extra) = extra;
    Ok(RunColumns {
        query_ids: queries.inner.ids,
        qcodes,
        doc_offsets,
        doc_bytes,
        scores,
        ranks,
        rank_problem,
        tag,
        lines: row_lines,
        counts,
    })
}

/// Qrels read, in the order of `cranfield.data.Qrels`: by query id, then document id, both
/// in byte order (stable: duplicates stay in file order).
pub struct QrelsColumns<'a> {
    /// Distinct query ids, sorted.
    pub query_ids: Vec<&'a [u8]>,
    /// Rows of query `i` are `offsets[i]..offsets[i + 1]`.
    pub offsets: Vec<i64>,
    /// The text, and where each row's document id starts in it ([`Self::doc`]: the id is the
    /// field that starts there; 4 bytes a row, not a slice's 16; a qrels text of 4 GiB or more
    /// is an internal error).
    data: &'a [u8],
    docs: Vec<u32>,
    pub grades: Vec<i64>,
    /// Each row's line (32 bits: a qrels of 2**32 lines or more is an internal error), or
    /// `None` where each row's line is its row + 1 (a text in order with no comment or blank
    /// line; a text not in order, or with such a line, never has every line its row + 1).
    pub lines: Option<Vec<u32>>,
    pub counts: Counts,
}

impl<'a> QrelsColumns<'a> {
    /// How many judgments (rows) there are.
    pub fn rows(&self) -> usize {
        self.docs.len()
    }

    /// Row `r`'s document id.
    #[inline]
    pub fn doc(&self, r: usize) -> &'a [u8] {
        field_at(self.data, self.docs[r] as usize)
    }

    /// Every row's document id.
    pub fn doc_ids(&self) -> Vec<&'a [u8]> {
        (0..self.rows()).map(|r| self.doc(r)).collect()
    }

    /// The documents' places let go of, once their ids are copied (no row is left).
    pub fn free_docs(&mut self) {
        self.docs = Vec::new();
    }

    /// Whether a query judges one document twice (its rows are sorted: the two are adjacent).
    pub fn has_duplicate(&self) -> bool {
        self.offsets
            .windows(2)
            .any(|w| (w[0] as usize + 1..w[1] as usize).any(|r| self.doc(r - 1) == self.doc(r)))
    }
}

/// The field of `data` that starts at `start`: its bytes up to the next space or the end.
#[inline]
fn field_at(data: &[u8], start: usize) -> &[u8] {
    let rest = &data[start..];
    let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
    &rest[..len]
}

/// A place in a qrels text (32 bits: [`QrelsColumns`]).
fn text_place(at: usize) -> u32 {
    u32::try_from(at).expect("a qrels text of 4 GiB or more")
}

/// Read TREC qrels.
pub fn read_qrels(data: &[u8]) -> Result<QrelsColumns<'_>, ParseError> {
    let mut queries = BlockInterner::new();
    // the columns made at their size (at most one row a line), as `judge::Grades::of`
    let guess = memchr::memchr_iter(b'\n', data).count() + 1;
    let mut qcodes: Vec<u32> = Vec::with_capacity(guess);
    let mut docs: Vec<u32> = Vec::with_capacity(guess);
    let mut grades = Vec::with_capacity(guess);
    let mut lines_of: Option<Vec<u32>> = None; // kept once a row's line is not its row + 1
    let mut counts = Counts::default();
    data_lines(data, false, &mut counts, |d| {
        let f = &d.fields;
        if f.len() != QRELS_FIELDS {
            return Err(d.error(ErrorKind::Columns, 0));
        }
        let Some(grade) = parse_int(f.get(3)) else {
            return Err(d.error(ErrorKind::Grade, 3));
        };
        let row = qcodes.len();
        qcodes.push(queries.code(f.get(0)));
        docs.push(text_place(f.span(2).0));
        grades.push(grade);
        let line = u32::try_from(d.line).expect("a qrels text of 2**32 lines or more");
        match &mut lines_of {
            Some(v) => v.push(line),
            None if line as usize == row + 1 => {}
            None => lines_of = Some((1..=row as u32).chain([line]).collect()),
        }
        Ok(())
    })?;
    let qids = queries.inner.ids;
    let qrank = byte_ranks(&qids);
    let doc = |r: usize| field_at(data, docs[r] as usize);
    let key = |r: usize| (qrank[qcodes[r] as usize], doc(r));
    let mut offsets = vec![0i64; qids.len() + 1];
    for &c in &qcodes {
        offsets[qrank[c as usize] as usize + 1] += 1;
    }
    for i in 1..offsets.len() {
        offsets[i] += offsets[i - 1];
    }
    let mut sorted_q: Vec<&[u8]> = qids.clone();
    sorted_q.sort_unstable();
    // qrels files are most often sorted already: then the rows stay as they are
    if (1..qcodes.len()).all(|r| key(r - 1) <= key(r)) {
        return Ok(QrelsColumns {
            query_ids: sorted_q,
            offsets,
            data,
            docs,
            grades,
            lines: lines_of,
            counts,
        });
    }
    // rows put in query order by a counting sort (stable), then each query's rows sorted by
    // document (stable: rows of one (query, document) stay in file order), the queries on all
    // of this process's threads
    let mut next: Vec<usize> = offsets[..qids.len()].iter().map(|&o| o as usize).collect();
    let mut order = vec![0u32; qcodes.len()];
    for (r, &c) in qcodes.iter().enumerate() {
        let q = qrank[c as usize] as usize;
        order[next[q]] = r as u32;
        next[q] += 1;
    }
    let mut segments: Vec<&mut [u32]> = Vec::with_capacity(qids.len());
    let mut rest: &mut [u32] = &mut order;
    for w in offsets.windows(2) {
        let (segment, tail) = rest.split_at_mut((w[1] - w[0]) as usize);
        segments.push(segment);
        rest = tail;
    }
    let by_doc = |segment: &mut &mut [u32]| {
        // each row keyed by its document's first 8 bytes, and its row (rows of one query are
        // in file order here: the sort is stable); the bytes compared only where the keys tie
        let mut keyed: Vec<(u64, u32)> = segment
            .iter()
            .map(|&r| (prefix(doc(r as usize)), r))
            .collect();
        let order = |x: &(u64, u32), y: &(u64, u32)| {
            x.0.cmp(&y.0)
                .then_with(|| doc(x.1 as usize).cmp(doc(y.1 as usize)))
                .then(x.1.cmp(&y.1))
        };
        if !keyed.is_sorted_by(|x, y| order(x, y).is_le()) {
            keyed.sort_unstable_by(order);
            for (row, k) in segment.iter_mut().zip(&keyed) {
                *row = k.1;
            }
        }
    };
    let threads = if qcodes.len() >= 1 << 16 {
        crate::threads::available()
    } else {
        1
    };
    crate::threads::for_each_mut(&mut segments, threads, by_doc);
    // each column put in order with its old copy freed before the next (the peak memory of
    // a large qrels read: one column twice, not all of them)
    drop(qcodes);
    let docs = in_order(docs, &order);
    let grades = in_order(grades, &order);
    let lines = match lines_of {
        Some(v) => in_order(v, &order),
        None => {
            // row r's line is the file row it came from, + 1: the order itself, made lines
            for o in &mut order {
                *o += 1;
            }
            order
        }
    };
    Ok(QrelsColumns {
        query_ids: sorted_q,
        offsets,
        data,
        docs,
        grades,
        lines: Some(lines),
        counts,
    })
}

/// `column` in `order` (its rows), the old copy freed before the next column is put in order.
fn in_order<T: Copy>(column: Vec<T>, order: &[u32]) -> Vec<T> {
    order.iter().map(|&r| column[r as usize]).collect()
}

/// The rank of each (distinct) id among all in byte order.
fn byte_ranks(ids: &[&[u8]]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..ids.len() as u32).collect();
    order.sort_unstable_by_key(|&i| ids[i as usize]);
    let mut rank = vec![0u32; ids.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_0x21_marks_exactly_the_low_bytes_in_every_position() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                // the byte among neighbours at both extremes (a carry would show in them)
                for fill in [0u8, 0x20, 0x21, 0x7f, 0x80, 0xff] {
                    let mut w = [fill; 8];
                    w[pos] = b;
                    let m = below_0x21(u64::from_le_bytes(w));
                    for (k, &x) in w.iter().enumerate() {
                        let marked = m >> (8 * k + 7) & 1 == 1;
                        assert_eq!(marked, x < 0x21, "{w:?} byte {k}");
                    }
                    assert_eq!(m & !0x8080_8080_8080_8080, 0);
                }
            }
        }
    }

    #[test]
    fn split_line_finds_the_fields_and_end_a_byte_by_byte_walk_finds() {
        // texts of 0-90 bytes over LF, the other spaces, other controls, ASCII and bytes >=
        // 0x80: every line's fields and end, walked one byte at a time
        let alphabet = [
            b'\n', b' ', b'\t', 0x0b, 0x0c, b'\r', 0x01, 0x1f, 0x20, 0x21, b'a', 0x7f, 0x80, 0xc2,
            0xff,
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut out = Vec::new();
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 91) as usize;
            let text: Vec<u8> = (0..len)
                .map(|k| alphabet[((x >> (k % 50)) as usize + k * 7) % alphabet.len()])
                .collect();
            let mut start = 0;
            loop {
                let end = text[start..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |p| start + p);
                let mut want = Vec::new();
                let mut field = None;
                for (k, &b) in text.iter().enumerate().take(end).skip(start) {
                    match (is_space(b), field) {
                        (true, Some(f)) => {
                            want.push((f, k));
                            field = None;
                        }
                        (false, None) => field = Some(k),
                        _ => {}
                    }
                }
                if let Some(f) = field {
                    want.push((f, end));
                }
                assert_eq!(
                    split_line(&text, start, &mut out),
                    end,
                    "{text:?} from {start}"
                );
                assert_eq!(out, want, "{text:?} from {start}");
                if end == text.len() {
                    break;
                }
                start = end + 1;
            }
        }
    }

    #[test]
    fn unequal_prefixes_order_ids_as_their_bytes() {
        // every id of up to 9 bytes over an alphabet with the extremes (0x00, 0xff) and a
        // middle byte: where the prefixes differ, they agree with the byte order
        let alphabet = [0u8, b'5', 0xff];
        let mut ids: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=9usize {
            let n = alphabet.len().pow(len as u32);
            for mut k in 0..n {
                let mut id = Vec::with_capacity(len);
                for _ in 0..len {
                    id.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                ids.push(id);
            }
        }
        let sample: Vec<&[u8]> = ids.iter().step_by(7).map(Vec::as_slice).collect();
        let mut compared = 0;
        for a in &sample {
            for b in &sample {
                let (pa, pb) = (prefix(a), prefix(b));
                if pa != pb {
                    assert_eq!(pa.cmp(&pb), a.cmp(b), "{a:?} {b:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_000_000);
    }

    #[test]
    fn qrels_rows_are_put_in_document_byte_order_stably() {
        let text = b"q 0 d10 1\nq 0 d9 2\nq 0 d10 3\nq 0 d\xff 0\nq 0 d 4\nq 0 d1000000000 5\nq 0 d100000000 6\n";
        let q = read_qrels(text).unwrap();
        let docs: Vec<&[u8]> = q.doc_ids();
        let want: [&[u8]; 7] = [
            b"d",
            b"d10",
            b"d10",
            b"d100000000",
            b"d1000000000",
            b"d9",
            b"d\xff",
        ];
        assert_eq!(docs, want);
        assert_eq!(q.grades, vec![4, 1, 3, 6, 5, 2, 0]); // d10 judged twice: file order kept
        assert!(q.has_duplicate());
    }

    #[test]
    fn a_document_judged_twice_for_one_query_only() {
        // d1 ends q1's rows and starts q2's: adjacent, but not a duplicate
        let apart = read_qrels(b"q1 0 d0 1\nq1 0 d1 1\nq2 0 d1 0\nq2 0 d2 1\n").unwrap();
        assert!(!apart.has_duplicate());
        let twice = read_qrels(b"q2 0 d1 0\nq1 0 d1 1\nq2 0 d1 2\n").unwrap();
        assert!(twice.has_duplicate());
    }

    #[test]
    fn a_run_with_blank_comment_and_extra_lines() {
        let text = b"# a comment\nq1 Q0 d1 1 2.5 t\n\nq1 Q0 d2 x 1 t extra\r\nq2\tQ0 d1 1 -1e2 u\n";
        let run = read_run(text).unwrap();
        assert_eq!(run.query_ids, vec![&b"q1"[..], b"q2"]);
        assert_eq!(run.qcodes, vec![0, 0, 1]);
        assert_eq!(run.doc_bytes, b"d1d2d1");
        assert_eq!(run.doc_offsets, vec![0, 2, 4, 6]);
        assert_eq!(run.scores, vec![2.5, 1.0, -100.0]);
        assert_eq!(run.ranks, vec![1]);
        assert_eq!(run.rank_problem, Some((4, &b"x"[..])));
        assert_eq!(run.tag, b"u");
        assert_eq!(run.lines.lines, Some(vec![2, 4, 5]));
        let want = Counts {
            lines: 5,
            data: 3,
            comments: 1,
            blank: 1,
            extra: 1,
            first_extra: Some(4),
        };
        assert_eq!(run.counts, want);
    }

    #[test]
    fn line_counts_without_a_final_newline() {
        let run = read_run(b"q Q0 d 1 1 t\n\n  \nq Q0 e 2 0 t").unwrap();
        assert_eq!(run.counts.lines, 4);
        assert_eq!(run.counts.blank, 2);
        let run = read_run(b"q Q0 d 1 1 t\n\n").unwrap();
        assert_eq!((run.counts.lines, run.counts.blank), (2, 1));
        assert!(run.lines.lines.is_none());
    }

    fn error(r: Result<RunColumns<'_>, ParseError>) -> (ErrorKind, u64, usize) {
        let e = r.err().unwrap();
        (e.kind, e.line, e.field)
    }

    #[test]
    fn run_errors_name_the_line() {
        assert_eq!(
            error(read_run(b"q Q0 d 1 1 t\nq Q0 d 1 1\n")),
            (ErrorKind::Columns, 2, 0)
        );
        assert_eq!(error(read_run(b"q Q0 d 1 x t\n")), (ErrorKind::Score, 1, 4));
        assert_eq!(
            error(read_run(b"q Q0 d 1 1_0 t\n")),
            (ErrorKind::Score, 1, 4)
        );
        assert_eq!(
            error(read_run(b"#q Q0 d 1 1 t\n")),
            (ErrorKind::Hidden, 1, 0)
        );
        assert_eq!(
            error(read_run(b"q Q0 d 1 1 t q Q0 e 2 0 t\n")),
            (ErrorKind::Joined, 1, 6)
        );
        assert_eq!(error(read_run(b"# only\n\n")), (ErrorKind::Empty, 0, 0));
        // a comment without the shape of a result, a line whose extra fields are no result
        assert!(read_run(b"# q Q0 d x 1 t\nq Q0 d 1 1 t a Q0 b c 1 t\n").is_ok());
    }

    #[test]
    fn qrels_sorted_already_stay_as_they_are() {
        let q = read_qrels(b"a 0 x 1\na 0 y 0\nb 0 x 2\n").unwrap();
        assert_eq!(q.doc_ids(), vec![&b"x"[..], b"y", b"x"]);
        assert_eq!(q.offsets, vec![0, 2, 3]);
        assert_eq!(q.lines, None); // each row's line is its row + 1
        // a blank line: the lines are kept; the last id ends the text (no line end)
        let q = read_qrels(b"a 0 x 1\n\na\t0\ty\t0\nb 0 x\x0b2\nb 0 zz 2").unwrap();
        assert_eq!(q.lines, Some(vec![1, 3, 4, 5]));
        assert_eq!(q.doc_ids(), vec![&b"x"[..], b"y", b"x", b"zz"]);
    }

    #[test]
    fn qrels_put_in_order_have_the_lines_they_came_from() {
        // no comment or blank line: each row's line is the file row it came from, + 1
        let q = read_qrels(b"q2 0 b 1\nq10 0 z 0\nq10 0 a 2\nq2 0 a -1\n").unwrap();
        assert_eq!(q.doc_ids(), vec![&b"a"[..], b"z", b"a", b"b"]);
        assert_eq!(q.grades, vec![2, 0, -1, 1]);
        assert_eq!(q.lines, Some(vec![3, 2, 4, 1]));
    }

    #[test]
    fn qrels_sorted_by_bytes() {
        let text = b"q2 0 b 1\nq10 0 z 0\nq10 0 a 2\n# c\nq2 0 a -1\n";
        let q = read_qrels(text).unwrap();
        assert_eq!(q.query_ids, vec![&b"q10"[..], b"q2"]);
        assert_eq!(q.offsets, vec![0, 2, 4]);
        assert_eq!(q.doc_ids(), vec![&b"a"[..], b"z", b"a", b"b"]);
        assert_eq!(q.grades, vec![2, 0, -1, 1]);
        assert_eq!(q.lines, Some(vec![3, 2, 5, 1]));
        assert_eq!(q.counts.comments, 1);
    }

    #[test]
    fn qrels_errors() {
        let e = read_qrels(b"q 0 d 1\nq 0 d 1.5\n").err().unwrap();
        assert_eq!((e.kind, e.line, e.field), (ErrorKind::Grade, 2, 3));
        assert_eq!(&b"q 0 d 1\nq 0 d 1.5\n"[e.start..e.end], b"q 0 d 1.5");
        let e = read_qrels(b"q 0 d 1 x\n").err().unwrap();
        assert_eq!(e.kind, ErrorKind::Columns);
        let e = read_qrels(b"#q 0 d 1\n").err().unwrap();
        assert_eq!(e.kind, ErrorKind::Hidden);
        let e = read_qrels(b"q 0 d 99999999999999999999\n").err().unwrap();
        assert_eq!(e.kind, ErrorKind::Grade);
    }
}
