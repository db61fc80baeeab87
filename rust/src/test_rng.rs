//! The tests' generator of numbers: xorshift64 (Marsaglia, "Xorshift RNGs", 2003), the same
//! sequence for the same seed on every machine.

/// `next(m)`: the generator stepped, then its state modulo `m` (`m` > 0).
pub(crate) fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |m| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    }
}
