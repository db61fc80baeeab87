//! Work split over a few threads that end with the call (`std::thread::scope`): no thread
//! outlives a call into the core, so a Python process that later forks its workers (which is
//! safe only while it runs one thread) still can.

use std::num::NonZeroUsize;
use std::panic::resume_unwind;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        let mut state = init();
        return items.iter().map(|x| f(&mut state, x)).collect();
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
        out.reserve(items.len() - out.len());
        for h in handles {
            out.extend(h.join().unwrap_or_else(|e| resume_unwind(e)));
        }
        out
    })
}

/// `f(state, item)` of every item, in order, the items taken one at a time by up to
/// `threads` threads, this one among them (each thread with its own `init()` state): a thread
/// that finishes early takes more.  This thread calls `before()` first, and `after()` once
/// no item is left to take, while the other threads may still work on theirs; a panic in a
/// thread is raised again here.
pub fn map_pulled<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
    before: &mut dyn FnMut(),
    after: &mut dyn FnMut(),
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut state = None;
        let mut got = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return got;
            };
            got.push((i, f(state.get_or_insert_with(&init), item)));
        }
    };
    let work = &work;
    let (mine, theirs) = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        before();
        let mine = work();
        after();
        let theirs: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| resume_unwind(e)))
            .collect();
        (mine, theirs)
    });
    let mut out: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    for (i, r) in mine.into_iter().chain(theirs.into_iter().flatten()) {
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.expect("every item was taken by a thread"))
        .collect()
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
            let (mut before, mut after) = (0, 0);
            let got = map_pulled(
                &items,
                threads,
                || 0u64,
                |taken, x| {
                    *taken += 1;
                    (x + 1, *taken)
                },
                &mut || before += 1,
                &mut || after += 1,
            );
            let values: Vec<u64> = got.iter().map(|&(x, _)| x).collect();
            assert_eq!(values, (1..1001).collect::<Vec<_>>());
            assert_eq!((before, after), (1, 1));
            // each thread's state is its own: the counts it saw go 1, 2, ... over its items
            let firsts = got.iter().filter(|&&(_, taken)| taken == 1).count();
            assert!(
                firsts >= 1 && firsts <= threads.min(1000),
                "{firsts} states"
            );
            let mut v = items.clone();
            for_each_mut(&mut v, threads, |x| *x += 1);
            assert_eq!(v, (1..1001).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], 4, || (), |_, _| 0u8).is_empty());
        let (mut before, mut after) = (0, 0);
        let none = map_pulled(
            &[] as &[u8],
            4,
            || (),
            |_, _| 0u8,
            &mut || before += 1,
            &mut || after += 1,
        );
        assert!(none.is_empty());
        assert_eq!((before, after), (1, 1));
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
        for threads in [1, 2, 3] {
            let r = std::panic::catch_unwind(|| {
                let five = |_: &mut (), &x: &i32| {
                    assert!(x != 5, "five");
                    x
                };
                map_pulled(
                    &[1, 2, 3, 4, 5, 6],
                    threads,
                    || (),
                    five,
                    &mut || (),
                    &mut || (),
                )
            });
            let payload = r.unwrap_err();
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"five"));
        }
    }
}
