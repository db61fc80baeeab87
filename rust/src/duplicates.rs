//! A document listed twice for one query of a run (trec_eval's `duplicate docs`).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::trec::FxHasher;

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The first row (in row order) whose (query, document) an earlier row holds, with the
/// earliest row that holds it: `(later, earlier)`.  Rows of one query usually come in one
/// block: then each block is checked with a small map of its documents, cleared between
/// blocks; a query met again after its block ended sends the whole run to one map of
/// (query, document).
pub fn first_duplicate<'a>(
    qcodes: &[i32],
    doc: impl Fn(usize) -> &'a [u8],
) -> Option<(usize, usize)> {
    let mut block: FxMap<&[u8], usize> = FxMap::default();
    let mut done: FxMap<i32, ()> = FxMap::default();
    let mut current = None;
    let mut grouped = true;
    for (r, &q) in qcodes.iter().enumerate() {
        if current != Some(q) {
            if let Some(c) = current {
                done.insert(c, ());
            }
            if done.contains_key(&q) {
                grouped = false;
                break;
            }
            current = Some(q);
            block.clear();
        }
        if let Some(&first) = block.get(doc(r)) {
            return Some((r, first));
        }
        block.insert(doc(r), r);
    }
    if grouped {
        return None;
    }
    let mut all: FxMap<(i32, &[u8]), usize> = FxMap::default();
    all.reserve(qcodes.len());
    for (r, &q) in qcodes.iter().enumerate() {
        if let Some(&first) = all.get(&(q, doc(r))) {
            return Some((r, first));
        }
        all.insert((q, doc(r)), r);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_second_occurrence_and_its_first() {
        let docs: [&[u8]; 6] = [b"a", b"b", b"a", b"b", b"a", b"c"];
        // grouped: query 0 rows 0..3, query 1 rows 3..6
        assert_eq!(
            first_duplicate(&[0, 0, 0, 1, 1, 1], |r| docs[r]),
            Some((2, 0))
        );
        assert_eq!(first_duplicate(&[0, 0, 1, 1, 2, 2], |r| docs[r]), None);
        // not grouped: query 0 again at row 4 holds a (row 0)
        assert_eq!(
            first_duplicate(&[0, 0, 1, 1, 0, 1], |r| docs[r]),
            Some((4, 0))
        );
        assert_eq!(first_duplicate(&[0, 1, 1, 0, 2, 2], |r| docs[r]), None);
    }
}
