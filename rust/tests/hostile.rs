//! The core as a parser of hostile input, under `cargo test`: the fuzz targets' checks
//! (`fuzz/src/lib.rs`: every line counted or rejected, rows as a brute-force reading finds
//! them, the first problem named) on the inputs the fuzzer found (`tests/findings/<target>/`)
//! and on a fixed-seed campaign of mutated files.

#[path = "../fuzz/src/lib.rs"]
mod oracle;

use std::path::Path;

use _core::judge::{NOT_IN_QRELS, QrelsIndex, grades};

fn findings(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/findings")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<_> = entries
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_kept_finding_passes_its_target() {
    let mut seen = 0;
    for (target, check) in [
        ("run", oracle::check_run as fn(&[u8])),
        ("qrels", oracle::check_qrels),
        ("numbers", oracle::check_numbers),
        ("join", oracle::check_join_input),
    ] {
        for (name, data) in findings(target) {
            let r = std::panic::catch_unwind(|| check(&data));
            assert!(r.is_ok(), "tests/findings/{target}/{name}");
            seen += 1;
        }
    }
    assert!(seen >= 1, "the findings were not found");
}

/// Found by `cargo fuzz run join` (tests/findings/join/query-beyond-u32) in the first join
/// (join.rs, since deleted for judge.rs's): a qrels query number of 2**32 or more was cut to
/// 32 bits, so a row whose query the qrels do not have got the grade of another query's
/// document.  judge.rs's join, at its own level (below python_judge.rs's range check):
#[test]
fn a_query_number_beyond_32_bits_judges_nothing() {
    let index = QrelsIndex::new(&[0, 1], |_| b"a", &[3]);
    for q in [1i64 << 32, (1 << 32) + 1, i64::MAX] {
        let got = grades(&index, &[q], &[0, 1], &[0], |_| b"a");
        assert_eq!(got, vec![NOT_IN_QRELS], "query {q}");
    }
}

/// xorshift64*: a fixed-seed stream, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a [u8]]) -> &'a [u8] {
        xs[self.below(xs.len())]
    }
}

const RUN: &[u8] = b"q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1 t\n# c\n\nq2\tQ0 d1 1 -1e2 t\r\n";
const QRELS: &[u8] = b"q2 0 d1 1\nq1 0 d2 0\n# c\nq1 0 d1 2\n\nq1 0 d1 -1\n";

/// What the damage tests do to files, on bytes: tokens that are (almost) numbers, ids,
/// separators, joined and repeated lines, cuts.
const PIECES: &[&[u8]] = &[
    b" ",
    b"\t",
    b"\n",
    b"\r",
    b"\x0b",
    b"\x0c",
    b"\r\n",
    b"#",
    b"# ",
    b"Q0",
    b"0",
    b"1",
    b"-1",
    b"+3",
    b"007",
    b"2.5",
    b".5",
    b"5.",
    b"1e308",
    b"1e-320",
    b"-0",
    b"inf",
    b"-Infinity",
    b"nan",
    b"9223372036854775807",
    b"9223372036854775808",
    b"-9223372036854775809",
    b"1_0",
    b"0x10",
    b"e5",
    b"1e",
    b"+",
    b"-",
    b".",
    b"q1",
    b"q2",
    b"d1",
    b"d2",
    b"t",
    b"\xc3\xa9",
    b"\xff",
    b"\0",
    b"\xef\xbb\xbf",
    b"q1 Q0 d3 3 0.5 t",
    b"q1 0 d3 1",
    b"1.000000000000001",
    b"123456789012345.6",
    b"9007199254740993",
    b"0.30000000000000004",
];

fn mutate(rng: &mut Rng, base: &[u8]) -> Vec<u8> {
    let mut data = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(6) {
            0 => {
                let piece = rng.pick(PIECES);
                data.splice(at..at, piece.iter().copied());
            }
            1 if at < data.len() => {
                let end = (at + 1 + rng.below(8)).min(data.len());
                data.drain(at..end);
            }
            2 if at < data.len() => data[at] ^= 1 << rng.below(8),
            3 => data.truncate(at),
            4 => {
                // a line repeated or joined to the next
                let text = data.clone();
                let end = (at + rng.below(40)).min(text.len());
                data.splice(at..at, text[at..end].iter().copied());
            }
            _ => {
                if let Some(p) = data.iter().position(|&b| b == b'\n') {
                    data[p] = b' ';
                }
            }
        }
    }
    data
}

#[test]
fn a_campaign_of_mutated_files() {
    let mut rng = Rng(20_260_101);
    let (mut runs_read, mut qrels_read) = (0, 0);
    for _ in 0..20_000 {
        let run = mutate(&mut rng, RUN);
        let qrels = mutate(&mut rng, QRELS);
        runs_read += usize::from(_core::trec::read_run(&run).is_ok());
        qrels_read += usize::from(_core::trec::read_qrels(&qrels).is_ok());
        oracle::check_run(&run);
        oracle::check_run(&qrels);
        oracle::check_qrels(&qrels);
        oracle::check_qrels(&run);
        oracle::check_join(&qrels, &run);
        oracle::check_run_judge(&qrels, &run, 1 + rng.below(4));
        let tok = rng.pick(PIECES);
        oracle::check_numbers(tok);
        oracle::check_numbers(&mutate(&mut rng, tok));
        let arrays: Vec<u8> = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
        oracle::check_join_arrays(&arrays);
    }
    // both ways through the readers: accepted (rows checked) and rejected (the error checked)
    println!("mutated runs read: {runs_read}, qrels read: {qrels_read} of 20000");
    assert!((2_000..18_000).contains(&runs_read), "{runs_read}");
    assert!((2_000..18_000).contains(&qrels_read), "{qrels_read}");
}
