//! Work split over a few threads that end with the call (`std::thread::scope`): no thread
//! outlives a call into the core, so a Python process that later forks its workers (which is
//! safe only while it runs one thread) still can.

use std::num::NonZeroUsize;
use std::panic::resume_unwind;

/// The threads this process may run on (its CPU affinity), at least 1.
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `f(state, item)` of every item, in order, on up to `threads` threads, each taking a
/// contiguous run of the items with its own `init()` state; a panic in a thread is raised
/// again here.
pub fn map<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    map_then(items, threads, init, f, &mut || ())
}

/// [`map`], calling `then()` on this thread once its own run of the items is done, while the
/// other threads may still work on theirs (after all of them, when there is one thread).
pub fn map_then<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
    then: &mut dyn FnMut(),
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        let mut state = init();
        let out = items.iter().map(|x| f(&mut state, x)).collect();
        then();
        return out;
    }
    let chunk = items.len().div_ceil(threads);
    let work = move |run: &[T]| {
        let mut state = init();
        run.iter().map(|x| f(&mut state, x)).collect::<Vec<R>>()
    };
    let work = &work;
    std::thread::scope(|s| {
        // the first run on this thread, the others on threads of their own
        let (first, rest) = items.split_at(chunk);
        let handles: Vec<_> = rest
            .chunks(chunk)
            .map(|run| s.spawn(move || work(run)))
            .collect();
        let mut out = work(first);
        then();
        out.reserve(items.len() - out.len());
        for h in handles {
            out.extend(h.join().unwrap_or_else(|e| resume_unwind(e)));
        }
        out
    })
}

/// `f(item)` for every item, on up to `threads` threads (contiguous runs of the items).
pub fn for_each_mut<T: Send>(items: &mut [T], threads: usize, f: impl Fn(&mut T) + Sync) {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        items.iter_mut().for_each(f);
        return;
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let (first, rest) = items.split_at_mut(chunk);
        let handles: Vec<_> = rest
            .chunks_mut(chunk)
            .map(|run| s.spawn(move || run.iter_mut().for_each(f)))
            .collect();
        first.iter_mut().for_each(f);
        for h in handles {
            h.join().unwrap_or_else(|e| resume_unwind(e));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        for threads in [1, 2, 3, 7, 5000] {
            let got = map(
                &items,
                threads,
                || 0u64,
                |seen, x| {
                    *seen += 1;
                    x * x
                },
            );
            assert_eq!(got, items.iter().map(|x| x * x).collect::<Vec<_>>());
            let mut calls = 0;
            let got = map_then(&items, threads, || (), |(), x| x + 1, &mut || calls += 1);
            assert_eq!((got.len(), got[999], calls), (1000, 1000, 1));
            let mut v = items.clone();
            for_each_mut(&mut v, threads, |x| *x += 1);
            assert_eq!(v, (1..1001).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], 4, || (), |_, _| 0u8).is_empty());
    }

    #[test]
    fn a_panic_in_a_thread_comes_back() {
        let r = std::panic::catch_unwind(|| {
            map(
                &[1, 2, 3, 4],
                2,
                || (),
                |_, &x| {
                    assert!(x != 4, "four");
                    x
                },
            )
        });
        let payload = r.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"four"));
    }
}
