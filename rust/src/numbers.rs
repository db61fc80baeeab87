//! Numbers written as text, by the rules of `cranfield.io.number_text`:
//!
//! - an integer (a grade, a rank) is `[+-]?[0-9]+` in ASCII digits, within the 64-bit range;
//! - a score is what Python's `float` reads from ASCII bytes without `_` separators:
//!   `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?` or `[+-]?(inf|infinity|nan)` in any
//!   case, each the double nearest its value (Rust's `f64::from_str` rounds correctly).

/// Whether `tok` is `[+-]?[0-9]+` (whatever its size).
pub fn is_int(tok: &[u8]) -> bool {
    let digits = match tok.first() {
        Some(b'+' | b'-') => &tok[1..],
        _ => tok,
    };
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// The value of an integer token, or `None` when it is not `[+-]?[0-9]+` or is outside the
/// 64-bit range.
pub fn parse_int(tok: &[u8]) -> Option<i64> {
    let (negative, digits) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    if negative {
        // -2**63 is in range, its magnitude is not an i64
        if value == 1u64 << 63 {
            Some(i64::MIN)
        } else {
            i64::try_from(value).ok().map(|v| -v)
        }
    } else {
        i64::try_from(value).ok()
    }
}

fn digits_from(tok: &[u8], mut i: usize) -> usize {
    while i < tok.len() && tok[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// Whether `tok` has the syntax of a score (see the module's documentation).
pub fn is_score(tok: &[u8]) -> bool {
    let mut i = usize::from(matches!(tok.first(), Some(b'+' | b'-')));
    let rest = &tok[i..];
    if rest.eq_ignore_ascii_case(b"inf")
        || rest.eq_ignore_ascii_case(b"infinity")
        || rest.eq_ignore_ascii_case(b"nan")
    {
        return true;
    }
    let int_end = digits_from(tok, i);
    let mut ndigits = int_end - i;
    i = int_end;
    if i < tok.len() && tok[i] == b'.' {
        let frac_end = digits_from(tok, i + 1);
        ndigits += frac_end - i - 1;
        i = frac_end;
    }
    if ndigits == 0 {
        return false;
    }
    if i < tok.len() && (tok[i] == b'e' || tok[i] == b'E') {
        i += 1;
        if i < tok.len() && (tok[i] == b'+' || tok[i] == b'-') {
            i += 1;
        }
        let exp_end = digits_from(tok, i);
        if exp_end == i {
            return false;
        }
        i = exp_end;
    }
    i == tok.len()
}

/// The score written `tok` (the double nearest its value; `inf` and `nan` included), or
/// `None` when it is not a score.
pub fn parse_score(tok: &[u8]) -> Option<f64> {
    if let Some(v) = fast_decimal(tok) {
        return Some(v);
    }
    if !is_score(tok) {
        return None;
    }
    // is_score admits ASCII only, which is UTF-8, and only syntax f64::from_str reads
    std::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// Exact powers of ten (every one up to 10**22 is a double).
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `[+-]?digits[.digits]` with 1 to 15 digits, the common score: the integer `m` of its
/// digits divided by `10**k` (`k` digits after the point).  `m < 2**53` and `10**k` are exact
/// doubles, so the one correctly rounded division is the double nearest the decimal, which
/// is what `float` returns (Clinger's fast path: W. D. Clinger, "How to read floating point
/// numbers accurately", PLDI 1990, sec. 5).  `None`: another syntax, for the general path.
#[inline]
fn fast_decimal(tok: &[u8]) -> Option<f64> {
    let (negative, body) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    let n = body.len();
    if n == 0 || n > 16 {
        return None; // 16 bytes hold the 15 digits and the point (and no u64 overflows)
    }
    let mut m: u64 = 0;
    let mut i = 0;
    while i < n {
        let d = body[i].wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        m = m * 10 + u64::from(d);
        i += 1;
    }
    let mut k = 0; // digits after the point
    if i < n {
        if body[i] != b'.' {
            return None;
        }
        k = n - i - 1;
        for &b in &body[i + 1..] {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return None;
            }
            m = m * 10 + u64::from(d);
        }
    }
    let digits = n - usize::from(i < n);
    if digits == 0 || digits > 15 {
        return None;
    }
    let v = (m as i64) as f64 / POW10[k]; // m < 2**53: the signed conversion is exact
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"007"), Some(7));
        assert_eq!(parse_int(b"+2"), Some(2));
        assert_eq!(parse_int(b"-1"), Some(-1));
        assert_eq!(parse_int(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int(b"9223372036854775808"), None);
        assert_eq!(parse_int(b"-9223372036854775809"), None);
        assert_eq!(parse_int(b"00000000000000000000000000001"), Some(1));
        for bad in [&b""[..], b"+", b"-", b"2.0", b"1e3", b"0x10", b"+-1", b"1 "] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
        assert!(is_int(b"99999999999999999999999"));
        assert!(!is_int("١".as_bytes()));
    }

    #[test]
    fn scores() {
        let cases: &[(&[u8], f64)] = &[
            (b"3", 3.0),
            (b"-2.5", -2.5),
            (b"+.5", 0.5),
            (b"5.", 5.0),
            (b"1E-07", 1e-7),
            (b"1.e5", 1e5),
            (b"0.1", 0.1),
            (b"-0", -0.0),
            (b"-iNF", f64::NEG_INFINITY),
            (b"Infinity", f64::INFINITY),
            (b"0.30000000000000004", 0.30000000000000004),
            (b"123456789012345.6", 123456789012345.6),
            (b"9007199254740993", 9007199254740993.0),
            (b"1.000000000000001", 1.000000000000001),
            (b".000000000000001", 1e-15),
        ];
        for &(tok, want) in cases {
            let got = parse_score(tok).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{tok:?}");
        }
        assert!(parse_score(b"+nan").unwrap().is_nan());
        // decimals of every length around the fast path's 15 digits and 16 bytes, the point
        // anywhere or absent, a sign or not, against `str::parse`
        let mut next = crate::test_rng::below(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..200_000 {
            let digits = 1 + next(19) as usize;
            let mut tok: Vec<u8> = (0..digits).map(|_| b'0' + next(10) as u8).collect();
            let point = next(digits as u64 + 2) as usize;
            if point <= digits {
                tok.insert(point, b'.');
            }
            match next(4) {
                0 => tok.insert(0, b'-'),
                1 => tok.insert(0, b'+'),
                _ => {}
            }
            if next(50) == 0 {
                let at = next(tok.len() as u64) as usize;
                tok[at] = b"x.e/:"[next(5) as usize]; // not a decimal any more, or another one
            }
            let text = std::str::from_utf8(&tok).unwrap();
            match (parse_score(&tok), text.parse::<f64>()) {
                (Some(got), Ok(want)) => assert_eq!(got.to_bits(), want.to_bits(), "{text}"),
                (got, want) => assert_eq!(got.is_some(), want.is_ok(), "{text}"),
            }
        }
        for bad in [
            &b""[..],
            b".",
            b"1e",
            b".e5",
            b"1_0",
            b"nan(1)",
            b"infinit",
            b"1e5.",
            b"--1",
            b"0x1p3",
            b"\xc2\xa01",
            b"e5",
            b"+",
        ] {
            assert_eq!(parse_score(bad), None, "{bad:?}");
        }
    }
}
