//! A run judged against its qrels: the join keyed by (query, document) and trec_eval's order.
//!
//! [`QrelsIndex`] holds each qrels query's judgments in a hash map of its documents, built
//! once per qrels; [`grades`] gives every ranked row its grade with one lookup in its query's
//! map (`cranfield.judging.rankings`' codes: the grade, [`NOT_IN_QRELS`] or [`UNJUDGED`]).
//! [`order_trec`] is the `trec` tie policy of `cranfield.judging.ordering`: the rows grouped
//! by segment (file order kept within one), then score descending, then document id
//! descending in byte (`strcmp`) order, with the tie group of each ranked row.

use std::cmp::Ordering;
use std::hash::Hasher;
use std::sync::OnceLock;

use crate::trec::FxHasher;

/// The grade of a ranked document the qrels do not list for its query.
pub const NOT_IN_QRELS: i64 = -1;
/// The grade of a ranked document the qrels list with a negative grade (pooled, not judged).
pub const UNJUDGED: i64 = -2;

/// The judgments of each qrels query, by document: the documents' bytes in one buffer and,
/// per query, an open-addressing table of its rows (no allocation per judgment: a qrels of
/// 10 million judgments is about 25 bytes a judgment, built in one pass).
pub struct QrelsIndex {
    /// Row `r`'s document is `arena[bounds[r]..bounds[r + 1]]` (`bounds` ascending from 0).
    arena: Vec<u8>,
    bounds: Vec<u32>,
    grades: Grades,
    /// Query `q` judges rows `firsts[q]..firsts[q + 1]`.
    firsts: Vec<u32>,
    /// The lookup tables, made on the first lookup ([`Tables`]): a qrels the core reads is
    /// indexed before its text is let go of, and the tables then need not share the memory
    /// of that peak.
    tables: OnceLock<Tables>,
}

/// Query `q`'s table is `slots[starts[q]..starts[q + 1]]` (a power of two slots, or none),
/// open addressing: a slot holds the row counted from the query's first, + 1, or 0 when
/// empty, as its query's [`Kind`] says (16-bit units: half the memory of a row number, 26 MB
/// instead of 51 for the 5.5M judgments of 100,000 queries).
struct Tables {
    starts: Vec<usize>,
    slots: Vec<u16>,
}

/// How a query's table holds a slot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Fewer than [`TINY`] judgments: one unit, the row + 1 in its low byte and a byte of the
    /// document's hash ([`tag`]) in its high byte, so that a document the query does not
    /// judge is told apart without its bytes compared (but once in 256).
    Tiny,
    /// Fewer than [`WIDE`] judgments: one unit, the row + 1.
    Narrow,
    /// Two units, the row + 1.
    Wide,
}

/// A query of fewer judgments than this has [`Kind::Tiny`] slots (the row + 1 in a byte).
const TINY: usize = u8::MAX as usize;
/// A query of this many judgments or more has [`Kind::Wide`] slots.
const WIDE: usize = u16::MAX as usize;

/// The byte of a document's hash a [`Kind::Tiny`] slot keeps: bits the probe does not start
/// from (it takes the top ones; a table has at most 512 slots), of the well-mixed high half.
#[inline]
fn tag(hash: u64) -> u16 {
    ((hash >> 40) & 0xff) as u16
}

impl Kind {
    fn of(judgments: usize) -> Kind {
        if judgments < TINY {
            Kind::Tiny
        } else if judgments < WIDE {
            Kind::Narrow
        } else {
            Kind::Wide
        }
    }

    fn units(self) -> usize {
        if self == Kind::Wide { 2 } else { 1 }
    }

    /// Slot `i` of `slots`: (the row + 1, or 0 when empty; its tag, or 0 but for tiny).
    #[inline]
    fn get(self, slots: &[u16], i: usize) -> (usize, u16) {
        match self {
            Kind::Tiny => (usize::from(slots[i] & 0xff), slots[i] >> 8),
            Kind::Narrow => (usize::from(slots[i]), 0),
            Kind::Wide => (
                usize::from(slots[2 * i]) | usize::from(slots[2 * i + 1]) << 16,
                0,
            ),
        }
    }

    /// Slot `i` of `slots` made to hold the row `k` (counted from the query's first), whose
    /// document's hash is `hash`.
    fn put(self, slots: &mut [u16], i: usize, k: usize, hash: u64) {
        let v = k + 1;
        match self {
            Kind::Tiny => slots[i] = v as u16 | tag(hash) << 8,
            Kind::Narrow => slots[i] = v as u16,
            Kind::Wide => {
                slots[2 * i] = v as u16;
                slots[2 * i + 1] = (v >> 16) as u16;
            }
        }
    }

    /// Whether slot tag `t` may hold a document of hash `hash`.
    #[inline]
    fn may_hold(self, t: u16, hash: u64) -> bool {
        self != Kind::Tiny || t == tag(hash)
    }
}

/// One query's table ([`QrelsIndex::table`]): its slots, a power of two of them.
pub struct Table<'a> {
    index: &'a QrelsIndex,
    slots: &'a [u16],
    first: usize,
    kind: Kind,
    size: usize,
}

impl Table<'_> {
    /// The row of the query's judgment of `doc`, whose [`hash_of`] is `hash`, if any.
    #[inline]
    pub fn row(&self, doc: &[u8], hash: u64) -> Option<usize> {
        if self.size == 0 {
            return None;
        }
        let mut i = QrelsIndex::probe(self.size, hash);
        loop {
            match self.kind.get(self.slots, i) {
                (0, _) => return None,
                (v, t)
                    if self.kind.may_hold(t, hash) && self.index.doc(self.first + v - 1) == doc =>
                {
                    return Some(self.first + v - 1);
                }
                _ => i = (i + 1) & (self.size - 1),
            }
        }
    }

    /// The grade of the query's judgment of `doc` (of hash `hash`), if any.
    #[inline]
    pub fn grade(&self, doc: &[u8], hash: u64) -> Option<i64> {
        self.row(doc, hash).map(|r| self.index.grades.get(r))
    }
}

/// The judgments' grades: 32 bits each when every one fits (grades are small integers, so
/// nearly always), else 64 (the memory of a large qrels' index).
enum Grades {
    Narrow(Vec<i32>),
    Wide(Vec<i64>),
}

impl Grades {
    fn of(grades: &[i64]) -> Self {
        if grades.iter().any(|&g| i32::try_from(g).is_err()) {
            return Grades::Wide(grades.to_vec());
        }
        // made at its size (a vector grown by doubling leaves its smaller copies as holes
        // in the C heap, which count in the process's memory)
        let mut narrow = Vec::with_capacity(grades.len());
        narrow.extend(grades.iter().map(|&g| g as i32));
        Grades::Narrow(narrow)
    }

    #[inline]
    fn get(&self, r: usize) -> i64 {
        match self {
            Grades::Narrow(v) => i64::from(v[r]),
            Grades::Wide(v) => v[r],
        }
    }
}

/// The documents `doc(r)` of rows `0..rows` joined into one buffer, and their bounds (row
/// `r`'s is `buffer[bounds[r]..bounds[r + 1]]`), as [`QrelsIndex::of_joined`] keeps them
/// (32-bit bounds: 4 GiB of judged document ids or more is an internal error).
pub fn joined<'a>(rows: usize, doc: impl Fn(usize) -> &'a [u8]) -> (Vec<u8>, Vec<u32>) {
    // made at its size, as [`Grades::of`]
    let mut arena = Vec::with_capacity((0..rows).map(|r| doc(r).len()).sum());
    let mut bounds = Vec::with_capacity(rows + 1);
    bounds.push(0);
    for r in 0..rows {
        arena.extend_from_slice(doc(r));
        bounds.push(u32::try_from(arena.len()).expect("4 GiB or more of judged document ids"));
    }
    (arena, bounds)
}

/// The hash of an id (FxHash; its high bits are the best mixed): the one
/// [`Table::grade`] takes.
#[inline]
pub fn hash_of(id: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(id);
    h.finish()
}

impl QrelsIndex {
    /// The qrels' query `q` judges documents `doc(r)` for `r` in `offsets[q]..offsets[q + 1]`
    /// with `grades[r]`; a document judged twice for one query keeps its first grade.  (More
    /// than 2**32 - 2 judgments, or their documents' 4 GiB or more, are not indexed: an
    /// internal error.)
    pub fn new<'a>(offsets: &[i64], doc: impl Fn(usize) -> &'a [u8], grades: &[i64]) -> Self {
        let rows = offsets.last().map_or(0, |&n| n as usize);
        let (arena, bounds) = joined(rows, doc);
        Self::of_joined(offsets, arena, bounds, grades)
    }

    /// [`Self::new`] of documents already joined: row `r`'s is `arena[bounds[r]..bounds[r +
    /// 1]]` (`bounds` ascending from 0, one more than the rows; kept, not copied).
    pub fn of_joined(offsets: &[i64], arena: Vec<u8>, bounds: Vec<u32>, grades: &[i64]) -> Self {
        let rows = offsets.last().map_or(0, |&n| n as usize);
        assert!(rows < u32::MAX as usize, "more than 2**32 - 2 judgments");
        assert!(
            bounds.len() == rows + 1
                && bounds.first() == Some(&0)
                && bounds.windows(2).all(|w| w[0] <= w[1])
                && bounds.last().is_some_and(|&b| b as usize == arena.len()),
            "the documents' bounds do not fit the joined documents"
        );
        let mut firsts = Vec::with_capacity(offsets.len().max(1));
        firsts.push(offsets.first().map_or(0, |&a| a as u32));
        firsts.extend(offsets.iter().skip(1).map(|&b| b as u32));
        QrelsIndex {
            arena,
            bounds,
            grades: Grades::of(&grades[..rows]),
            firsts,
            tables: OnceLock::new(),
        }
    }

    /// The lookup tables, made on first use.
    #[inline]
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(|| self.make_tables())
    }

    /// Make the lookup tables now, if they are not made yet (before worker processes are
    /// forked, which then share them instead of each making its own).
    pub fn prepare(&self) {
        self.tables();
    }

    /// Whether the lookup tables are made.
    pub fn prepared(&self) -> bool {
        self.tables.get().is_some()
    }

    fn make_tables(&self) -> Tables {
        let mut t = Tables {
            starts: Vec::with_capacity(self.firsts.len()),
            slots: Vec::new(),
        };
        t.starts.push(0);
        for q in 0..self.num_queries() {
            let (a, b) = (self.firsts[q] as usize, self.firsts[q + 1] as usize);
            let n = b.saturating_sub(a);
            let size = if n == 0 {
                0
            } else {
                (2 * n).next_power_of_two()
            };
            let kind = Kind::of(n);
            let start = t.slots.len();
            t.slots.resize(start + kind.units() * size, 0);
            t.starts.push(t.slots.len());
            let slots = &mut t.slots[start..];
            for r in a..b {
                let d = self.doc(r);
                let hash = hash_of(d);
                let mut i = Self::probe(size, hash);
                loop {
                    match kind.get(slots, i) {
                        (0, _) => {
                            kind.put(slots, i, r - a, hash);
                            break;
                        }
                        // judged twice: the first grade stands
                        (v, t) if kind.may_hold(t, hash) && self.doc(a + v - 1) == d => break,
                        _ => i = (i + 1) & (size - 1),
                    }
                }
            }
        }
        t
    }

    /// Query `q`'s table (`None`: no such query).
    #[inline]
    pub fn table(&self, q: usize) -> Option<Table<'_>> {
        if q >= self.num_queries() {
            return None;
        }
        let t = self.tables();
        let (first, n) = (
            self.firsts[q] as usize,
            (self.firsts[q + 1] - self.firsts[q]) as usize,
        );
        let kind = Kind::of(n);
        let slots = &t.slots[t.starts[q]..t.starts[q + 1]];
        Some(Table {
            index: self,
            slots,
            first,
            kind,
            size: slots.len() / kind.units(),
        })
    }

    /// Row `r`'s document.
    #[inline]
    pub fn doc(&self, r: usize) -> &[u8] {
        &self.arena[self.bounds[r] as usize..self.bounds[r + 1] as usize]
    }

    /// How many judgments the index holds.
    pub fn rows(&self) -> usize {
        self.bounds.len() - 1
    }

    /// Where a document of hash `hash` starts its probe in a table of `size` slots (a power
    /// of two).
    #[inline]
    fn probe(size: usize, hash: u64) -> usize {
        let bits = size.trailing_zeros();
        if bits == 0 {
            0
        } else {
            (hash >> (64 - bits)) as usize
        }
    }

    pub fn num_queries(&self) -> usize {
        self.firsts.len() - 1
    }

    /// The judged grade of (`query`, `doc`), if any.
    #[inline]
    pub fn grade(&self, query: usize, doc: &[u8]) -> Option<i64> {
        self.table(query)?.grade(doc, hash_of(doc))
    }
}

/// The grade code of each ranked row: rows `offsets[s]..offsets[s + 1]` of `rows` (run rows)
/// are segment `s`, judged by the qrels query `query_of_segment[s]` (< 0: none); `doc(r)` is
/// run row `r`'s document.
pub fn grades<'a>(
    index: &QrelsIndex,
    query_of_segment: &[i64],
    offsets: &[i64],
    rows: &[i64],
    doc: impl Fn(usize) -> &'a [u8],
) -> Vec<i64> {
    let mut out = vec![NOT_IN_QRELS; rows.len()];
    for (s, w) in offsets.windows(2).enumerate() {
        let Ok(q) = usize::try_from(query_of_segment[s]) else {
            continue;
        };
        for k in w[0] as usize..w[1] as usize {
            if let Some(g) = index.grade(q, doc(rows[k] as usize)) {
                out[k] = if g < 0 { UNJUDGED } else { g };
            }
        }
    }
    out
}

/// Run rows in rank order, as `cranfield.judging.ordering.Ordering` holds them.
#[derive(Debug, PartialEq)]
pub struct Ordered {
    /// Run rows, grouped by segment, in rank order.
    pub rows: Vec<i64>,
    /// Rows per segment.
    pub lengths: Vec<i64>,
    /// The tie group of each ranked row (non-decreasing, unique across segments).
    pub tie_ids: Vec<i64>,
    /// `rows` is every run row in file order.
    pub identity: bool,
}

/// Score descending (equal scores compare equal, -0.0 == 0.0 as in numpy; a NaN after every
/// number).
#[inline]
fn score_cmp(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
    }
}

/// A score as an integer in [`score_cmp`]'s order: higher scores first, -0.0 the same as
/// 0.0, every NaN the same and after every number.  The bits of a double, the sign bit
/// flipped for a positive one and every bit for a negative one, order the doubles as
/// numbers; that order, reversed, is the key.
#[inline]
pub(crate) fn descending_key(score: f64) -> u64 {
    if score.is_nan() {
        return u64::MAX;
    }
    let bits = (score + 0.0).to_bits(); // -0.0 + 0.0 is 0.0
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    !ascending
}

/// The first 8 bytes of an id as a big-endian integer (zeros after a shorter id): ids whose
/// prefixes differ are in the order of their prefixes (the first differing byte decides, and
/// a padding zero stands only where the shorter id has ended, a prefix of the other).
#[inline]
pub(crate) fn prefix(id: &[u8]) -> u64 {
    crate::words::be_prefix(id)
}

/// Whether two adjacent ranked scores start a new tie group (numpy's `!=`: a NaN always does).
#[inline]
fn differ(a: f64, b: f64) -> bool {
    #[allow(clippy::float_cmp)]
    let same = a == b;
    !same
}

/// The rows `seg` of one query put in `trec` rank order: by score (a stable sort, only where
/// the given order is not it), then each tie group by document id descending (sorted only
/// where it is not in that order); `keyed` is scratch space.  Whether any row moved.
pub fn rank_segment<'a>(
    seg: &mut [i64],
    scores: &[f64],
    doc: &impl Fn(usize) -> &'a [u8],
    keyed: &mut Vec<(u64, i64)>,
) -> bool {
    let mut moved = rank_by_score(seg, scores, keyed);
    let mut k = 0;
    while k < seg.len() {
        let e = group_end(seg, scores, k);
        moved |= sort_by_doc(&mut seg[k..e], doc, keyed);
        k = e;
    }
    moved
}

/// The rows `seg` put in score order (descending, [`score_cmp`]), by a stable sort, only
/// where the given order is not it; `keyed` is scratch space.  Whether any row moved.
pub fn rank_by_score(seg: &mut [i64], scores: &[f64], keyed: &mut Vec<(u64, i64)>) -> bool {
    let by_score = |a: &i64, b: &i64| score_cmp(scores[*a as usize], scores[*b as usize]);
    if seg.is_sorted_by(|a, b| by_score(a, b) != Ordering::Greater) {
        return false;
    }
    if seg.is_sorted_by(|a, b| a < b) {
        // rows in ascending order (as a query's are given): sorting (score key, row)
        // pairs, without a look-up per comparison, is the stable sort by score
        keyed.clear();
        keyed.extend(seg.iter().map(|&r| (descending_key(scores[r as usize]), r)));
        keyed.sort_unstable();
        for (slot, &(_, r)) in seg.iter_mut().zip(keyed.iter()) {
            *slot = r;
        }
    } else {
        seg.sort_by(by_score);
    }
    true
}

/// Where the tie group of the rows `seg` (in score order) that starts at `k` ends.
#[inline]
pub fn group_end(seg: &[i64], scores: &[f64], k: usize) -> usize {
    let s = scores[seg[k] as usize];
    let mut e = k + 1;
    while e < seg.len() && !differ(s, scores[seg[e] as usize]) {
        e += 1;
    }
    e
}

/// The rows of one tie group put in document id order, descending (sorted only where they
/// are not in it); `keyed` is scratch space.  Whether any row moved.
pub fn sort_by_doc<'a>(
    group: &mut [i64],
    doc: &impl Fn(usize) -> &'a [u8],
    keyed: &mut Vec<(u64, i64)>,
) -> bool {
    let by_doc = |a: &i64, b: &i64| doc(*b as usize).cmp(doc(*a as usize));
    if group.len() < 2 || group.is_sorted_by(|a, b| by_doc(a, b) != Ordering::Greater) {
        return false;
    }
    // by the ids' first 8 bytes as an integer, the whole ids where those are equal
    keyed.clear();
    keyed.extend(group.iter().map(|&r| (prefix(doc(r as usize)), r)));
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| by_doc(&a.1, &b.1)));
    for (slot, &(_, r)) in group.iter_mut().zip(keyed.iter()) {
        *slot = r;
    }
    true
}

/// Whether ranked row `k` of `seg` starts a new tie group (the first row always does).
#[inline]
pub fn starts_group(seg: &[i64], scores: &[f64], k: usize) -> bool {
    k == 0 || differ(scores[seg[k - 1] as usize], scores[seg[k] as usize])
}

/// The `trec` order of the run rows whose query maps to a segment (`segment_of_query[qcodes[r]]`
/// in `0..num_segments`; rows of queries mapped to -1 are left out).
pub fn order_trec<'a>(
    segment_of_query: &[i64],
    num_segments: usize,
    qcodes: &[i32],
    scores: &[f64],
    doc: impl Fn(usize) -> &'a [u8],
) -> Ordered {
    let n = qcodes.len();
    let seg_of = |r: usize| -> Option<usize> {
        let c = usize::try_from(qcodes[r]).ok()?;
        let s = *segment_of_query.get(c)?;
        usize::try_from(s).ok().filter(|&s| s < num_segments)
    };
    // rows grouped by segment, stably (a counting sort)
    let mut lengths = vec![0i64; num_segments];
    let mut grouped = true; // every row kept, segments non-decreasing in file order
    let mut prev = 0usize;
    for r in 0..n {
        match seg_of(r) {
            Some(s) => {
                lengths[s] += 1;
                grouped &= s >= prev;
                prev = s;
            }
            None => grouped = false,
        }
    }
    let mut starts = Vec::with_capacity(num_segments + 1);
    let mut total = 0i64;
    for &l in &lengths {
        starts.push(total);
        total += l;
    }
    starts.push(total);
    let mut rows: Vec<i64> = if grouped {
        (0..n as i64).collect()
    } else {
        let mut next = starts.clone();
        let mut rows = vec![0i64; total as usize];
        for r in 0..n {
            if let Some(s) = seg_of(r) {
                rows[next[s] as usize] = r as i64;
                next[s] += 1;
            }
        }
        rows
    };
    let mut identity = grouped;
    let mut keyed: Vec<(u64, i64)> = Vec::new();
    for w in starts.windows(2) {
        let seg = &mut rows[w[0] as usize..w[1] as usize];
        if rank_segment(seg, scores, &doc, &mut keyed) {
            identity = false;
        }
    }
    let mut tie_ids = Vec::with_capacity(rows.len());
    let mut id = -1i64;
    for w in starts.windows(2) {
        let seg = &rows[w[0] as usize..w[1] as usize];
        for k in 0..seg.len() {
            if starts_group(seg, scores, k) {
                id += 1;
            }
            tie_ids.push(id);
        }
    }
    Ordered {
        rows,
        lengths,
        tie_ids,
        identity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_by_query_and_document() {
        // qrels query 0 judges a (2), b (0), a again (1: ignored); query 1 judges a (-1)
        let qdocs: [&[u8]; 4] = [b"a", b"b", b"a", b"a"];
        let index = QrelsIndex::new(&[0, 3, 4], |r| qdocs[r], &[2, 0, 1, -1]);
        let docs: [&[u8]; 5] = [b"a", b"b", b"c", b"a", b"b"];
        // segment 0 -> qrels 1 (rows 3, 4), segment 1 -> qrels 0 (rows 0..3), 2 -> none
        let got = grades(
            &index,
            &[1, 0, -1],
            &[0, 2, 5, 6],
            &[3, 4, 0, 1, 2, 0],
            |r| docs[r],
        );
        assert_eq!(
            got,
            vec![UNJUDGED, NOT_IN_QRELS, 2, 0, NOT_IN_QRELS, NOT_IN_QRELS]
        );
    }

    #[test]
    fn the_score_key_orders_as_the_score_comparison() {
        let scores = [
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            0.0,
            -0.0,
            1.0,
            -1.0,
            1.0 + f64::EPSILON,
            29.982928,
            -29.982928,
            1e300,
        ];
        for &a in &scores {
            for &b in &scores {
                assert_eq!(
                    descending_key(a).cmp(&descending_key(b)),
                    score_cmp(a, b),
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn the_keyed_sort_is_the_stable_sort() {
        // rows of few distinct scores (ties, 0.0 and -0.0, NaNs), in ascending order and
        // not: the ranking equals a stable sort by score_cmp, then each tie group by id
        let pool = [3.0, 1.0, -0.0, 0.0, f64::NAN, 2.5, -1.0, 1.0];
        let mut next = crate::test_rng::below(0x1234_5678_9abc_def1);
        for n in 0..60usize {
            let scores: Vec<f64> = (0..n)
                .map(|_| pool[next(pool.len() as u64) as usize])
                .collect();
            let distinct: Vec<Vec<u8>> = (0..n)
                .map(|r| format!("d{}", (r * 7) % 11 + r * 100).into_bytes())
                .collect();
            // ids that share their first 8 bytes, some listed twice
            let shared: Vec<Vec<u8>> = (0..n)
                .map(|r| format!("GX000-00-{}", (r * 7) % 13).into_bytes())
                .collect();
            for (ids, reversed) in [
                (&distinct, false),
                (&distinct, true),
                (&shared, false),
                (&shared, true),
            ] {
                let doc = |r: usize| ids[r].as_slice();
                let mut seg: Vec<i64> = (0..n as i64).collect();
                if reversed {
                    seg.reverse();
                }
                let mut want = seg.clone();
                want.sort_by(|a, b| score_cmp(scores[*a as usize], scores[*b as usize]));
                let mut k = 0;
                while k < want.len() {
                    let mut e = k + 1;
                    while e < want.len()
                        && !differ(scores[want[k] as usize], scores[want[e] as usize])
                    {
                        e += 1;
                    }
                    want[k..e].sort_by(|a, b| doc(*b as usize).cmp(doc(*a as usize)));
                    k = e;
                }
                rank_segment(&mut seg, &scores, &doc, &mut Vec::new());
                assert_eq!(seg, want, "{n} {reversed}");
            }
        }
    }

    #[test]
    fn a_large_tie_group_with_repeated_documents_keeps_their_rows_in_the_order_given() {
        // a group larger than a sort's insertion-sort runs: an unstable sort of it would
        // reorder the rows of one document
        let ids: Vec<Vec<u8>> = (0..300)
            .map(|r| format!("GX000-00-{}", (r * 7) % 13).into_bytes())
            .collect();
        let doc = |r: usize| ids[r].as_slice();
        let scores = vec![1.0; 300];
        let mut next = crate::test_rng::below(0x2545_f491_4f6c_dd1d);
        let mut seg: Vec<i64> = (0..300).collect();
        for i in (1..seg.len()).rev() {
            seg.swap(i, next(i as u64 + 1) as usize);
        }
        let mut want = seg.clone();
        want.sort_by(|a, b| doc(*b as usize).cmp(doc(*a as usize)));
        rank_segment(&mut seg, &scores, &doc, &mut Vec::new());
        assert_eq!(seg, want);
    }

    #[test]
    fn grades_beyond_32_bits_are_kept_whole() {
        let docs: [&[u8]; 3] = [b"a", b"b", b"c"];
        for big in [
            1i64 << 40,
            -(1i64 << 40),
            i64::MAX,
            i64::MIN,
            i64::from(i32::MAX) + 1,
        ] {
            let grades = [1, big, i64::from(i32::MIN)];
            let index = QrelsIndex::new(&[0, 3], |r| docs[r], &grades);
            assert!(matches!(index.grades, Grades::Wide(_)));
            for (d, g) in docs.iter().zip(grades) {
                assert_eq!(index.grade(0, d), Some(g));
            }
        }
        let small = QrelsIndex::new(&[0, 3], |r| docs[r], &[i64::from(i32::MIN), 0, 4]);
        assert!(matches!(small.grades, Grades::Narrow(_)));
        assert_eq!(small.grade(0, b"a"), Some(i64::from(i32::MIN)));
        assert_eq!(small.grade(0, b"c"), Some(4));
    }

    #[test]
    fn an_index_of_joined_documents_is_the_index_of_the_same_documents() {
        let qdocs: [&[u8]; 5] = [b"a", b"bb", b"", b"a", b"ccc"];
        let offsets = [0i64, 3, 5];
        let grades = [2, 0, 1, -1, 3];
        let arena = qdocs.concat();
        let mut bounds = vec![0u32];
        for d in qdocs {
            bounds.push(bounds.last().unwrap() + d.len() as u32);
        }
        let joined = QrelsIndex::of_joined(&offsets, arena.clone(), bounds.clone(), &grades);
        let plain = QrelsIndex::new(&offsets, |r| qdocs[r], &grades);
        assert_eq!(joined.rows(), 5);
        for (r, d) in qdocs.iter().enumerate() {
            assert_eq!(joined.doc(r), *d);
        }
        for q in 0..2 {
            for d in [&b"a"[..], b"bb", b"", b"ccc", b"x"] {
                assert_eq!(joined.grade(q, d), plain.grade(q, d));
            }
        }
        assert_eq!(joined.grade(1, b"ccc"), Some(3));
        // bounds that do not fit the buffer: refused, never read out of it
        let mut short = bounds.clone();
        *short.last_mut().unwrap() += 1;
        let bad = std::panic::catch_unwind(|| {
            QrelsIndex::of_joined(&offsets, arena.clone(), short, &grades)
        });
        assert!(bad.is_err());
    }

    #[test]
    fn queries_of_every_table_width_find_each_judgment() {
        // queries of 0, 1, 254 (the most a tiny table holds: a byte of row, a byte of
        // hash), 255, 65,534 (the most 16-bit slots hold), 65,535 and 70,000 judgments (two
        // units a slot), each document judged twice in the largest and in the 254 (the first
        // grade stands); every judged document looked up, and documents judged for another
        // query
        let sizes = [0usize, 1, 254, 255, 256, 65_534, 65_535, 70_000];
        let mut docs: Vec<Vec<u8>> = Vec::new();
        let mut grades = Vec::new();
        let mut offsets = vec![0i64];
        for (q, &n) in sizes.iter().enumerate() {
            for k in 0..n {
                docs.push(format!("q{q}d{k}").into_bytes());
                grades.push(((k * 7 + q) % 5) as i64);
            }
            if q == 2 || q == 7 {
                for k in 0..n {
                    docs.push(format!("q{q}d{k}").into_bytes());
                    grades.push(9);
                }
            }
            offsets.push(docs.len() as i64);
        }
        let index = QrelsIndex::new(&offsets, |r| &docs[r], &grades);
        for (q, &n) in sizes.iter().enumerate() {
            for k in 0..n {
                let want = ((k * 7 + q) % 5) as i64;
                assert_eq!(index.grade(q, format!("q{q}d{k}").as_bytes()), Some(want));
            }
            assert_eq!(index.grade(q, format!("q{q}d{n}").as_bytes()), None);
            // up to 300 documents of this query in every other query's table
            for other in (0..sizes.len()).filter(|&o| o != q) {
                for k in 0..n.min(300) {
                    assert_eq!(index.grade(other, format!("q{q}d{k}").as_bytes()), None);
                }
            }
        }
        assert_eq!(index.grade(sizes.len(), b"q1d0"), None);
    }

    #[test]
    fn trec_order_with_ties_and_segments() {
        // queries: 0 -> segment 1, 1 -> segment 0, 2 -> left out
        let docs: [&[u8]; 7] = [b"d1", b"d3", b"d2", b"x", b"e", b"f", b"g"];
        let qcodes = [0, 0, 0, 2, 1, 1, 0];
        let scores = [1.0, 1.0, 2.0, 9.0, -0.0, 0.0, f64::NAN];
        let o = order_trec(&[1, 0, -1], 2, &qcodes, &scores, |r| docs[r]);
        // segment 0: e and f tie (-0.0 == 0.0): f first; segment 1: d2 (2.0), then d3, d1
        // tied at 1.0, then the NaN
        assert_eq!(o.rows, vec![5, 4, 2, 1, 0, 6]);
        assert_eq!(o.lengths, vec![2, 4]);
        assert_eq!(o.tie_ids, vec![0, 0, 1, 2, 2, 3]);
        assert!(!o.identity);
    }

    #[test]
    fn a_run_in_trec_order_is_kept_as_it_is() {
        let docs: [&[u8]; 4] = [b"b", b"a", b"c", b"a"];
        let o = order_trec(&[0, 1], 2, &[0, 0, 1, 1], &[2.0, 2.0, 5.0, 1.0], |r| {
            docs[r]
        });
        assert_eq!(o.rows, vec![0, 1, 2, 3]);
        assert_eq!(o.tie_ids, vec![0, 0, 1, 2]);
        assert!(o.identity);
    }
}
