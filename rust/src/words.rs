//! A short byte string as one machine word, from at most two loads of its own bytes (4 and 4,
//! overlapping, or 3 single bytes), never copied byte by byte into a buffer read back whole:
//! a load of 8 bytes right after smaller stores to them waits for the stores to complete.

/// The bytes of `b` (at most 8) as a little-endian word, zeros after them.
#[inline]
pub fn le_word(b: &[u8]) -> u64 {
    let n = b.len();
    debug_assert!(n <= 8, "at most 8 bytes");
    if n >= 4 {
        let lo = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
        let hi = u32::from_le_bytes(b[n - 4..n].try_into().expect("4 bytes"));
        // the bytes both hold are the same bytes at the same places
        u64::from(lo) | u64::from(hi) << (8 * (n - 4))
    } else if n > 0 {
        u64::from(b[0])
            | u64::from(b[n / 2]) << (8 * (n / 2))
            | u64::from(b[n - 1]) << (8 * (n - 1))
    } else {
        0
    }
}

/// The first 8 bytes of `id` as a big-endian word, zeros after a shorter id.
#[inline]
pub fn be_prefix(id: &[u8]) -> u64 {
    let n = id.len();
    if n >= 8 {
        u64::from_be_bytes(id[..8].try_into().expect("8 bytes"))
    } else if n >= 4 {
        let hi = u32::from_be_bytes(id[..4].try_into().expect("4 bytes"));
        let lo = u32::from_be_bytes(id[n - 4..n].try_into().expect("4 bytes"));
        u64::from(hi) << 32 | u64::from(lo) << (8 * (8 - n))
    } else if n > 0 {
        let at = |i: usize| u64::from(id[i]) << (8 * (7 - i));
        at(0) | at(n / 2) | at(n - 1)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte by byte, as the words are defined.
    fn le_word_bytewise(b: &[u8]) -> u64 {
        b.iter()
            .enumerate()
            .fold(0, |w, (i, &x)| w | u64::from(x) << (8 * i))
    }

    fn be_prefix_bytewise(id: &[u8]) -> u64 {
        let mut w = [0u8; 8];
        let n = id.len().min(8);
        w[..n].copy_from_slice(&id[..n]);
        u64::from_be_bytes(w)
    }

    #[test]
    fn the_words_are_those_made_byte_by_byte() {
        let mut next = crate::test_rng::below(0x0123_4567_89ab_cdef);
        for round in 0..2000 {
            let n = round % 17;
            let bytes: Vec<u8> = (0..n)
                .map(|_| match next(4) {
                    0 => 0,
                    1 => 0xff,
                    _ => next(256) as u8,
                })
                .collect();
            if n <= 8 {
                assert_eq!(le_word(&bytes), le_word_bytewise(&bytes), "{bytes:?}");
            }
            assert_eq!(be_prefix(&bytes), be_prefix_bytewise(&bytes), "{bytes:?}");
        }
        assert_eq!(le_word(b"abc"), 0x63_62_61);
        assert_eq!(be_prefix(b"abc"), 0x61_62_63_00_00_00_00_00);
    }
}
