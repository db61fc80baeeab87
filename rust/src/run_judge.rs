//! A TREC run judged as it is read, for a run grouped by query (the usual layout): each
//! piece of text (whole lines) is split, its results checked, and each query, once its block
//! of lines has ended, has its duplicates looked for, is put in `trec` order, cut at a depth,
//! and judged against the qrels ([`QrelsIndex`]), all in one pass, with no id handed to Python.
//!
//! The judged queries are kept as `cranfield.judging.JudgedRankings` holds them (a batch, in
//! the qrels' query order, taken by [`RunJudge::take`]).  Anything this pass does not settle
//! (a line that does not parse, a query met again after its block ended, a document twice in
//! one query, an id with a control character, no result at all) stops it with a [`Stop`]: the
//! caller then reads the run whole with the reference reader, whose error (or result) stands.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::{Arc, Mutex};

use crate::judge::{
    NOT_IN_QRELS, QrelsIndex, Table, UNJUDGED, group_end, hash_of, prefix, rank_by_score,
    sort_by_doc,
};
use crate::text_reader::BOM;
use crate::threads;
use crate::trec::{Counts, FxHasher, ParseError, each_run_row};

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
pub(crate) type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

/// Why the pass stopped (the reference reader takes over).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A line the reader rejects.
    Parse(ParseError),
    /// A query met again after its block of lines ended.
    NotGrouped,
    /// A document listed twice for one query.
    Duplicate,
    /// An id holding a control character (`cranfield.io.ids`).
    BadId,
    /// Text that `cranfield.io.textcheck.TextCheck` rejects (see [`clean_text`]).
    Text,
    /// No result in the whole text.
    Empty,
    /// Beyond what the pass counts (more than 2**32 - 1 results or queries in a run collected
    /// whole), or fed after its end.
    Limit,
}

impl From<ParseError> for Stop {
    fn from(e: ParseError) -> Self {
        Stop::Parse(e)
    }
}

impl Stop {
    pub fn name(&self) -> &'static str {
        match self {
            Stop::Parse(_) => "parse",
            Stop::NotGrouped => "not grouped",
            Stop::Duplicate => "duplicate",
            Stop::BadId => "id",
            Stop::Text => "text",
            Stop::Empty => "empty",
            Stop::Limit => "limit",
        }
    }
}

/// Whether a piece of text (whole lines, the text's first byte order mark removed) passes
/// `cranfield.io.textcheck.TextCheck`: no NUL byte, valid UTF-8 (a piece ends at a line end,
/// so no character is cut between pieces; a character cut short at the text's end is invalid
/// here too) and no byte order mark.  The caller of a pass feeds it text unchecked: text that
/// fails stops the pass, and the reference reader gives the check's error.
pub fn clean_text(data: &[u8]) -> bool {
    if memchr::memchr(0, data).is_some() {
        return false;
    }
    data.is_ascii()
        || (std::str::from_utf8(data).is_ok() && memchr::memmem::find(data, BOM).is_none())
}

/// Whether an id (a field of a TREC line: no whitespace, not empty) breaks the id rule of
/// `cranfield.io.ids`: a C0 control, DEL, or a C1 control (U+0080-U+009F, the UTF-8 bytes
/// 0xC2 0x80-0x9F; in valid UTF-8, which the text is, 0xC2 is always a lead byte).
#[inline]
pub fn bad_id(id: &[u8]) -> bool {
    id.iter().enumerate().any(|(i, &b)| {
        b < 0x20
            || b == 0x7f
            || (b == 0xc2 && id.get(i + 1).is_some_and(|c| (0x80..=0x9f).contains(c)))
    })
}

/// Judged queries, as `JudgedRankings` holds them: query `k` (the qrels' query
/// `qrels_queries[k]`, ascending) has rows `offsets[k]..offsets[k + 1]`.
#[derive(Debug, Default, PartialEq)]
pub struct Judged {
    pub qrels_queries: Vec<i64>,
    pub offsets: Vec<i64>,
    pub grades: Vec<i64>,
    pub scores: Vec<f64>,
    /// Tie groups: non-decreasing, unique across queries.
    pub tie_ids: Vec<i64>,
    /// The run's query ids met since the last take, in file order (judged or not).
    pub run_ids: Vec<Box<[u8]>>,
}

/// One judged query: its qrels query, where its rows start in a [`Flat`], how many.
#[derive(Clone, Copy)]
pub(crate) struct Done {
    query: usize,
    start: usize,
    len: usize,
}

/// Judged rows of several queries one after the other: grades and scores in rank order, tie
/// groups counted from 0 in each query.
#[derive(Default)]
pub(crate) struct Flat {
    grades: Vec<i64>,
    scores: Vec<f64>,
    ties: Vec<i64>,
}

impl Flat {
    fn len(&self) -> usize {
        self.grades.len()
    }
}

/// Flats whose rows were copied out ([`Held::judged`]), emptied, their room kept for the
/// next parts (so that their vectors are not grown again, each growth a copy); at most
/// [`SPARE_FLATS`].
#[derive(Default, Clone)]
pub(crate) struct Spare(Arc<Mutex<Vec<Flat>>>);

/// The most flats kept spare (a part's is about its rows times 24 bytes).
const SPARE_FLATS: usize = 32;

impl Spare {
    /// A spare flat, or a new one.
    fn take(&self) -> Flat {
        self.0
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop())
            .unwrap_or_default()
    }

    /// Keep `flats`, emptied, up to [`SPARE_FLATS`].
    fn keep(&self, flats: Vec<Flat>) {
        let Ok(mut spare) = self.0.lock() else {
            return;
        };
        for mut f in flats {
            if spare.len() >= SPARE_FLATS {
                return;
            }
            f.grades.clear();
            f.scores.clear();
            f.ties.clear();
            spare.push(f);
        }
    }
}

/// Judged queries not taken yet: the [`Flat`]s they were judged into, kept as they are (a
/// part's rows are copied once, by [`assemble`]), and each query's [`Done`] in one of them.
#[derive(Default)]
pub(crate) struct Batch {
    flats: Vec<Flat>,
    done: Vec<(usize, Done)>,
}

impl Batch {
    /// Judged rows held.
    pub(crate) fn rows(&self) -> usize {
        self.flats.iter().map(Flat::len).sum()
    }

    /// The tie groups of its queries (each query's are numbered from 0 by its rows' order;
    /// a row left out by `judged_only` may leave a number out).
    fn tie_groups(&self) -> i64 {
        let last_tie = |&(f, d): &(usize, Done)| match d.len {
            0 => 0,
            n => self.flats[f].ties[d.start + n - 1] + 1,
        };
        self.done.iter().map(last_tie).sum()
    }

    /// Keep `flat`, whose rows are those of `done` (queries judged into it).
    pub(crate) fn add(&mut self, flat: Flat, done: impl IntoIterator<Item = Done>) {
        let f = self.flats.len();
        self.done.extend(done.into_iter().map(|d| (f, d)));
        self.flats.push(flat);
    }

    /// The flat a query is judged into in place (the last one; a new one when there is none).
    fn last(&mut self) -> (usize, &mut Flat) {
        if self.flats.is_empty() {
            self.flats.push(Flat::default());
        }
        let f = self.flats.len() - 1;
        (f, &mut self.flats[f])
    }
}

/// The working space of one thread judging queries.
#[derive(Default)]
pub(crate) struct Scratch {
    seen: Seen,
    /// Each document's [`hash_of`], for the duplicate table and the qrels lookup.
    hashes: Vec<u64>,
    rank: Vec<i64>,
    keyed: Vec<(u64, i64)>,
    /// The grades of a tie group's rows, and their ids' prefixes ([`count_places`]).
    grades: Vec<i64>,
    prefixes: Vec<u64>,
}

/// How a query is judged: against which qrels (its query ids, its judgments), to which depth,
/// unjudged documents kept or not.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'i> {
    pub(crate) queries: &'i FxMap<Box<[u8]>, usize>,
    pub(crate) index: &'i QrelsIndex,
    pub(crate) depth: Option<usize>,
    pub(crate) judged_only: bool,
}

/// Judge the rows of one query (`docs[r]`, `scores[r]`) into `out`: its duplicates looked
/// for, and, when the qrels judge it, its judged rows; `None` when they do not.  `hashes`:
/// the documents' [`hash_of`] made already, or its top 32 bits (the rest 0: the tables start
/// their probes from the top bits, and compare the bytes where hashes meet), else made here.
pub(crate) fn judge_query(
    rules: Rules<'_>,
    query: &[u8],
    docs: &[&[u8]],
    scores: &[f64],
    hashes: Option<&[u64]>,
    s: &mut Scratch,
    out: &mut Flat,
) -> Result<Option<Done>, Stop> {
    s.hashes.clear();
    match hashes {
        Some(h) => s.hashes.extend_from_slice(h),
        None => s.hashes.extend(docs.iter().map(|d| hash_of(d))),
    }
    if s.seen.has_duplicate(docs.len(), |r| docs[r], &s.hashes) {
        return Err(Stop::Duplicate);
    }
    let Some(&q) = rules.queries.get(query) else {
        return Ok(None);
    };
    let Scratch {
        hashes,
        rank,
        keyed,
        grades,
        prefixes,
        ..
    } = s;
    rank.clear();
    rank.extend(0..docs.len() as i64);
    rank_by_score(rank, scores, keyed);
    let shown = rules.depth.map_or(rank.len(), |d| d.min(rank.len()));
    let start = out.grades.len();
    let table = rules.index.table(q);
    let grade_of = |r: i64| judged_grade(table.as_ref(), docs[r as usize], hashes[r as usize]);
    let doc = |r: usize| docs[r];
    let mut tie = -1i64;
    let mut k = 0;
    while k < shown {
        tie += 1;
        let e = group_end(rank, scores, k);
        let group = &mut rank[k..e];
        grades.clear();
        grades.extend(group.iter().map(|&r| grade_of(r)));
        if group.len() > 1 {
            match tie_order(group, grades, scores) {
                TieOrder::Kept => {}
                TieOrder::Counted => count_places(group, grades, &doc, prefixes),
                TieOrder::Sorted => {
                    sort_by_doc(group, &doc, keyed);
                    grades.clear();
                    grades.extend(group.iter().map(|&r| grade_of(r)));
                }
            }
        }
        for (j, &grade) in grades[..e.min(shown) - k].iter().enumerate() {
            if rules.judged_only && grade < 0 {
                continue;
            }
            out.grades.push(grade);
            out.scores.push(scores[group[j] as usize]);
            out.ties.push(tie);
        }
        k = e;
    }
    Ok(Some(Done {
        query: q,
        start,
        len: out.grades.len() - start,
    }))
}

/// The grade a row of the document `doc` (of [`hash_of`] `hash`) is judged: its judgment in
/// `table` (the query's, if the qrels judge it), [`UNJUDGED`] for a negative one, or
/// [`NOT_IN_QRELS`].
#[inline]
fn judged_grade(table: Option<&Table<'_>>, doc: &[u8], hash: u64) -> i64 {
    match table.and_then(|t| t.grade(doc, hash)) {
        Some(g) if g < 0 => UNJUDGED,
        Some(g) => g,
        None => NOT_IN_QRELS,
    }
}

/// How a tie group's rows are put in `trec` order (document id descending) where only what
/// is kept of them counts: their grades, their score and their tie group, in rank order.
enum TieOrder {
    /// Every row has the same grade and the same score (to the bit): any order is it.
    Kept,
    /// One score, and at most [`COUNTED`] rows judged (the others not in the qrels): their
    /// places counted ([`count_places`]).
    Counted,
    /// Sorted by document.
    Sorted,
}

/// The most judged rows of a tie group whose places are counted, not sorted: counting costs
/// one comparison per row of the group for each.
const COUNTED: usize = 8;

/// How the tie group `group` (its rows' `grades` in the same order) is put in order.
fn tie_order(group: &[i64], grades: &[i64], scores: &[f64]) -> TieOrder {
    let bits = scores[group[0] as usize].to_bits();
    if !group.iter().all(|&r| scores[r as usize].to_bits() == bits) {
        return TieOrder::Sorted; // -0.0 and 0.0 are tied, and both are kept
    }
    if grades.iter().all(|&g| g == grades[0]) {
        return TieOrder::Kept;
    }
    if grades.iter().filter(|&&g| g != NOT_IN_QRELS).count() <= COUNTED {
        TieOrder::Counted
    } else {
        TieOrder::Sorted
    }
}

/// The `grades` of a tie group's rows (`group`; the rows of one query have distinct
/// documents) made those of its rows in document order, descending: each judged row's place
/// is the number of the group's documents above its own; the other rows are not in the
/// qrels.  `prefixes` is scratch space.
fn count_places<'a>(
    group: &[i64],
    grades: &mut [i64],
    doc: &impl Fn(usize) -> &'a [u8],
    prefixes: &mut Vec<u64>,
) {
    prefixes.clear();
    prefixes.extend(group.iter().map(|&r| prefix(doc(r as usize))));
    let mut placed = [(0usize, 0i64); COUNTED];
    let mut n = 0;
    for (j, &grade) in grades.iter().enumerate() {
        if grade == NOT_IN_QRELS {
            continue;
        }
        let (p, d) = (prefixes[j], doc(group[j] as usize));
        // above: a larger prefix, or the same prefix and larger bytes (ids whose prefixes
        // differ are in the order of their prefixes)
        let above = prefixes
            .iter()
            .zip(group)
            .filter(|&(&q, &r)| q > p || (q == p && doc(r as usize) > d))
            .count();
        placed[n] = (above, grade);
        n += 1;
    }
    grades.fill(NOT_IN_QRELS);
    for &(place, grade) in &placed[..n] {
        grades[place] = grade;
    }
}

/// The rows of one query block: documents and scores.
#[derive(Default)]
struct Block<'d> {
    docs: Vec<&'d [u8]>,
    scores: Vec<f64>,
}

/// What a part of a piece holds: its first block when it goes on with the query held from
/// the previous piece (`head`), its whole blocks judged (`blocks`: query id, where its rows
/// are in `judged`), its last block when it may go on in the next piece (`tail`), its data
/// lines and its last tag.
#[derive(Default)]
struct Part<'d> {
    head: Block<'d>,
    blocks: Vec<(&'d [u8], Option<Done>)>,
    judged: Flat,
    tail: Option<(&'d [u8], Block<'d>)>,
    counts: Counts,
    tag: Option<&'d [u8]>,
}

/// Read and judge a part of a piece (whole lines).  `held`: the query the previous piece left
/// open (only for the piece's first part); `open_end`: its last block may go on.
fn read_part<'d>(
    rules: Rules<'_>,
    part: &'d [u8],
    held: Option<&[u8]>,
    open_end: bool,
    s: &mut Scratch,
    spare: &Spare,
) -> Result<Part<'d>, Stop> {
    if !clean_text(part) {
        return Err(Stop::Text);
    }
    let mut out = Part {
        judged: spare.take(),
        ..Part::default()
    };
    let mut block = Block::default();
    let mut query: Option<&'d [u8]> = None;
    let mut heading = held.is_some();
    let mut counts = Counts::default();
    let mut close = |query: &'d [u8], block: &mut Block<'d>, out: &mut Part<'d>| {
        let done = judge_query(
            rules,
            query,
            &block.docs,
            &block.scores,
            None,
            s,
            &mut out.judged,
        )?;
        out.blocks.push((query, done));
        block.docs.clear();
        block.scores.clear();
        Ok::<(), Stop>(())
    };
    each_run_row(part, &mut counts, |row| {
        if bad_id(row.doc) {
            return Err(Stop::BadId);
        }
        out.tag = Some(row.tag);
        if query != Some(row.query) {
            if heading {
                heading = held == Some(row.query);
                if heading {
                    query = Some(row.query);
                }
            }
            if !heading {
                if bad_id(row.query) {
                    return Err(Stop::BadId);
                }
                if let Some(q) =
                    query.filter(|_| out.head.docs.is_empty() || !block.docs.is_empty())
                {
                    close(q, &mut block, &mut out)?;
                }
                query = Some(row.query);
            }
        }
        if heading {
            out.head.docs.push(row.doc);
            out.head.scores.push(row.score);
        } else {
            block.docs.push(row.doc);
            block.scores.push(row.score);
        }
        Ok(())
    })?;
    out.counts = counts;
    if let Some(q) = query.filter(|_| !block.docs.is_empty()) {
        if open_end {
            out.tail = Some((q, block));
        } else {
            close(q, &mut block, &mut out)?;
        }
    }
    Ok(out)
}

/// The first field of a line (C `isspace` separates fields), if any.
pub(crate) fn first_field(line: &[u8]) -> Option<&[u8]> {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let start = line.iter().position(|b| !is_space(b))?;
    let len = line[start..]
        .iter()
        .position(is_space)
        .unwrap_or(line.len() - start);
    Some(&line[start..start + len])
}

/// `data` cut into `k` parts or fewer of about equal size, each ending where a data line of
/// another query starts (a line's first field; blank lines and comments, whose first field
/// starts with `#`, stay with the lines before them), so that no query's block is cut.
pub(crate) fn cut(data: &[u8], k: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(k);
    let mut start = 0;
    for i in 1..k {
        let target = (data.len() / k * i).max(start);
        let Some(p) = memchr::memchr(b'\n', &data[target..]) else {
            break;
        };
        let mut at = target + p + 1; // the first whole line after the target
        let mut prev: Option<&[u8]> = None;
        let boundary = loop {
            if at >= data.len() {
                break None;
            }
            let end = memchr::memchr(b'\n', &data[at..]).map_or(data.len(), |p| at + p + 1);
            if let Some(f) = first_field(&data[at..end]).filter(|f| f[0] != b'#') {
                if prev.is_some_and(|q| q != f) {
                    break Some(at);
                }
                prev = Some(f);
            }
            at = end;
        };
        let Some(end) = boundary else {
            break;
        };
        parts.push(&data[start..end]);
        start = end;
    }
    parts.push(&data[start..]);
    parts
}

/// The documents of one query, looked for duplicates: an open-addressing table of their
/// hashes (slots marked with the query's stamp, so it is never cleared between queries), the
/// bytes compared only where two hashes are equal.
#[derive(Default)]
struct Seen {
    /// (stamp, row, hash) per slot.
    slots: Vec<(u32, u32, u64)>,
    stamp: u32,
}

impl Seen {
    /// Whether two of the rows `0..n` hold the same document.
    fn has_duplicate<'a>(
        &mut self,
        n: usize,
        doc: impl Fn(usize) -> &'a [u8],
        hashes: &[u64],
    ) -> bool {
        let Ok(rows) = u32::try_from(n) else {
            // more rows than a u32 counts: a plain set
            let mut set: FxSet<&[u8]> = FxSet::default();
            return !(0..n).all(|r| set.insert(doc(r)));
        };
        let want = (2 * n).next_power_of_two().max(16);
        if self.slots.len() < want {
            self.slots = vec![(0, 0, 0); want];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill((0, 0, 0));
            self.stamp = 1;
        }
        let bits = self.slots.len().trailing_zeros();
        let mask = self.slots.len() - 1;
        for r in 0..rows {
            let d = doc(r as usize);
            let hash = hashes[r as usize];
            let mut i = (hash >> (64 - bits)) as usize; // the best mixed bits of FxHash
            loop {
                let (stamp, row, other) = self.slots[i];
                if stamp != self.stamp {
                    self.slots[i] = (self.stamp, r, hash);
                    break;
                }
                if other == hash && doc(row as usize) == d {
                    return true;
                }
                i = (i + 1) & mask;
            }
        }
        false
    }
}

/// `Err` with the reason a pass stopped, once it has: a stopped pass stays stopped.
pub(crate) fn not_stopped(stopped: &Option<Stop>) -> Result<(), Stop> {
    stopped.as_ref().map_or(Ok(()), |s| Err(s.clone()))
}

/// `result`, its stop (if any) kept in `stopped`.
pub(crate) fn kept<T>(stopped: &mut Option<Stop>, result: Result<T, Stop>) -> Result<T, Stop> {
    if let Err(s) = &result {
        *stopped = Some(s.clone());
    }
    result
}

/// Pieces this large or larger are read and judged on all the pass's threads.
pub(crate) const PARALLEL_BYTES: usize = 1 << 20;

/// The parts a large piece is cut into per thread.
const PARTS_PER_THREAD: usize = 4;

/// The state of the pass between pieces.
pub struct RunJudge {
    /// The qrels' query ids, by position in the qrels.
    qrels_queries: Arc<QueryMap>,
    depth: Option<usize>,
    judged_only: bool,
    /// The query whose block may go on in the next piece, and its rows (documents in
    /// `arena`).
    current: Option<Box<[u8]>>,
    arena: Vec<u8>,
    docs: Vec<(usize, usize)>,
    scores: Vec<f64>,
    /// Queries whose block has ended.
    ended: FxSet<Box<[u8]>>,
    /// The run's query ids, in file order, since the last take.
    run_ids: Vec<Box<[u8]>>,
    /// The batch: the judged rows and queries since the last take.
    batch: Batch,
    next_tie: i64,
    tag: Vec<u8>,
    counts: Counts,
    scratch: Scratch,
    spare: Spare,
    /// How many threads read and judge a large piece.
    threads: usize,
    stopped: Option<Stop>,
}

/// The qrels' query ids, each to its position in the qrels: built once per qrels
/// (`cranfield._core.QrelsIndex` keeps it) and shared by every pass judged against them.
pub type QueryMap = FxMap<Box<[u8]>, usize>;

/// The map of the qrels' query ids `ids` (query `i` is `ids[i]`).
pub fn query_map(ids: &[&[u8]]) -> QueryMap {
    ids.iter()
        .enumerate()
        .map(|(i, q)| (Box::from(*q), i))
        .collect()
}

impl RunJudge {
    /// A pass judging against a qrels whose query `i` is `qrels_query_ids[i]`.
    pub fn new(qrels_query_ids: &[&[u8]], depth: Option<usize>, judged_only: bool) -> Self {
        Self::with_queries(Arc::new(query_map(qrels_query_ids)), depth, judged_only)
    }

    /// The same, with the qrels' [`QueryMap`] made already.
    pub fn with_queries(
        qrels_queries: Arc<QueryMap>,
        depth: Option<usize>,
        judged_only: bool,
    ) -> Self {
        RunJudge {
            qrels_queries,
            depth,
            judged_only,
            current: None,
            arena: Vec::new(),
            docs: Vec::new(),
            scores: Vec::new(),
            ended: FxSet::default(),
            run_ids: Vec::new(),
            batch: Batch::default(),
            next_tie: 0,
            tag: Vec::new(),
            counts: Counts::default(),
            scratch: Scratch::default(),
            spare: Spare::default(),
            threads: threads::available(),
            stopped: None,
        }
    }

    /// The pass on `threads` threads (at least 1) instead of one per core.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Rows judged and not taken yet.
    pub fn held(&self) -> usize {
        self.batch.rows()
    }

    /// The last result's tag.
    pub fn tag(&self) -> &[u8] {
        &self.tag
    }

    /// The lines of the text read so far, as the whole-file reader counts them.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    fn rules<'i>(&'i self, index: &'i QrelsIndex) -> Rules<'i> {
        Rules {
            queries: &self.qrels_queries,
            index,
            depth: self.depth,
            judged_only: self.judged_only,
        }
    }

    /// Read the next piece of the text (whole lines; the first without its BOM).  Once the
    /// pass has stopped, it stays stopped.  A large piece is cut between query blocks and its
    /// parts read and judged on all the pass's threads; the result does not depend on how
    /// many there are.
    pub fn feed(&mut self, index: &QrelsIndex, data: &[u8]) -> Result<(), Stop> {
        self.feed_beside(index, data, || (), || ()).0
    }

    /// [`Self::feed`], calling `before()` on this thread first, while the other threads read
    /// the piece's first parts (the caller measures the queries it took before), and
    /// `then()` once no part is left to take, while other threads may still read theirs (the
    /// caller reads its next piece there: a thread of its own would wait for a core).
    pub fn feed_beside<T>(
        &mut self,
        index: &QrelsIndex,
        data: &[u8],
        before: impl FnOnce(),
        then: impl FnOnce() -> T,
    ) -> (Result<(), Stop>, T) {
        let mut before = Some(before);
        let mut first = || {
            if let Some(f) = before.take() {
                f();
            }
        };
        let mut then = Some(then);
        let mut out = None;
        let mut after = || {
            if let Some(f) = then.take() {
                out = Some(f());
            }
        };
        let result = match not_stopped(&self.stopped) {
            Ok(()) => self.read(index, data, &mut first, &mut after),
            Err(stop) => Err(stop),
        };
        first(); // when the pass had stopped, or did before its parts were read
        after();
        let result = kept(&mut self.stopped, result);
        (result, out.expect("then() was called"))
    }

    fn read<'d>(
        &mut self,
        index: &QrelsIndex,
        data: &'d [u8],
        before: &mut dyn FnMut(),
        after: &mut dyn FnMut(),
    ) -> Result<(), Stop> {
        if data.is_empty() {
            return Ok(()); // no line at all (a text's lines never end in an empty piece)
        }
        let threads = if data.len() >= PARALLEL_BYTES {
            self.threads
        } else {
            1
        };
        // more parts than threads: a thread that finishes early (or starts late, after
        // `before`) takes more
        let parts = cut(
            data,
            if threads > 1 {
                threads * PARTS_PER_THREAD
            } else {
                1
            },
        );
        let last = parts.len() - 1;
        let held = self.current.take();
        let mut scratch = std::mem::take(&mut self.scratch);
        let got: Vec<Result<Part<'d>, Stop>> = {
            let rules = self.rules(index);
            let spare = &self.spare;
            let read = |s: &mut Scratch, i: usize, p: &'d [u8]| {
                read_part(
                    rules,
                    p,
                    held.as_deref().filter(|_| i == 0),
                    i == last,
                    s,
                    spare,
                )
            };
            if parts.len() > 1 {
                let numbered: Vec<(usize, &'d [u8])> = parts.iter().copied().enumerate().collect();
                let read = |s: &mut Scratch, &(i, p): &(usize, &'d [u8])| read(s, i, p);
                threads::map_pulled(&numbered, threads, Scratch::default, read, before, after)
            } else {
                before();
                let got = vec![read(&mut scratch, 0, parts[0])];
                after();
                got
            }
        };
        self.scratch = scratch;
        self.current = held;
        let got = got.into_iter().collect::<Result<Vec<Part<'_>>, Stop>>()?;
        for (i, part) in got.into_iter().enumerate() {
            self.counts.then(&part.counts);
            if let Some(t) = part.tag {
                self.tag.clear();
                self.tag.extend_from_slice(t);
            }
            for (doc, &score) in part.head.docs.iter().zip(&part.head.scores) {
                self.hold(doc, score);
            }
            let more = !part.blocks.is_empty() || part.tail.is_some() || i < last;
            if more {
                self.end_query(index)?; // the held query ended where this piece went on
            }
            for &(query, _) in &part.blocks {
                self.start_query(query)?;
                self.ended.insert(Box::from(query));
                self.run_ids.push(Box::from(query));
            }
            let done = part.blocks.iter().filter_map(|&(_, d)| d);
            self.batch.add(part.judged, done);
            if let Some((query, block)) = part.tail {
                self.start_query(query)?;
                self.current = Some(Box::from(query));
                for (doc, &score) in block.docs.iter().zip(&block.scores) {
                    self.hold(doc, score);
                }
            }
        }
        Ok(())
    }

    /// A query block starts: its id is checked, and it must not have been met before.
    fn start_query(&self, query: &[u8]) -> Result<(), Stop> {
        if bad_id(query) {
            return Err(Stop::BadId);
        }
        if self.ended.contains(query) {
            return Err(Stop::NotGrouped);
        }
        Ok(())
    }

    /// A row of the query that may go on in the next piece, kept (its document copied).
    fn hold(&mut self, doc: &[u8], score: f64) {
        let start = self.arena.len();
        self.arena.extend_from_slice(doc);
        self.docs.push((start, self.arena.len()));
        self.scores.push(score);
    }

    /// The block of the held query has ended: check, order and judge it.
    fn end_query(&mut self, index: &QrelsIndex) -> Result<(), Stop> {
        let Some(query) = self.current.take() else {
            return Ok(());
        };
        let docs: Vec<&[u8]> = self.docs.iter().map(|&(a, b)| &self.arena[a..b]).collect();
        let rules = Rules {
            queries: &self.qrels_queries,
            index,
            depth: self.depth,
            judged_only: self.judged_only,
        };
        let (f, flat) = self.batch.last();
        let done = judge_query(
            rules,
            &query,
            &docs,
            &self.scores,
            None,
            &mut self.scratch,
            flat,
        )?;
        self.batch.done.extend(done.map(|d| (f, d)));
        self.ended.insert(query.clone());
        self.run_ids.push(query);
        self.arena.clear();
        self.docs.clear();
        self.scores.clear();
        Ok(())
    }

    /// The judged queries since the last take ([`Held::judged`]: in the qrels' order), and
    /// the run's query ids met since then (file order); with `last`, the text has ended (its
    /// last query is judged first; a text without a result stops the pass).
    pub fn take(&mut self, index: &QrelsIndex, last: bool) -> Result<Held, Stop> {
        if let Some(stop) = &self.stopped {
            return Err(stop.clone());
        }
        if last {
            if let Err(s) = self.end_query(index) {
                self.stopped = Some(s.clone());
                return Err(s);
            }
            if self.counts.data == 0 {
                self.stopped = Some(Stop::Empty);
                return Err(Stop::Empty);
            }
        }
        let batch = std::mem::take(&mut self.batch);
        let first_tie = self.next_tie;
        self.next_tie += batch.tie_groups();
        let run_ids = std::mem::take(&mut self.run_ids);
        Ok(Held {
            batch,
            first_tie,
            run_ids,
            spare: self.spare.clone(),
        })
    }
}

/// Judged queries taken from the pass ([`RunJudge::take`]), put in the qrels' order and
/// copied into one [`Judged`] when its arrays are wanted ([`Held::judged`]), on any thread.
pub struct Held {
    batch: Batch,
    first_tie: i64,
    run_ids: Vec<Box<[u8]>>,
    spare: Spare,
}

impl Held {
    /// The queries as [`Judged`], their tie groups numbered from where the pass's earlier
    /// takes left off.
    pub fn judged(mut self) -> Judged {
        let judged = assemble(&mut self.batch, &mut self.first_tie, self.run_ids);
        self.spare.keep(std::mem::take(&mut self.batch.flats));
        judged
    }
}

/// The judged queries of `batch` as [`Judged`], in the qrels' order, tie groups numbered on
/// from `next_tie`; `batch`'s queries are emptied, its flats left as they are.
pub(crate) fn assemble(batch: &mut Batch, next_tie: &mut i64, run_ids: Vec<Box<[u8]>>) -> Judged {
    let n = batch.rows();
    let done = &mut batch.done;
    done.sort_unstable_by_key(|(_, d)| d.query);
    let mut out = Judged {
        qrels_queries: Vec::with_capacity(done.len()),
        offsets: Vec::with_capacity(done.len() + 1),
        grades: Vec::with_capacity(n),
        scores: Vec::with_capacity(n),
        tie_ids: Vec::with_capacity(n),
        run_ids,
    };
    out.offsets.push(0);
    for &(f, d) in done.iter() {
        let flat = &batch.flats[f];
        out.qrels_queries.push(d.query as i64);
        let rows = d.start..d.start + d.len;
        out.grades.extend_from_slice(&flat.grades[rows.clone()]);
        out.scores.extend_from_slice(&flat.scores[rows.clone()]);
        let base = *next_tie;
        let mut groups = 0;
        for &t in &flat.ties[rows] {
            out.tie_ids.push(base + t);
            groups = t + 1;
        }
        *next_tie += groups;
        out.offsets.push(out.grades.len() as i64);
    }
    batch.done.clear(); // its flats are left to the caller
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_checked_as_textcheck_does() {
        let good: [&[u8]; 4] = [
            b"",
            b"1 Q0 d 1 2 t\n",
            "1 Q0 d\u{e9} 1 2 t\n".as_bytes(),
            "# \u{1F600}".as_bytes(),
        ];
        for t in good {
            assert!(clean_text(t), "{t:?}");
        }
        let bad: [&[u8]; 6] = [
            b"1 Q0 d\x00 1 2 t\n",
            b"# \x00\n",
            b"1 Q0 d\xff 1 2 t\n",
            b"1 Q0 \xef\xbb\xbfd 1 2 t\n",
            b"\xef\xbb\xbf1 Q0 d 1 2 t\n", // the text's first BOM is removed before
            b"# \xc3",                     // a character cut short at the end
        ];
        for t in bad {
            assert!(!clean_text(t), "{t:?}");
        }
        let idx = index();
        let mut j = RunJudge::new(&[b"q1", b"q2"], None, false);
        assert_eq!(
            j.feed(&idx, b"q1 Q0 a 1 2 t\nq1 Q0 b\xff 2 1 t\n"),
            Err(Stop::Text)
        );
    }

    fn index() -> QrelsIndex {
        // qrels query 0 ("q1") judges a (2), b (0), n (-1); query 1 ("q2") judges c (1)
        let docs: [&[u8]; 4] = [b"a", b"b", b"n", b"c"];
        QrelsIndex::new(&[0, 3, 4], |r| docs[r], &[2, 0, -1, 1])
    }

    fn judge(text: &[&[u8]], depth: Option<usize>, judged_only: bool) -> Result<Judged, Stop> {
        let idx = index();
        let mut j = RunJudge::new(&[b"q1", b"q2"], depth, judged_only);
        for piece in text {
            j.feed(&idx, piece)?;
        }
        j.take(&idx, true).map(Held::judged)
    }

    #[test]
    fn queries_in_qrels_order_documents_in_trec_order() {
        // q2 first in the file; q3 is not judged; q1 spans two pieces, with a tie (a, n at 2)
        let got = judge(
            &[
                b"q2 Q0 c 1 5 t\nq2 Q0 x 2 4 t\nq3 Q0 a 1 9 t\nq1 Q0 a 1 2 t\n",
                b"q1 Q0 b 2 3 t\nq1 Q0 n 3 2 t\n",
            ],
            None,
            false,
        )
        .unwrap();
        assert_eq!(got.qrels_queries, vec![0, 1]);
        assert_eq!(got.offsets, vec![0, 3, 5]);
        // q1: b (3.0), then n and a tied at 2.0, n first (document id descending)
        assert_eq!(got.grades, vec![0, UNJUDGED, 2, 1, NOT_IN_QRELS]);
        assert_eq!(got.scores, vec![3.0, 2.0, 2.0, 5.0, 4.0]);
        assert_eq!(got.tie_ids, vec![0, 1, 1, 2, 3]);
    }

    #[test]
    fn duplicates_found_among_many_documents_and_queries() {
        // 3 queries of 5,000 documents (the table grows, its stamps are reused); the last
        // query repeats one document of its own, far from the first
        let mut text = Vec::new();
        for q in 0..3 {
            for d in 0..5000 {
                text.extend_from_slice(format!("q{q} Q0 d{d} {d} 1 t\n").as_bytes());
            }
        }
        assert!(judge(&[&text], None, false).is_ok());
        text.extend_from_slice(b"q2 Q0 d17 5001 0 t\n");
        assert_eq!(judge(&[&text], None, false).unwrap_err(), Stop::Duplicate);
    }

    /// A brute-force `trec` judgment of a run text: each query's rows sorted by score
    /// descending then document descending, judged by a linear search of the qrels.
    fn brute(text: &str, qrels: &[(&str, &str, i64)], qids: &[&str]) -> Judged {
        let mut by_query: Vec<(usize, Vec<(f64, String)>)> = Vec::new();
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let Some(qi) = qids.iter().position(|q| *q == f[0]) else {
                continue;
            };
            match by_query.iter_mut().find(|(q, _)| *q == qi) {
                Some((_, rows)) => rows.push((f[4].parse().unwrap(), f[2].to_string())),
                None => by_query.push((qi, vec![(f[4].parse().unwrap(), f[2].to_string())])),
            }
        }
        by_query.sort_by_key(|(q, _)| *q);
        let mut out = Judged {
            offsets: vec![0],
            ..Judged::default()
        };
        let mut tie = -1;
        for (q, mut rows) in by_query {
            rows.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then_with(|| b.1.cmp(&a.1)));
            for (k, (score, doc)) in rows.iter().enumerate() {
                if k == 0 || rows[k - 1].0 != *score {
                    tie += 1;
                }
                let g = qrels
                    .iter()
                    .find(|(qq, d, _)| *qq == qids[q] && d == doc)
                    .map_or(NOT_IN_QRELS, |&(_, _, g)| if g < 0 { UNJUDGED } else { g });
                out.grades.push(g);
                out.scores.push(*score);
                out.tie_ids.push(tie);
            }
            out.qrels_queries.push(q as i64);
            out.offsets.push(out.grades.len() as i64);
        }
        out
    }

    #[test]
    fn large_pieces_on_all_threads_equal_a_brute_force_judgment() {
        // 300 queries (in a shuffled order, some not judged) of 1 to 80 documents drawn from
        // 60, integer scores (many ties); pieces cut at random line ends, some over the
        // parallel threshold
        let mut next = crate::test_rng::below(0x2545_f491_4f6c_dd1du64);
        let mut qids: Vec<String> = (0..250).map(|q| format!("q{q}")).collect();
        qids.sort(); // the qrels' order
        let mut qrels: Vec<(String, String, i64)> = Vec::new();
        for q in &qids {
            for d in 0..60 {
                if next(3) == 0 {
                    qrels.push((q.clone(), format!("doc{d}"), next(4) as i64 - 1));
                }
            }
        }
        qrels.sort();
        let mut text = String::new();
        for k in 0..300 {
            let q = (k * 7919) % 300; // every query once, shuffled; q >= 250: not judged
            let mut docs: Vec<u64> = (0..60).collect();
            for i in (1..60).rev() {
                docs.swap(i, next(i as u64 + 1) as usize);
            }
            for &d in docs.iter().take(1 + next(80) as usize) {
                text.push_str(&format!("q{q} Q0 doc{d} 0 {} run\n", next(5)));
            }
        }
        let base = text.clone();
        let mut rounds = 0;
        while text.len() < 3 * PARALLEL_BYTES {
            text.push_str(&base.replace('q', &format!("x{rounds}-"))); // more, none judged
            rounds += 1;
        }
        let ids: Vec<&str> = qids.iter().map(String::as_str).collect();
        let offsets: Vec<i64> = ids
            .iter()
            .scan(0i64, |n, q| {
                *n += qrels.iter().filter(|r| r.0 == *q).count() as i64;
                Some(*n)
            })
            .collect();
        let offsets: Vec<i64> = std::iter::once(0).chain(offsets).collect();
        let docs: Vec<&[u8]> = qrels.iter().map(|r| r.1.as_bytes()).collect();
        let grades: Vec<i64> = qrels.iter().map(|r| r.2).collect();
        let index = QrelsIndex::new(&offsets, |r| docs[r], &grades);
        let qb: Vec<&[u8]> = ids.iter().map(|q| q.as_bytes()).collect();
        let mut j = RunJudge::new(&qb, None, false).with_threads(3);
        let bytes = text.as_bytes();
        let mut start = 0;
        while start < bytes.len() {
            let size = if next(2) == 0 {
                100 + next(5000) as usize
            } else {
                PARALLEL_BYTES + 7
            };
            let end = match memchr::memchr(b'\n', &bytes[(start + size).min(bytes.len() - 1)..]) {
                Some(p) => (start + size).min(bytes.len() - 1) + p + 1,
                None => bytes.len(),
            };
            j.feed(&index, &bytes[start..end]).unwrap();
            start = end;
        }
        let mut got = j.take(&index, true).unwrap().judged();
        let run_ids = std::mem::take(&mut got.run_ids);
        let refs: Vec<(&str, &str, i64)> = qrels
            .iter()
            .map(|r| (r.0.as_str(), r.1.as_str(), r.2))
            .collect();
        let want = brute(&text, &refs, &ids);
        assert_eq!(got.qrels_queries, want.qrels_queries);
        assert_eq!(got.offsets, want.offsets);
        let first = (0..want.grades.len()).find(|&k| {
            (got.grades[k], got.scores[k], got.tie_ids[k])
                != (want.grades[k], want.scores[k], want.tie_ids[k])
        });
        assert_eq!(first, None, "first judged row that differs");
        assert_eq!(run_ids.len(), 300 * (1 + rounds));
        assert_eq!(&*run_ids[1], b"q119"); // 7919 % 300
        assert_eq!(&*run_ids[300], b"x0-0");
    }

    #[test]
    fn taken_queries_put_in_order_later_are_numbered_as_at_once() {
        // 30 queries, each judging a (2), b (0), n (-1), c (1), in a shuffled order, of tied
        // scores, judged_only (rows left out leave tie numbers out), taken after every few
        // pieces: judged at once, or kept and judged last first
        let ids: Vec<String> = (0..30).map(|q| format!("q{q:02}")).collect();
        let qb: Vec<&[u8]> = ids.iter().map(|q| q.as_bytes()).collect();
        let docs: [&[u8]; 4] = [b"a", b"b", b"n", b"c"];
        let offsets: Vec<i64> = (0..=30).map(|q| q * 4).collect();
        let grades: Vec<i64> = (0..30).flat_map(|_| [2, 0, -1, 1]).collect();
        let idx = QrelsIndex::new(&offsets, |r| docs[r % 4], &grades);
        let mut next = crate::test_rng::below(0x9e37_79b9_7f4a_7c15);
        let mut pieces = Vec::new();
        for k in 0..30 {
            let q = &ids[(k * 7) % 30];
            let mut piece = String::new();
            for d in ["a", "x", "b", "n", "y", "c"] {
                piece.push_str(&format!("{q} Q0 {d} 0 {} t\n", next(3)));
            }
            pieces.push(piece);
        }
        let mut at_once = Vec::new();
        let mut kept = Vec::new();
        for (keep, out) in [(false, &mut at_once), (true, &mut kept)] {
            let mut j = RunJudge::new(&qb, None, true);
            let mut held = Vec::new();
            for (i, piece) in pieces.iter().enumerate() {
                j.feed(&idx, piece.as_bytes()).unwrap();
                if i % 4 == 3 {
                    held.push(j.take(&idx, false).unwrap());
                }
            }
            held.push(j.take(&idx, true).unwrap());
            if keep {
                let mut judged: Vec<Judged> = held.into_iter().rev().map(Held::judged).collect();
                judged.reverse();
                out.extend(judged);
            } else {
                out.extend(held.into_iter().map(Held::judged));
            }
        }
        assert_eq!(at_once, kept);
        assert!(at_once.len() >= 7);
        // every row in take order, (query, tie group): a query's groups never go down, and
        // the next query's are all above them (each query is in one batch)
        let mut rows: Vec<(i64, i64)> = Vec::new();
        for j in &at_once {
            for (k, &q) in j.qrels_queries.iter().enumerate() {
                for r in j.offsets[k]..j.offsets[k + 1] {
                    rows.push((q, j.tie_ids[r as usize]));
                }
            }
        }
        assert_eq!(rows.len(), 30 * 3); // a, b, c of each query
        for w in rows.windows(2) {
            let ((q0, t0), (q1, t1)) = (w[0], w[1]);
            assert!(if q0 == q1 { t0 <= t1 } else { t0 < t1 }, "{rows:?}");
        }
        assert!(
            rows.windows(2).any(|w| w[1].1 > w[0].1 + 1),
            "a tie number left out"
        );
    }

    #[test]
    fn spare_flats_come_back_empty_with_their_room() {
        let spare = Spare::default();
        assert_eq!(spare.take().grades.capacity(), 0); // none spare: a new one
        let full = |n: usize| Flat {
            grades: vec![1; n],
            scores: vec![0.5; n],
            ties: vec![0; n],
        };
        spare.keep((0..SPARE_FLATS + 5).map(|_| full(100)).collect());
        assert_eq!(spare.0.lock().unwrap().len(), SPARE_FLATS);
        for _ in 0..SPARE_FLATS {
            let f = spare.take();
            assert_eq!((f.grades.len(), f.scores.len(), f.ties.len()), (0, 0, 0));
            assert!(f.grades.capacity() >= 100 && f.ties.capacity() >= 100);
        }
        assert_eq!(spare.take().grades.capacity(), 0);
        // a pass's taken rows judged, their flats spare for the next parts
        let idx = index();
        let mut j = RunJudge::new(&[b"q1", b"q2"], None, false);
        j.feed(&idx, b"q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq2 Q0 c 1 1 t\n")
            .unwrap();
        assert_eq!(j.held(), 2); // q2's block may go on
        let first = j.take(&idx, false).unwrap().judged();
        assert_eq!(first.grades, vec![2, 0]);
        assert!(!j.spare.0.lock().unwrap().is_empty());
        j.feed(&idx, b"q3 Q0 a 1 2 t\n").unwrap();
        assert_eq!(j.held(), 1); // q2's row only: q3's part was read into an emptied flat
        assert_eq!(j.take(&idx, true).unwrap().judged().grades, vec![1]);
    }

    #[test]
    fn a_stopped_pass_stays_stopped() {
        let idx = index();
        let mut j = RunJudge::new(&[b"q1", b"q2"], None, false);
        let text: &[u8] = b"q1 Q0 a 1 2 t\nq2 Q0 c 1 1 t\nq1 Q0 b 1 1 t\n";
        assert_eq!(j.feed(&idx, text), Err(Stop::NotGrouped));
        assert_eq!(j.feed(&idx, b"q3 Q0 a 1 2 t\n"), Err(Stop::NotGrouped));
        assert_eq!(j.take(&idx, true).err(), Some(Stop::NotGrouped));
        let mut c = crate::run_collect::RunCollect::new(&[b"q1", b"q2"], None, false, 10);
        assert_eq!(c.feed(b"q1 Q0 a 1 x t\n").unwrap_err().name(), "parse");
        assert_eq!(c.feed(b"q1 Q0 a 1 2 t\n").unwrap_err().name(), "parse");
        assert_eq!(c.take(&idx).unwrap_err().name(), "parse");
    }

    /// The judgment of one query by a full sort (each tie group sorted by document id, as
    /// `rank_segment` ranks it), cut at `depth`, `judged_only` applied: what `judge_query`
    /// gave before it ordered tie groups by their grades.
    fn fully_sorted(rules: Rules<'_>, docs: &[&[u8]], scores: &[f64]) -> Flat {
        let mut rank: Vec<i64> = (0..docs.len() as i64).collect();
        crate::judge::rank_segment(&mut rank, scores, &|r| docs[r], &mut Vec::new());
        rank.truncate(rules.depth.unwrap_or(usize::MAX));
        let table = rules.index.table(0);
        let mut out = Flat::default();
        let mut tie = -1;
        for k in 0..rank.len() {
            if crate::judge::starts_group(&rank, scores, k) {
                tie += 1;
            }
            let r = rank[k] as usize;
            let grade = judged_grade(table.as_ref(), docs[r], hash_of(docs[r]));
            if !(rules.judged_only && grade < 0) {
                out.grades.push(grade);
                out.scores.push(scores[r]);
                out.ties.push(tie);
            }
        }
        out
    }

    #[test]
    fn tie_groups_come_out_as_a_full_sort_puts_them() {
        // one query, 3,000 times: 1 to 60 documents drawn from ids that share 8 bytes or
        // more, are prefixes of one another, or are short; few scores (ties, -0.0 beside
        // 0.0, NaN); qrels judging none, 5%, half or all of the ids (grades -1 to 3); cut at
        // a depth or not, judged_only or not
        let mut next = crate::test_rng::below(0x9e37_79b9_7f4a_7c15);
        let mut ids: Vec<Vec<u8>> = Vec::new();
        for n in 0..40 {
            ids.push(format!("GX000-00-{n:07}").into_bytes());
            ids.push(format!("d{n}").into_bytes());
            ids.push(format!("abcdefgh{}", "x".repeat(n % 4)).into_bytes());
        }
        ids.extend([&b"ab"[..], b"ab0", b"abcdefg", b"\xff", b"z"].map(<[u8]>::to_vec));
        ids.sort();
        ids.dedup();
        let values = [0.0, -0.0, 1.0, 2.5, f64::NAN, f64::INFINITY, -1.0];
        let queries = query_map(&[b"q0"]);
        let mut paths = [0usize; 3]; // tie groups kept, counted, sorted
        for _ in 0..3000 {
            let density = [0, 5, 50, 100][next(4) as usize];
            let mut judged: Vec<(&[u8], i64)> = Vec::new();
            for id in &ids {
                if next(100) < density {
                    judged.push((id, next(5) as i64 - 1));
                }
            }
            let index = QrelsIndex::new(
                &[0, judged.len() as i64],
                |r| judged[r].0,
                &judged.iter().map(|j| j.1).collect::<Vec<_>>(),
            );
            let mut order: Vec<usize> = (0..ids.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i as u64 + 1) as usize);
            }
            let n = 1 + next(60) as usize;
            let docs: Vec<&[u8]> = order[..n].iter().map(|&i| ids[i].as_slice()).collect();
            let kinds = 1 + next(3) as usize; // of the values, how many a query draws from
            let scores: Vec<f64> = (0..n)
                .map(|_| values[next(kinds as u64 * 2 + 1) as usize % values.len()])
                .collect();
            let rules = Rules {
                queries: &queries,
                index: &index,
                depth: (next(3) == 0).then(|| 1 + next(70) as usize),
                judged_only: next(2) == 0,
            };
            let mut got = Flat::default();
            judge_query(
                rules,
                b"q0",
                &docs,
                &scores,
                None,
                &mut Scratch::default(),
                &mut got,
            )
            .unwrap();
            let want = fully_sorted(rules, &docs, &scores);
            let bits = |f: &Flat| f.scores.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                (&got.grades, bits(&got), &got.ties),
                (&want.grades, bits(&want), &want.ties),
                "{docs:?} {scores:?} {judged:?}"
            );
            // which way each tie group of the full sort would be ordered
            let mut rank: Vec<i64> = (0..n as i64).collect();
            crate::judge::rank_by_score(&mut rank, &scores, &mut Vec::new());
            let mut k = 0;
            while k < n {
                let e = group_end(&rank, &scores, k);
                let table = index.table(0);
                let grades: Vec<i64> = rank[k..e]
                    .iter()
                    .map(|&r| {
                        let d = docs[r as usize];
                        judged_grade(table.as_ref(), d, hash_of(d))
                    })
                    .collect();
                if e - k > 1 {
                    paths[match tie_order(&rank[k..e], &grades, &scores) {
                        TieOrder::Kept => 0,
                        TieOrder::Counted => 1,
                        TieOrder::Sorted => 2,
                    }] += 1;
                }
                k = e;
            }
        }
        eprintln!("tie groups kept, counted, sorted: {paths:?}");
        assert!(
            paths.iter().all(|&p| p > 500),
            "tie groups kept, counted, sorted: {paths:?}"
        );
    }

    #[test]
    fn depth_then_judged_only() {
        let text: &[u8] = b"q1 Q0 z 1 9 t\nq1 Q0 a 2 8 t\nq1 Q0 b 3 7 t\n";
        let got = judge(&[text], Some(2), true).unwrap();
        assert_eq!(got.grades, vec![2]); // z unjudged and dropped, b past the depth
        assert_eq!(got.tie_ids, vec![1]);
    }

    #[test]
    fn what_stops_the_pass() {
        let stop = |t: &[u8]| judge(&[t], None, false).unwrap_err();
        assert_eq!(
            stop(b"q1 Q0 a 1 2 t\nq2 Q0 c 1 1 t\nq1 Q0 b 1 1 t\n"),
            Stop::NotGrouped
        );
        assert_eq!(stop(b"q1 Q0 a 1 2 t\nq1 Q0 a 2 1 t\n"), Stop::Duplicate);
        assert_eq!(
            stop(b"q2 Q0 b 1 2 t\nq2 Q0 a 2 3 t\nq2 Q0 b 3 1 t\n"),
            Stop::Duplicate
        );
        assert_eq!(stop(b"q1 Q0 a\x01 1 2 t\n"), Stop::BadId);
        assert_eq!(stop("q1 Q0 a\u{85} 1 2 t\n".as_bytes()), Stop::BadId);
        assert_eq!(stop(b"# nothing\n\n"), Stop::Empty);
        assert!(matches!(stop(b"q1 Q0 a 1 x t\n"), Stop::Parse(_)));
        // a non-ASCII id that is not a control character is an id
        assert!(judge(&["q1 Q0 \u{e9}\u{a0} 1 2 t\n".as_bytes()], None, false).is_ok());
    }
}
