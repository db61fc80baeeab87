//! The promises of cranfield's core as a parser of hostile input, checked against a
//! brute-force reading of the same bytes.
//!
//! Each `check_*` function takes any bytes, runs the core on them and panics (a finding) when
//! the core panics or its answer differs from what this module reads in the text by the rules
//! of `docs/input.md`, written here again the plain way: lines split at LF, fields at the six
//! C `isspace` bytes, numbers by Rust's own `str::parse` (`i64` for grades and ranks, `f64` for
//! scores, which reads what Python's `float` reads from ASCII without `_`).  What is checked:
//!
//! - every line is counted once, as data, comment or blank, and there is one row per data
//!   line; extra-field lines are counted, the first one kept;
//! - the rows hold the text's own tokens: query ids interned in order of first appearance,
//!   documents as an Arrow string column (offsets from 0, nondecreasing, ending at the bytes'
//!   length), scores bit for bit, ranks up to the first that is not an integer, the tag of the
//!   last row, line numbers kept exactly when a row's line is not its number + 1;
//! - qrels sorted by query then document in byte order, stable, with offsets per query;
//! - an error is the first problem of the text, with its kind, line, the line's bytes and
//!   the field; a text without data lines is `Empty`;
//! - the join (`judge.rs`) gives each run row the first grade of its (query, document) in the
//!   qrels (negative: `UNJUDGED`), `NOT_IN_QRELS` where they do not judge it.
//!
//! The fuzz targets (`fuzz_targets/`) call these on libFuzzer's inputs; `rust/tests/hostile.rs`
//! includes this file and calls them on the kept findings and on generated mutations.

use _core::judge::{NOT_IN_QRELS, QrelsIndex, UNJUDGED, grades};
use _core::numbers::{is_int, is_score, parse_int, parse_score};
use _core::trec::{Counts, ErrorKind, ParseError, read_qrels, read_run};

const RUN_FIELDS: usize = 6;
const QRELS_FIELDS: usize = 4;

fn space(b: u8) -> bool {
    b" \t\n\x0b\x0c\r".contains(&b)
}

/// (start, end) of each line: split at LF; a final LF ends the last line; no text is one
/// (blank) line.
fn lines(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    if start < data.len() || out.is_empty() {
        out.push((start, data.len()));
    }
    out
}

/// The fields of `data[start..end]`.
fn fields(data: &[u8], start: usize, end: usize) -> Vec<&[u8]> {
    data[start..end]
        .split(|&b| space(b))
        .filter(|f| !f.is_empty())
        .collect()
}

/// `[+-]?[0-9]+`, any length.
fn integer_syntax(tok: &[u8]) -> bool {
    let digits = tok
        .strip_prefix(b"+")
        .or(tok.strip_prefix(b"-"))
        .unwrap_or(tok);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

fn int_value(tok: &[u8]) -> Option<i64> {
    std::str::from_utf8(tok).ok()?.parse().ok()
}

fn score_value(tok: &[u8]) -> Option<f64> {
    if !tok.is_ascii() {
        return None;
    }
    std::str::from_utf8(tok).ok()?.parse().ok()
}

fn same_double(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The core's number readers against `str::parse`.
pub fn check_numbers(tok: &[u8]) {
    assert_eq!(is_int(tok), integer_syntax(tok), "is_int({tok:?})");
    assert_eq!(parse_int(tok), int_value(tok), "parse_int({tok:?})");
    let want = score_value(tok);
    assert_eq!(is_score(tok), want.is_some(), "is_score({tok:?})");
    match (parse_score(tok), want) {
        (Some(got), Some(want)) => assert!(same_double(got, want), "{tok:?}: {got} != {want}"),
        (got, want) => assert_eq!(got.is_some(), want.is_some(), "parse_score({tok:?})"),
    }
}

struct Line<'a> {
    number: u64,
    start: usize,
    end: usize,
    f: Vec<&'a [u8]>,
}

enum Kind {
    Blank,
    Comment,
    Data,
}

/// Classify each line; the first problem (from `problem`) is the text's error.
fn read<'a>(
    data: &'a [u8],
    problem: impl Fn(&[&[u8]]) -> Option<(ErrorKind, usize)>,
    hidden: impl Fn(&[&[u8]]) -> bool,
) -> Result<(Vec<Line<'a>>, Counts), ParseError> {
    let mut rows = Vec::new();
    let mut counts = Counts::default();
    for (i, &(start, end)) in lines(data).iter().enumerate() {
        let number = i as u64 + 1;
        counts.lines = number;
        let f = fields(data, start, end);
        let kind = match f.first() {
            None => Kind::Blank,
            Some(first) if first[0] == b'#' => {
                if hidden(&f) {
                    return Err(ParseError {
                        kind: ErrorKind::Hidden,
                        line: number,
                        start,
                        end,
                        field: 0,
                    });
                }
                Kind::Comment
            }
            Some(_) => Kind::Data,
        };
        match kind {
            Kind::Blank => counts.blank += 1,
            Kind::Comment => counts.comments += 1,
            Kind::Data => {
                if let Some((kind, field)) = problem(&f) {
                    return Err(ParseError {
                        kind,
                        line: number,
                        start,
                        end,
                        field,
                    });
                }
                rows.push(Line {
                    number,
                    start,
                    end,
                    f,
                });
            }
        }
    }
    if rows.is_empty() {
        return Err(ParseError {
            kind: ErrorKind::Empty,
            line: 0,
            start: 0,
            end: 0,
            field: 0,
        });
    }
    counts.data = rows.len() as u64;
    Ok((rows, counts))
}

/// Fields `k..k + 6` have the shape of a result.
fn result_at(f: &[&[u8]], k: usize) -> bool {
    integer_syntax(f[k + 3]) && score_value(f[k + 4]).is_some()
}

fn expect_run(data: &[u8]) -> Result<(Vec<Line<'_>>, Counts), ParseError> {
    let (rows, mut counts) = read(
        data,
        |f| {
            if f.len() < RUN_FIELDS {
                return Some((ErrorKind::Columns, 0));
            }
            // a second result: its iteration token again, then a rank and a score
            let second = (RUN_FIELDS - 1..f.len())
                .take_while(|k| k + RUN_FIELDS <= f.len())
                .find(|&k| f[k + 1] == f[1] && result_at(f, k));
            if let Some(k) = second {
                return Some((ErrorKind::Joined, k));
            }
            if score_value(f[4]).is_none() {
                return Some((ErrorKind::Score, 4));
            }
            None
        },
        |f| f.len() >= RUN_FIELDS && result_at(f, 0),
    )?;
    for r in &rows {
        if r.f.len() > RUN_FIELDS {
            counts.extra += 1;
            counts.first_extra.get_or_insert(r.number);
        }
    }
    Ok((rows, counts))
}

fn check_counts(c: &Counts) {
    assert_eq!(
        c.lines,
        c.data + c.comments + c.blank,
        "a line not counted: {c:?}"
    );
    assert!(c.extra <= c.data, "{c:?}");
    assert_eq!(c.first_extra.is_some(), c.extra > 0, "{c:?}");
}

/// `read_run` against the brute-force reading.
pub fn check_run(data: &[u8]) {
    let got = read_run(data);
    let (rows, counts) = match expect_run(data) {
        Err(want) => {
            assert_eq!(got.err(), Some(want), "the first problem");
            return;
        }
        Ok(want) => want,
    };
    let run = match got {
        Ok(run) => run,
        Err(e) => panic!("read_run rejected a valid run: {e:?}"),
    };
    check_counts(&run.counts);
    assert_eq!(run.counts, counts);
    let n = rows.len();
    // query ids interned in order of first appearance
    let mut qids: Vec<&[u8]> = Vec::new();
    for r in &rows {
        if !qids.contains(&r.f[0]) {
            qids.push(r.f[0]);
        }
    }
    assert_eq!(run.query_ids, qids);
    assert_eq!(run.qcodes.len(), n);
    assert_eq!(run.doc_offsets.len(), n + 1);
    assert_eq!(run.doc_offsets[0], 0);
    assert_eq!(run.doc_offsets[n], run.doc_bytes.len() as i64);
    assert_eq!(run.scores.len(), n);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(run.query_ids[run.qcodes[i] as usize], r.f[0], "row {i}");
        let (a, b) = (run.doc_offsets[i], run.doc_offsets[i + 1]);
        assert!(0 <= a && a <= b, "offsets {a} {b}");
        assert_eq!(&run.doc_bytes[a as usize..b as usize], r.f[2], "row {i}");
        let want = score_value(r.f[4]).unwrap();
        assert!(
            same_double(run.scores[i], want),
            "row {i}: {}",
            run.scores[i]
        );
    }
    let mut ranks = Vec::new();
    let mut problem = None;
    for r in &rows {
        match int_value(r.f[3]) {
            Some(v) => ranks.push(v),
            None => {
                problem = Some((r.number, r.f[3]));
                break;
            }
        }
    }
    assert_eq!(run.ranks, ranks);
    assert_eq!(run.rank_problem, problem);
    assert_eq!(run.tag, rows[n - 1].f[5]);
    let numbers: Vec<i64> = rows.iter().map(|r| r.number as i64).collect();
    let plain = numbers.iter().enumerate().all(|(i, &l)| l == i as i64 + 1);
    assert_eq!(run.lines.lines, if plain { None } else { Some(numbers) });
    // each row's line is whole in the text
    for r in &rows {
        assert!(r.start <= r.end && r.end <= data.len());
    }
}

fn expect_qrels(data: &[u8]) -> Result<(Vec<Line<'_>>, Counts), ParseError> {
    read(
        data,
        |f| {
            if f.len() != QRELS_FIELDS {
                Some((ErrorKind::Columns, 0))
            } else if int_value(f[3]).is_none() {
                Some((ErrorKind::Grade, 3))
            } else {
                None
            }
        },
        |f| f.len() == QRELS_FIELDS && integer_syntax(f[3]),
    )
}

/// The qrels rows as `Qrels` keeps them: (query, document, grade, line), stably sorted.
fn sorted_judgments<'a>(rows: &[Line<'a>]) -> Vec<(&'a [u8], &'a [u8], i64, i64)> {
    let mut want: Vec<_> = rows
        .iter()
        .map(|r| (r.f[0], r.f[2], int_value(r.f[3]).unwrap(), r.number as i64))
        .collect();
    want.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    want
}

/// `read_qrels` against the brute-force reading.
pub fn check_qrels(data: &[u8]) {
    let got = read_qrels(data);
    let (rows, counts) = match expect_qrels(data) {
        Err(want) => {
            assert_eq!(got.err(), Some(want), "the first problem");
            return;
        }
        Ok(want) => want,
    };
    let q = match got {
        Ok(q) => q,
        Err(e) => panic!("read_qrels rejected valid qrels: {e:?}"),
    };
    check_counts(&q.counts);
    assert_eq!(q.counts, counts);
    assert_eq!(q.counts.extra, 0);
    let want = sorted_judgments(&rows);
    let mut qids: Vec<&[u8]> = want.iter().map(|w| w.0).collect();
    qids.dedup();
    assert_eq!(q.query_ids, qids);
    let mut offsets = vec![0i64];
    for id in &qids {
        let k = want.iter().filter(|w| w.0 == *id).count() as i64;
        offsets.push(offsets.last().unwrap() + k);
    }
    assert_eq!(q.offsets, offsets);
    let docs: Vec<&[u8]> = want.iter().map(|w| w.1).collect();
    assert_eq!(q.doc_ids, docs);
    let grades: Vec<i64> = want.iter().map(|w| w.2).collect();
    assert_eq!(q.grades, grades);
    let lines: Vec<i64> = want.iter().map(|w| w.3).collect();
    assert_eq!(q.lines, lines);
    // a (query, document) pair on two lines, by comparing every pair of rows
    let twice = (0..want.len())
        .any(|a| (a + 1..want.len()).any(|b| (want[a].0, want[a].1) == (want[b].0, want[b].1)));
    assert_eq!(q.has_duplicate(), twice, "the duplicate finding");
}

/// The join of a run read from `run_text` to qrels read from `qrels_text` (when both read),
/// as `cranfield.judging.join.judge` does it (`judge::QrelsIndex` once, `judge::grades` with
/// one segment per run query, its rows in file order), against a linear search of the qrels
/// for each row.
pub fn check_join(qrels_text: &[u8], run_text: &[u8]) {
    let (Ok(q), Ok(run)) = (read_qrels(qrels_text), read_run(run_text)) else {
        return;
    };
    let query_of: Vec<i64> = run
        .query_ids
        .iter()
        .map(|id| {
            q.query_ids
                .iter()
                .position(|x| x == id)
                .map_or(-1, |p| p as i64)
        })
        .collect();
    let doc =
        |i: usize| &run.doc_bytes[run.doc_offsets[i] as usize..run.doc_offsets[i + 1] as usize];
    let index = QrelsIndex::new(&q.offsets, |r| q.doc_ids[r], &q.grades);
    // segment s: the rows of run query s, in file order
    let mut rows: Vec<i64> = (0..run.qcodes.len() as i64).collect();
    rows.sort_by_key(|&r| run.qcodes[r as usize]);
    let mut offsets = vec![0i64];
    for s in 0..run.query_ids.len() {
        let n = run.qcodes.iter().filter(|&&c| c as usize == s).count() as i64;
        offsets.push(offsets[s] + n);
    }
    let got = grades(&index, &query_of, &offsets, &rows, doc);
    assert_eq!(got.len(), run.qcodes.len());
    let judged = sorted_judgments(&expect_qrels(qrels_text).unwrap().0);
    for (k, &g) in got.iter().enumerate() {
        let i = rows[k] as usize;
        let query = run.query_ids[run.qcodes[i] as usize];
        let want = judged
            .iter()
            .find(|w| w.0 == query && w.1 == doc(i))
            .map_or(NOT_IN_QRELS, |w| if w.2 < 0 { UNJUDGED } else { w.2 });
        assert_eq!(g, want, "row {i}");
    }
}

/// The join target's input: qrels text, a NUL, run text ([`check_join`], the text read as both
/// when there is no NUL); or, after a first NUL, arrays ([`check_join_arrays`]).
pub fn check_join_input(data: &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(0) => check_join_arrays(&data[1..]),
        Some(at) => check_join(&data[..at], &data[at + 1..]),
        None => check_join(data, data),
    }
}

/// Bytes read as numbers, for the arrays of [`check_join_arrays`].
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        out
    }
    fn small(&mut self) -> usize {
        usize::from(self.take::<1>()[0] % 16)
    }
    /// Mostly small numbers, sometimes any (negative, huge).
    fn number(&mut self) -> i64 {
        let [tag, v] = self.take::<2>();
        match tag % 8 {
            0 => i64::from_le_bytes(self.take::<8>()),
            1 => -i64::from(v),
            _ => i64::from(v % 16),
        }
    }
}

/// The join on arrays as `python_judge.rs` may pass them (after its checks: the qrels'
/// columns fit, each segment's query below the qrels' queries, the segments' offsets fit the
/// rows, every row a run row), whatever their values: no panic, one grade per row, and
/// `NOT_IN_QRELS` for every row of a segment without a qrels query.
pub fn check_join_arrays(data: &[u8]) {
    let mut b = Bytes(data);
    let ndocs = b.small();
    let offsets: Vec<i64> = (0..b.small()).map(|_| b.number()).collect();
    let docs: Vec<&[u8]> = (0..ndocs).map(|i| [&b"a"[..], b"b", b"c"][i % 3]).collect();
    let grades_in: Vec<i64> = (0..ndocs).map(|_| b.number()).collect();
    let query_of: Vec<i64> = (0..b.small()).map(|_| b.number()).collect();
    let seg_offsets: Vec<i64> = (0..=query_of.len()).map(|_| b.number()).collect();
    let num_rows = b.small();
    let rows: Vec<i64> = (0..b.small()).map(|_| b.number()).collect();
    let run_docs: Vec<&[u8]> = (0..num_rows).map(|i| [&b"a"[..], b"c"][i % 2]).collect();
    // python_judge.rs refuses these before building the index or judging
    let fits = |o: &[i64], n: usize| {
        o.first().is_none_or(|&a| a == 0)
            && o.windows(2).all(|w| w[0] <= w[1])
            && o.last().is_none_or(|&z| z as usize == n)
    };
    if !fits(&offsets, docs.len()) {
        return;
    }
    let index = QrelsIndex::new(&offsets, |r| docs[r], &grades_in);
    if !query_of.iter().all(|&q| q < index.num_queries() as i64)
        || !fits(&seg_offsets, rows.len())
        || !rows.iter().all(|&r| r >= 0 && (r as usize) < num_rows)
    {
        return;
    }
    let got = grades(&index, &query_of, &seg_offsets, &rows, |r| run_docs[r]);
    assert_eq!(got.len(), rows.len());
    for (s, w) in seg_offsets.windows(2).enumerate() {
        if query_of[s] < 0 {
            for (k, &g) in got
                .iter()
                .enumerate()
                .take(w[1] as usize)
                .skip(w[0] as usize)
            {
                assert_eq!(g, NOT_IN_QRELS, "row {k} of segment {s} (no qrels query)");
            }
        }
    }
    assert!(got.iter().all(|&g| g >= UNJUDGED));
}
