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
//!   qrels (negative: `UNJUDGED`), `NOT_IN_QRELS` where they do not judge it;
//! - a run judged as it is read (`run_judge.rs`, grouped; `run_collect.rs`, collected), in
//!   pieces of whole lines: each judged query of the qrels, in their order, its rows sorted by
//!   score descending then document descending, with its grades and tie groups; it stops
//!   exactly when the text does not read, holds a duplicate or a control character in an id,
//!   or (grouped) comes back to a query after its block ended.
//!
//! The fuzz targets (`fuzz_targets/`) call these on libFuzzer's inputs; `rust/tests/hostile.rs`
//! includes this file and calls them on the kept findings and on generated mutations.

use _core::judge::{NOT_IN_QRELS, QrelsIndex, UNJUDGED, grades};
use _core::numbers::{is_int, is_score, parse_int, parse_score};
use _core::run_collect::RunCollect;
use _core::run_judge::{Held, Judged, RunJudge, Stop};
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
    assert_eq!(q.doc_ids(), docs);
    let grades: Vec<i64> = want.iter().map(|w| w.2).collect();
    assert_eq!(q.grades, grades);
    let lines: Vec<u32> = want.iter().map(|w| w.3 as u32).collect();
    // None stands for each row's line being its row + 1
    let got_lines = q
        .lines
        .clone()
        .unwrap_or_else(|| (1..=want.len() as u32).collect());
    assert_eq!(got_lines, lines);
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
    let index = QrelsIndex::new(&q.offsets, |r| q.doc(r), &q.grades);
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

/// Whether an id holds a control character (C0, DEL, C1: U+0080-U+009F), read as UTF-8 the
/// plain way (`cranfield.io.ids`).
fn control_in(id: &[u8]) -> bool {
    String::from_utf8_lossy(id)
        .chars()
        .any(|c| (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32)))
}

/// `run_text` cut into pieces of whole lines: after every `every`-th line end.
fn pieces(run_text: &[u8], every: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut start, mut seen) = (0, 0);
    for (i, &b) in run_text.iter().enumerate() {
        if b == b'\n' {
            seen += 1;
            if seen % every == 0 {
                out.push(&run_text[start..=i]);
                start = i + 1;
            }
        }
    }
    out.push(&run_text[start..]);
    out
}

/// The run `run_text` judged as it is read against the qrels `qrels_text` (when they read),
/// by the grouped pass and by the collection, in pieces of `every` lines, against a brute
/// force: the rows of each query the qrels judge, sorted by score descending then document
/// descending (bytes), graded by a linear search of the qrels, tie groups numbered on.
pub fn check_run_judge(qrels_text: &[u8], run_text: &[u8], every: usize) {
    let Ok(q) = read_qrels(qrels_text) else {
        return;
    };
    let index = QrelsIndex::new(&q.offsets, |r| q.doc(r), &q.grades);
    let every = every.max(1);
    let mut grouped = RunJudge::new(&q.query_ids, None, false);
    let mut collected = RunCollect::new(&q.query_ids, None, false, 7);
    let fed = pieces(run_text, every)
        .into_iter()
        .try_for_each(|p| grouped.feed(&index, p));
    let got_grouped = fed.and_then(|()| grouped.take(&index, true).map(Held::judged));
    let fed = pieces(run_text, every)
        .into_iter()
        .try_for_each(|p| collected.feed(p));
    let got_collected = fed.and_then(|()| {
        let mut all = Judged::default();
        let mut tie = Vec::new();
        loop {
            let (j, more) = collected.take(&index)?;
            let base = all.grades.len() as i64;
            all.qrels_queries.extend(&j.qrels_queries);
            all.offsets.extend(
                j.offsets
                    .iter()
                    .skip(usize::from(!tie.is_empty()))
                    .map(|o| o + base),
            );
            all.grades.extend(&j.grades);
            all.scores.extend(&j.scores);
            all.tie_ids.extend(&j.tie_ids);
            all.run_ids.extend(j.run_ids);
            tie.push(());
            if !more {
                return Ok(all);
            }
        }
    });
    // the text check (`cranfield.io.textcheck`): a NUL, invalid UTF-8 or a byte order mark
    // (the caller removes the text's first) stops both passes
    let rejected = run_text.contains(&0)
        || std::str::from_utf8(run_text).map_or(true, |s| s.contains('\u{feff}'));
    if rejected {
        assert!(
            got_grouped.is_err() && got_collected.is_err(),
            "a text the check rejects"
        );
        return;
    }
    let Ok((rows, counts)) = expect_run(run_text) else {
        assert!(
            got_grouped.is_err() && got_collected.is_err(),
            "a text that does not read"
        );
        return;
    };
    // the brute force: queries in order of first appearance, each its rows in file order
    let mut queries: Vec<&[u8]> = Vec::new();
    let mut by_query: Vec<Vec<(f64, &[u8])>> = Vec::new();
    let mut regrouped = false;
    for r in &rows {
        let at = queries.iter().position(|x| *x == r.f[0]);
        let k = match at {
            Some(k) => {
                regrouped |= k + 1 != queries.len();
                k
            }
            None => {
                queries.push(r.f[0]);
                by_query.push(Vec::new());
                queries.len() - 1
            }
        };
        by_query[k].push((score_value(r.f[4]).unwrap(), r.f[2]));
    }
    let twice = by_query
        .iter()
        .any(|v| (0..v.len()).any(|a| (a + 1..v.len()).any(|b| v[a].1 == v[b].1)));
    let bad = rows
        .iter()
        .any(|r| control_in(r.f[0]) || control_in(r.f[2]));
    let judged = sorted_judgments(&expect_qrels(qrels_text).unwrap().0);
    let mut want = Judged {
        offsets: vec![0],
        ..Judged::default()
    };
    let mut tie = -1i64;
    for (qi, qid) in q.query_ids.iter().enumerate() {
        let Some(k) = queries.iter().position(|x| x == qid) else {
            continue;
        };
        let mut v = by_query[k].clone();
        v.sort_by(|a, b| {
            let by_score = if a.0.is_nan() || b.0.is_nan() {
                b.0.is_nan().cmp(&a.0.is_nan()).reverse()
            } else {
                b.0.partial_cmp(&a.0).unwrap()
            };
            by_score.then_with(|| b.1.cmp(a.1))
        });
        for (i, (score, doc)) in v.iter().enumerate() {
            #[allow(clippy::float_cmp)]
            let same = i > 0 && v[i - 1].0 == *score;
            if !same {
                tie += 1;
            }
            let g = judged
                .iter()
                .find(|w| w.0 == *qid && w.1 == *doc)
                .map_or(NOT_IN_QRELS, |w| if w.2 < 0 { UNJUDGED } else { w.2 });
            want.grades.push(g);
            want.scores.push(*score);
            want.tie_ids.push(tie);
        }
        want.qrels_queries.push(qi as i64);
        want.offsets.push(want.grades.len() as i64);
    }
    let same = |got: &Judged| {
        got.qrels_queries == want.qrels_queries
            && got.offsets == want.offsets
            && got.grades == want.grades
            && got.tie_ids == want.tie_ids
            && got
                .scores
                .iter()
                .map(|x| x.to_bits())
                .eq(want.scores.iter().map(|x| x.to_bits()))
    };
    let ids: Vec<&[u8]> = queries.clone();
    match (&got_collected, twice || bad) {
        (Ok(got), false) => {
            assert!(same(got), "collected: {got:?} against {want:?}");
            assert_eq!(collected.counts(), &counts, "the collection's line counts");
            assert!(got.run_ids.iter().map(|x| &**x).eq(ids.iter().copied()));
        }
        (Err(Stop::Duplicate | Stop::BadId), true) => {}
        (other, _) => panic!("collected: {other:?}, duplicate {twice}, bad id {bad}"),
    }
    match (&got_grouped, twice || bad || regrouped) {
        (Ok(got), false) => {
            assert!(same(got), "grouped: {got:?} against {want:?}");
            assert_eq!(grouped.counts(), &counts, "the grouped pass's line counts");
            assert!(got.run_ids.iter().map(|x| &**x).eq(ids.iter().copied()));
        }
        (Err(Stop::Duplicate | Stop::BadId | Stop::NotGrouped), true) => {}
        (other, _) => {
            panic!("grouped: {other:?}, duplicate {twice}, bad id {bad}, regrouped {regrouped}")
        }
    }
}

/// The join target's input: qrels text, a NUL, run text ([`check_join`], the text read as both
/// when there is no NUL); or, after a first NUL, arrays ([`check_join_arrays`]).
pub fn check_join_input(data: &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(0) => check_join_arrays(&data[1..]),
        Some(at) => {
            check_join(&data[..at], &data[at + 1..]);
            check_run_judge(&data[..at], &data[at + 1..], data.len() % 5 + 1);
        }
        None => {
            check_join(data, data);
            check_run_judge(data, data, data.len() % 5 + 1);
        }
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
