//! numba's `np.argsort` (the default quicksort), which orders ranx's rankings.
//!
//! ranx ranks a query's documents with numba's compiled `np.argsort` (`numba/misc/quicksort.py`,
//! numba 0.5x-0.6x): quicksort with a median-of-three pivot, the larger part stacked, and
//! insertion sort for parts of at most [`SMALL_QUICKSORT`] elements.  It is not stable: equal
//! values come out in an order that depends on the input's order, so a work-alike of ranx must
//! sort exactly as it does.  `cranfield.compat.ranx.ordering.numba_argsort` is the Python
//! reproduction (checked against ranx itself) and the oracle of this one.

/// numba's quicksort hands a part of at most this many elements to insertion sort.
pub const SMALL_QUICKSORT: usize = 15;

/// numba's partition of `r[low..=high]` (positions into `a`) around a median-of-three pivot.
fn partition(a: &[f64], r: &mut [usize], low: usize, high: usize) -> usize {
    let mid = (low + high) >> 1;
    if a[r[mid]] < a[r[low]] {
        r.swap(low, mid);
    }
    if a[r[high]] < a[r[mid]] {
        r.swap(high, mid);
    }
    if a[r[mid]] < a[r[low]] {
        r.swap(low, mid);
    }
    let pivot = a[r[mid]];
    r.swap(high, mid);
    // i and j as numba's signed indices: j may step below `low` (to low - 1)
    let (mut i, mut j) = (low as isize, high as isize - 1);
    loop {
        while (i as usize) < high && a[r[i as usize]] < pivot {
            i += 1;
        }
        while j >= low as isize && pivot < a[r[j as usize]] {
            j -= 1;
        }
        if i >= j {
            break;
        }
        r.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    r.swap(i as usize, high);
    i as usize
}

/// numba's insertion sort of `r[low..=high]`: an element moves only past strictly greater
/// ones (a stable sort of the part).
fn insertion_sort(a: &[f64], r: &mut [usize], low: usize, high: usize) {
    for i in low + 1..=high {
        let k = r[i];
        let v = a[k];
        let mut j = i;
        while j > low && v < a[r[j - 1]] {
            r[j] = r[j - 1];
            j -= 1;
        }
        r[j] = k;
    }
}

/// The positions of `a` in the order numba's `np.argsort(a)` gives them.
pub fn numba_argsort(a: &[f64]) -> Vec<usize> {
    let n = a.len();
    let mut r: Vec<usize> = (0..n).collect();
    if n < 2 {
        return r;
    }
    // signed bounds, as numba's: a part may end at `low - 1` (empty)
    let mut stack: Vec<(isize, isize)> = vec![(0, n as isize - 1)];
    while let Some((mut low, mut high)) = stack.pop() {
        while high - low >= SMALL_QUICKSORT as isize {
            let i = partition(a, &mut r, low as usize, high as usize) as isize;
            if high - i > i - low {
                if high > i {
                    stack.push((i + 1, high));
                }
                high = i - 1;
            } else {
                if i > low {
                    stack.push((low, i - 1));
                }
                low = i + 1;
            }
        }
        if high > low {
            insertion_sort(a, &mut r, low as usize, high as usize);
        }
    }
    r
}

/// [`numba_argsort`] of each segment `values[offsets[k]..offsets[k + 1]]`, the positions
/// counted within the segment; `None` when the offsets do not cut `values` into segments.
pub fn numba_argsort_segments(values: &[f64], offsets: &[i64]) -> Option<Vec<i64>> {
    let ok = offsets.first().is_none_or(|&a| a == 0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets
            .last()
            .is_none_or(|&b| b >= 0 && b as usize == values.len());
    if !ok || (offsets.is_empty() && !values.is_empty()) {
        return None;
    }
    let mut out = Vec::with_capacity(values.len());
    for w in offsets.windows(2) {
        let seg = &values[w[0] as usize..w[1] as usize];
        out.extend(numba_argsort(seg).into_iter().map(|p| p as i64));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stable sort by value: what numba's argsort gives for distinct values, or for 15
    /// values or fewer.
    fn stable(a: &[f64]) -> Vec<usize> {
        let mut r: Vec<usize> = (0..a.len()).collect();
        r.sort_by(|&x, &y| a[x].partial_cmp(&a[y]).unwrap());
        r
    }

    #[test]
    fn small_or_distinct_values_sort_stably() {
        let small = [3.0, 1.0, 3.0, 2.0, 1.0];
        assert_eq!(numba_argsort(&small), stable(&small));
        let distinct: Vec<f64> = (0..100).map(|i| ((i * 37) % 101) as f64).collect();
        assert_eq!(numba_argsort(&distinct), stable(&distinct));
    }

    #[test]
    fn ties_come_out_in_numbas_order_not_a_stable_one() {
        // 20 equal values: numba's partitions swap equal elements (numpy's stable order would
        // be 0..20); the order is the Python reproduction's, which ranx's own tests confirm
        let a = [1.0; 20];
        let got = numba_argsort(&a);
        assert_ne!(got, (0..20).collect::<Vec<_>>());
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn segments_are_sorted_each_on_its_own() {
        let values = [2.0, 1.0, 5.0, 4.0, 3.0];
        assert_eq!(
            numba_argsort_segments(&values, &[0, 2, 2, 5]),
            Some(vec![1, 0, 2, 1, 0])
        );
        assert_eq!(numba_argsort_segments(&values, &[0, 6]), None);
        assert_eq!(numba_argsort_segments(&values, &[1, 5]), None);
        assert_eq!(numba_argsort_segments(&values, &[0, 3, 2, 5]), None);
        assert_eq!(numba_argsort_segments(&values, &[]), None);
        assert_eq!(numba_argsort_segments(&[], &[]), Some(vec![]));
        assert_eq!(numba_argsort_segments(&[], &[0]), Some(vec![]));
    }
}
