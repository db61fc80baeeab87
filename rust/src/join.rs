//! The join of a run to its qrels keyed by (query, document): the grade of every run row.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::trec::FxHasher;

/// The grade of a row whose (query, document) the qrels do not judge
/// (`cranfield.data.MISSING`); a judged grade equal to it comes back as `MISSING + 1`,
/// negative all the same, as `Qrels.grades_of` returns it.
pub const MISSING: i64 = i64::MIN;

/// The grade of each run row: `query_of[qcodes[i]]` is the row's query among the qrels'
/// (or -1), `doc(i)` its document; the qrels' query `q` judges `docs[offsets[q]..offsets[q +
/// 1]]` with `grades`.  One hash map of (query, document) over the qrels, one lookup per row
/// whose query is judged.  A (query, document) judged twice gives its first grade.
pub fn join<'a>(
    offsets: &[i64],
    docs: &[&'a [u8]],
    grades: &[i64],
    query_of: &[i64],
    qcodes: &[i32],
    doc: impl Fn(usize) -> &'a [u8],
) -> Vec<i64> {
    let mut map: HashMap<(u32, &[u8]), i64, BuildHasherDefault<FxHasher>> = HashMap::default();
    map.reserve(docs.len());
    for q in 0..offsets.len().saturating_sub(1) {
        let (a, b) = (offsets[q] as usize, offsets[q + 1] as usize);
        for r in a..b.min(docs.len()) {
            map.entry((q as u32, docs[r]))
                .or_insert(grades[r].max(MISSING + 1));
        }
    }
    qcodes
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let q = usize::try_from(c)
                .ok()
                .and_then(|c| query_of.get(c))
                .copied();
            // a query number beyond 32 bits is no qrels query (never cut to one that is)
            match q.and_then(|q| u32::try_from(q).ok()) {
                Some(q) => map.get(&(q, doc(i))).copied().unwrap_or(MISSING),
                None => MISSING,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_by_query_and_document() {
        // qrels: query 0 judges a (2) and b (0); query 1 judges a (-1) and c (MISSING)
        let offsets = [0, 2, 4];
        let docs: [&[u8]; 4] = [b"a", b"b", b"a", b"c"];
        let grades = [2, 0, -1, MISSING];
        // run queries: 0 -> qrels 1, 1 -> qrels 0, 2 -> not judged
        let query_of = [1, 0, -1];
        let rows: [(i32, &[u8]); 6] = [
            (0, b"a"),
            (0, b"b"),
            (1, b"a"),
            (1, b"c"),
            (2, b"a"),
            (0, b"c"),
        ];
        let qcodes: Vec<i32> = rows.iter().map(|r| r.0).collect();
        let got = join(&offsets, &docs, &grades, &query_of, &qcodes, |i| rows[i].1);
        assert_eq!(got, vec![-1, MISSING, 2, MISSING, MISSING, MISSING + 1]);
    }
}
