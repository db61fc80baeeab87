//! A TREC run that is not grouped by query, judged by the compiled core: its results are
//! collected as the pieces are read (each piece's parts on all threads: the documents copied
//! into one buffer, each result's query a number; no string per row), then, once the text
//! has ended, grouped by query (a counting sort) and each query judged as
//! [`crate::run_judge`] judges a grouped one (duplicates, `trec` order, depth, qrels
//! lookup), on all its threads, in batches of about `rows` judged rows.
//!
//! It takes over where [`crate::run_judge::RunJudge`] stops with [`Stop::NotGrouped`]: the
//! caller reads the text again from its start with a `RunCollect`.  What it cannot settle
//! stops it as the grouped pass does, and the whole-file reader takes over.

use std::sync::Arc;

use crate::judge::{QrelsIndex, hash_of};
use crate::run_judge::{
    Batch, Flat, FxMap, Judged, PARALLEL_BYTES, QueryMap, Rules, Scratch, Stop, assemble, bad_id,
    clean_text, cut, judge_query, kept, not_stopped, query_map,
};
use crate::threads;
use crate::trec::{Counts, each_run_row};

/// A part of a piece read (in parallel with the others): its queries (in order of first
/// appearance in the part), each result's query (an index into them), document (in `arena`)
/// and [`Row`], its data lines and its last tag.
#[derive(Default)]
struct Part<'d> {
    queries: Vec<&'d [u8]>,
    slots: Vec<u32>,
    arena: Vec<u8>,
    rows: Vec<Row>,
    counts: Counts,
    tag: Option<&'d [u8]>,
}

/// A result as collected: where its document ends in its chunk's arena, the top 32 bits of
/// the document's [`hash_of`] (made while its bytes are at hand: judging a query then reads
/// its documents' bytes only where two hashes meet, not from all over the collection), and
/// its score; one cache line's quarter.
#[derive(Clone, Copy)]
struct Row {
    end: u32,
    hash: u32,
    score: f64,
}

/// An id of at most 7 bytes as one integer (its bytes, then its length): two such ids are
/// equal exactly when their integers are; `None` for a longer id.
#[inline]
fn packed(id: &[u8]) -> Option<u64> {
    if id.len() > 7 {
        return None;
    }
    let mut w = [0u8; 8];
    w[..id.len()].copy_from_slice(id);
    w[7] = id.len() as u8;
    Some(u64::from_le_bytes(w))
}

fn parse_part(part: &[u8]) -> Result<Part<'_>, Stop> {
    if !clean_text(part) {
        return Err(Stop::Text);
    }
    let mut out = Part::default();
    // the part's queries by id: short ids (most query ids) by their packed integer, with no
    // byte comparison; longer ones by their bytes
    let mut short: FxMap<u64, u32> = FxMap::default();
    let mut long: FxMap<&[u8], u32> = FxMap::default();
    let mut last: Option<(&[u8], u32)> = None;
    let mut counts = Counts::default();
    out.arena.reserve(part.len() / 4);
    let rows = part.len() / 32;
    out.slots.reserve(rows);
    out.rows.reserve(rows);
    each_run_row(part, &mut counts, |row| {
        if bad_id(row.doc) {
            return Err(Stop::BadId);
        }
        let slot = match last {
            Some((q, k)) if q == row.query => k,
            _ => {
                let next = out.queries.len() as u32;
                let k = match packed(row.query) {
                    Some(key) => *short.entry(key).or_insert(next),
                    None => *long.entry(row.query).or_insert(next),
                };
                if k == next {
                    out.queries.push(row.query);
                }
                k
            }
        };
        last = Some((row.query, slot));
        out.slots.push(slot);
        out.arena.extend_from_slice(row.doc);
        out.rows.push(Row {
            // a part's documents of 4 GiB or more: beyond what the collection counts
            end: u32::try_from(out.arena.len()).map_err(|_| Stop::Limit)?,
            hash: (hash_of(row.doc) >> 32) as u32,
            score: row.score,
        });
        out.tag = Some(row.tag);
        Ok(())
    })?;
    out.counts = counts;
    Ok(out)
}

/// The collected results grouped by query: the slots in the order they are judged, where
/// each slot's results start, and each result (its chunk, its row there).
type Grouped = (Vec<u32>, Vec<usize>, Vec<(u32, u32)>);

/// The results of one part of a piece: each one's query (its slot), document (in `arena`)
/// and [`Row`].
struct Chunk {
    slots: Vec<u32>,
    arena: Vec<u8>,
    rows: Vec<Row>,
}

/// The collection: every result (its query's slot, its document, its score) in file order,
/// then the judged batches.
pub struct RunCollect {
    qrels_queries: Arc<QueryMap>,
    depth: Option<usize>,
    judged_only: bool,
    rows: usize,
    /// Query id -> its slot; the slots' ids, in order of first appearance.
    slots: FxMap<Box<[u8]>, u32>,
    queries: Vec<Box<[u8]>>,
    /// The results, in file order, in the chunks the parts were read into (kept as they
    /// are: no copy into one growing buffer), and how many there are.
    chunks: Vec<Chunk>,
    collected: usize,
    /// Once the text has ended: the slots in the order they are judged (the qrels' order,
    /// then the queries the qrels do not judge), the results of slot `k` at
    /// `by_slot[starts[k]..starts[k + 1]]` (file order, each a chunk and a row in it), and
    /// the next slot to judge.
    order: Option<Grouped>,
    next: usize,
    next_tie: i64,
    tag: Vec<u8>,
    counts: Counts,
    threads: usize,
    stopped: Option<Stop>,
}

impl RunCollect {
    /// A collection judged against a qrels whose query `i` is `qrels_query_ids[i]`, in
    /// batches of about `rows` judged rows.
    pub fn new(
        qrels_query_ids: &[&[u8]],
        depth: Option<usize>,
        judged_only: bool,
        rows: usize,
    ) -> Self {
        let queries = Arc::new(query_map(qrels_query_ids));
        Self::with_queries(queries, depth, judged_only, rows)
    }

    /// The same, with the qrels' [`QueryMap`] made already.
    pub fn with_queries(
        qrels_queries: Arc<QueryMap>,
        depth: Option<usize>,
        judged_only: bool,
        rows: usize,
    ) -> Self {
        RunCollect {
            qrels_queries,
            depth,
            judged_only,
            rows: rows.max(1),
            slots: FxMap::default(),
            queries: Vec::new(),
            chunks: Vec::new(),
            collected: 0,
            order: None,
            next: 0,
            next_tie: 0,
            tag: Vec::new(),
            counts: Counts::default(),
            threads: threads::available(),
            stopped: None,
        }
    }

    /// The collection on `threads` threads (at least 1) instead of one per core.
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The last result's tag.
    pub fn tag(&self) -> &[u8] {
        &self.tag
    }

    /// The lines of the text read so far, as the whole-file reader counts them.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Read the next piece of the text (whole lines; the first without its BOM).
    pub fn feed(&mut self, data: &[u8]) -> Result<(), Stop> {
        not_stopped(&self.stopped)?;
        let result = self.read(data);
        kept(&mut self.stopped, result)
    }

    fn read(&mut self, data: &[u8]) -> Result<(), Stop> {
        if data.is_empty() {
            return Ok(()); // no line at all (a text's lines never end in an empty piece)
        }
        if self.order.is_some() {
            return Err(Stop::Limit); // fed after its end: a misuse, stopped
        }
        let threads = if data.len() >= PARALLEL_BYTES {
            self.threads
        } else {
            1
        };
        let parts = cut(data, threads);
        let parsed = threads::map(&parts, threads, || (), |(), p| parse_part(p));
        for got in parsed {
            let part = got?;
            self.counts.then(&part.counts);
            if let Some(t) = part.tag {
                self.tag.clear();
                self.tag.extend_from_slice(t);
            }
            let mut global = Vec::with_capacity(part.queries.len());
            for q in &part.queries {
                global.push(self.slot(q)?);
            }
            let mut slots = part.slots;
            for k in &mut slots {
                *k = global[*k as usize];
            }
            self.collected += slots.len();
            if u32::try_from(self.chunks.len()).is_err() {
                return Err(Stop::Limit); // more chunks than a u32 counts
            }
            self.chunks.push(Chunk {
                slots,
                arena: part.arena,
                rows: part.rows,
            });
        }
        Ok(())
    }

    fn slot(&mut self, query: &[u8]) -> Result<u32, Stop> {
        if let Some(&k) = self.slots.get(query) {
            return Ok(k);
        }
        if bad_id(query) {
            return Err(Stop::BadId);
        }
        let k = u32::try_from(self.queries.len()).map_err(|_| Stop::Limit)?;
        self.slots.insert(Box::from(query), k);
        self.queries.push(Box::from(query));
        Ok(k)
    }

    /// The text has ended: the next batch of judged queries (in the qrels' order), and
    /// whether more follow.  The first batch holds the run's query ids (in order of first
    /// appearance); a text without a result stops the collection.
    pub fn take(&mut self, index: &QrelsIndex) -> Result<(Judged, bool), Stop> {
        not_stopped(&self.stopped)?;
        let result = self.judge_next(index);
        kept(&mut self.stopped, result)
    }

    /// The results grouped by slot (a counting sort, file order kept within a slot) and the
    /// order the slots are judged in.
    fn group(&self) -> Grouped {
        let n = self.queries.len();
        let mut starts = vec![0usize; n + 1];
        for chunk in &self.chunks {
            for &k in &chunk.slots {
                starts[k as usize + 1] += 1;
            }
        }
        for k in 0..n {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut by_slot = vec![(0u32, 0u32); self.collected];
        for (c, chunk) in self.chunks.iter().enumerate() {
            for (r, &k) in chunk.slots.iter().enumerate() {
                by_slot[next[k as usize]] = (c as u32, r as u32);
                next[k as usize] += 1;
            }
        }
        let qrels = &self.qrels_queries;
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&k| {
            qrels
                .get(&self.queries[k as usize])
                .map_or(usize::MAX, |&q| q)
        });
        (order, starts, by_slot)
    }

    fn judge_next(&mut self, index: &QrelsIndex) -> Result<(Judged, bool), Stop> {
        let mut run_ids = Vec::new();
        if self.order.is_none() {
            if self.counts.data == 0 {
                return Err(Stop::Empty);
            }
            if u32::try_from(self.collected).is_err() {
                return Err(Stop::Limit); // more results than a u32 counts: the whole-file reader
            }
            self.order = Some(self.group());
            run_ids = self.queries.clone();
        }
        let Some((order, starts, by_slot)) = &self.order else {
            return Err(Stop::Empty);
        };
        let first = self.next;
        let mut last = first;
        let mut rows = 0;
        while last < order.len() && (last == first || rows < self.rows) {
            let k = order[last] as usize;
            rows += starts[k + 1] - starts[k];
            last += 1;
        }
        let rules = Rules {
            queries: &self.qrels_queries,
            index,
            depth: self.depth,
            judged_only: self.judged_only,
        };
        let (chunks, queries) = (&self.chunks, &self.queries);
        let one = |s: &mut Scratch, &k: &u32| {
            let k = k as usize;
            let results = &by_slot[starts[k]..starts[k + 1]];
            let mut docs = Vec::with_capacity(results.len());
            let mut sc = Vec::with_capacity(results.len());
            let mut hashes = Vec::with_capacity(results.len());
            for &(c, r) in results {
                let (chunk, r) = (&chunks[c as usize], r as usize);
                let a = if r == 0 {
                    0
                } else {
                    chunk.rows[r - 1].end as usize
                };
                let row = chunk.rows[r];
                docs.push(&chunk.arena[a..row.end as usize]);
                sc.push(row.score);
                hashes.push(u64::from(row.hash) << 32);
            }
            let mut out = Flat::default();
            let done = judge_query(rules, &queries[k], &docs, &sc, Some(&hashes), s, &mut out)?;
            Ok::<_, Stop>((done, out))
        };
        let threads = if rows >= PARALLEL_BYTES / 32 {
            self.threads
        } else {
            1
        };
        let judged = threads::map(&order[first..last], threads, Scratch::default, one);
        let mut batch = Batch::default();
        for got in judged {
            let (d, out) = got?;
            batch.add(out, d);
        }
        self.next = last;
        let more = last < order.len();
        if !more {
            // all judged: the results' memory goes back
            self.chunks = Vec::new();
        }
        let out = assemble(&mut batch, &mut self.next_tie, run_ids);
        Ok((out, more))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{NOT_IN_QRELS, UNJUDGED};
    use crate::run_judge::RunJudge;

    fn index() -> QrelsIndex {
        // qrels query 0 ("q1") judges a (2), b (0), n (-1); query 1 ("q2") judges c (1)
        let docs: [&[u8]; 4] = [b"a", b"b", b"n", b"c"];
        QrelsIndex::new(&[0, 3, 4], |r| docs[r], &[2, 0, -1, 1])
    }

    fn collect(text: &[&[u8]], rows: usize) -> Result<Vec<(Judged, bool)>, Stop> {
        let idx = index();
        let mut c = RunCollect::new(&[b"q1", b"q2"], None, false, rows);
        for piece in text {
            c.feed(piece)?;
        }
        let mut out = vec![c.take(&idx)?];
        while out.last().is_some_and(|(_, more)| *more) {
            out.push(c.take(&idx)?);
        }
        Ok(out)
    }

    #[test]
    fn packed_ids_are_equal_exactly_when_the_ids_are() {
        // every id of 0 to 3 bytes over an alphabet with a NUL, and longer ones with the
        // same prefixes; ids of 8 bytes or more are not packed
        let alphabet: [u8; 4] = [0, b'1', b'q', 0xff];
        let mut ids: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=3u32 {
            for code in 0..4usize.pow(len) {
                ids.push(
                    (0..len)
                        .map(|i| alphabet[code / 4usize.pow(i) % 4])
                        .collect(),
                );
            }
        }
        for base in [b"abcdef".as_slice(), b"abcdef\0", b"abcdefg", b"abcdefgh"] {
            ids.push(base.to_vec());
        }
        for a in &ids {
            assert_eq!(packed(a).is_some(), a.len() <= 7);
            for b in &ids {
                if let (Some(x), Some(y)) = (packed(a), packed(b)) {
                    assert_eq!(x == y, a == b, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn queries_with_short_and_long_ids_interleaved() {
        // ids of 7 bytes (packed) and 8 (by their bytes) sharing a prefix, and q1 and q2
        let idx = index();
        let mut c = RunCollect::new(&[b"q1", b"q2"], None, false, 100);
        let text: &[u8] = b"q1234567 Q0 a 1 1 t\nq1 Q0 a 1 2 t\nq123456 Q0 a 1 3 t\n\
            q1234567 Q0 b 2 0.5 t\nq2 Q0 c 1 1 t\nq123456 Q0 b 2 0.5 t\nq1 Q0 b 2 1 t\n";
        c.feed(text).unwrap();
        let (j, more) = c.take(&idx).unwrap();
        assert!(!more);
        let ids: Vec<&[u8]> = j.run_ids.iter().map(|q| &q[..]).collect();
        assert_eq!(ids, vec![&b"q1234567"[..], b"q1", b"q123456", b"q2"]);
        assert_eq!(j.qrels_queries, vec![0, 1]);
        assert_eq!(j.offsets, vec![0, 2, 3]);
        assert_eq!(j.grades, vec![2, 0, 1]);
    }

    #[test]
    fn interleaved_queries_judged_as_if_grouped() {
        let shuffled: &[u8] = b"q2 Q0 c 1 5 t\nq1 Q0 a 1 2 t\nq3 Q0 a 1 9 t\nq2 Q0 x 2 4 t\n";
        let rest: &[u8] = b"q1 Q0 b 2 3 t\nq1 Q0 n 3 2 u\n";
        let got = collect(&[shuffled, rest], 100).unwrap();
        assert_eq!(got.len(), 1);
        let (j, more) = &got[0];
        assert!(!more);
        assert_eq!(j.qrels_queries, vec![0, 1]);
        assert_eq!(j.offsets, vec![0, 3, 5]);
        assert_eq!(j.grades, vec![0, UNJUDGED, 2, 1, NOT_IN_QRELS]);
        assert_eq!(j.scores, vec![3.0, 2.0, 2.0, 5.0, 4.0]);
        assert_eq!(j.tie_ids, vec![0, 1, 1, 2, 3]);
        let ids: Vec<&[u8]> = j.run_ids.iter().map(|q| &**q).collect();
        assert_eq!(ids, vec![&b"q2"[..], b"q1", b"q3"]);
        // the same text grouped: the grouped pass gives the same judgments
        let idx = index();
        let mut g = RunJudge::new(&[b"q1", b"q2"], None, false);
        g.feed(
            &idx,
            b"q2 Q0 c 1 5 t\nq2 Q0 x 2 4 t\nq1 Q0 a 1 2 t\nq1 Q0 b 2 3 t\n",
        )
        .unwrap();
        g.feed(&idx, b"q1 Q0 n 3 2 u\nq3 Q0 a 1 9 t\n").unwrap();
        let want = g.take(&idx, true).unwrap().judged();
        assert_eq!(
            (&j.grades, &j.scores, &j.tie_ids),
            (&want.grades, &want.scores, &want.tie_ids)
        );
    }

    #[test]
    fn batches_of_about_rows_and_what_stops_it() {
        // one query per batch when a batch holds one row
        let text: &[u8] = b"q2 Q0 c 1 5 t\nq1 Q0 a 1 2 t\nq2 Q0 x 2 4 t\n";
        let got = collect(&[text], 1).unwrap();
        let shape: Vec<(Vec<i64>, bool)> = got
            .iter()
            .map(|(j, more)| (j.qrels_queries.clone(), *more))
            .collect();
        assert_eq!(shape, vec![(vec![0], true), (vec![1], false)]);
        assert_eq!(got[0].0.run_ids.len(), 2);
        assert!(got[1].0.run_ids.is_empty());
        assert_eq!(got[1].0.tie_ids, vec![1, 2]); // numbered on across batches
        let stop = |t: &[u8]| collect(&[t], 10).unwrap_err();
        assert_eq!(
            stop(b"q1 Q0 a 1 2 t\nq2 Q0 c 1 1 t\nq1 Q0 a 1 1 t\n"),
            Stop::Duplicate
        );
        assert_eq!(
            stop(b"q9 Q0 a 1 2 t\nq2 Q0 c 1 1 t\nq9 Q0 a 1 1 t\n"),
            Stop::Duplicate
        );
        assert_eq!(stop(b"q\x7f1 Q0 a 1 2 t\n"), Stop::BadId);
        assert_eq!(stop(b"\n# a comment\n"), Stop::Empty);
        assert!(matches!(stop(b"q1 Q0 a 1 2\n"), Stop::Parse(_)));
    }
}
