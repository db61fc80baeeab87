//! A plain text file read in pieces of whole lines, as `cranfield.io.trec.run_pieces.texts`
//! cuts a text: pieces of about `size` bytes that end at a line end (the bytes read up to the
//! last line end once at least `size` are held), the last one as the text ends; the first
//! without its byte order mark.  The reader owns its buffers: a piece handed back
//! ([`TextReader::recycle`]) is read into again, so a long text costs a few pieces' memory,
//! faulted in once.
//!
//! The reader knows nothing of threads: the caller reads the next piece while other threads
//! judge the current one (see `python_run_judge.rs`).

use std::io::{self, Read};

/// The byte order mark, in UTF-8.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// Pieces of the text of a file, in order.
pub struct TextReader<R: Read> {
    input: R,
    size: usize,
    /// The text read after the last piece's last line end.
    carry: Vec<u8>,
    /// Buffers of pieces handed back, read into again.
    spare: Vec<Vec<u8>>,
    first: bool,
    ended: bool,
    /// The bytes the text must have (a range of a file), and those read so far.
    expected: Option<u64>,
    read: u64,
}

impl<R: Read> TextReader<R> {
    /// Pieces of about `size` bytes (at least 1) of `input`.
    pub fn new(input: R, size: usize) -> Self {
        TextReader {
            input,
            size: size.max(1),
            carry: Vec::new(),
            spare: Vec::new(),
            first: true,
            ended: false,
            expected: None,
            read: 0,
        }
    }

    /// The text must have `len` bytes: a shorter one is an error (`UnexpectedEof`) at its end.
    pub fn expecting(mut self, len: u64) -> Self {
        self.expected = Some(len);
        self
    }

    /// The next piece; `None` once the text has ended (an empty text has no piece).
    pub fn next_piece(&mut self) -> io::Result<Option<Vec<u8>>> {
        if self.ended {
            return Ok(None);
        }
        let mut buf = self.spare.pop().unwrap_or_default();
        buf.clear();
        buf.append(&mut self.carry);
        let mut searched = 0; // buf[..searched] has no line end
        loop {
            let want = if buf.len() < self.size {
                self.size - buf.len()
            } else {
                self.size
            };
            buf.reserve(want);
            let got = match (&mut self.input).take(want as u64).read_to_end(&mut buf) {
                Ok(n) => n,
                Err(e) => {
                    self.ended = true; // a failed read is not tried again
                    return Err(e);
                }
            };
            self.read += got as u64;
            if got < want {
                self.ended = true; // the text has ended: its rest is the last piece
                if self.expected.is_some_and(|len| self.read < len) {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the file is shorter than when it was cut",
                    ));
                }
                return Ok(self.piece(buf));
            }
            // `want` bytes read: at least `size` held
            if let Some(p) = memchr::memrchr(b'\n', &buf[searched..]) {
                let end = searched + p + 1;
                self.carry.extend_from_slice(&buf[end..]);
                buf.truncate(end);
                return Ok(self.piece(buf));
            }
            searched = buf.len();
        }
    }

    /// `buf` as the next piece: `None` when it is empty; the first without its BOM.
    fn piece(&mut self, mut buf: Vec<u8>) -> Option<Vec<u8>> {
        if std::mem::take(&mut self.first) && buf.starts_with(BOM) {
            buf.drain(..BOM.len());
        }
        if buf.is_empty() {
            self.spare.push(buf);
            return None;
        }
        Some(buf)
    }

    /// A piece's buffer handed back, to be read into again.
    pub fn recycle(&mut self, buf: Vec<u8>) {
        if self.spare.len() < 2 {
            self.spare.push(buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes a read, and fails at byte `fail_at`.
    struct Trickle<'a> {
        data: &'a [u8],
        pos: usize,
        step: usize,
        fail_at: Option<usize>,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.fail_at.is_some_and(|f| self.pos >= f) {
                return Err(io::Error::from_raw_os_error(5));
            }
            let mut n = self.step.min(out.len()).min(self.data.len() - self.pos);
            if let Some(f) = self.fail_at {
                n = n.min(f - self.pos);
            }
            out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn pieces(data: &[u8], size: usize, step: usize) -> Vec<Vec<u8>> {
        let input = Trickle {
            data,
            pos: 0,
            step,
            fail_at: None,
        };
        let mut r = TextReader::new(input, size);
        let mut out = Vec::new();
        while let Some(p) = r.next_piece().unwrap() {
            out.push(p.clone());
            r.recycle(p);
        }
        assert!(r.next_piece().unwrap().is_none(), "ended stays ended");
        out
    }

    #[test]
    fn pieces_are_whole_lines_cut_once_size_bytes_are_held() {
        let mut next = crate::test_rng::below(0x2545_f491_4f6c_dd1du64);
        for case in 0..3000 {
            let len = next(300) as usize;
            let mut data: Vec<u8> = (0..len)
                .map(|_| match next(10) {
                    0 | 1 => b'\n',
                    2 => 0xef,
                    _ => b'a' + next(26) as u8,
                })
                .collect();
            if case % 4 == 0 {
                data.splice(0..0, BOM.iter().copied());
            }
            let size = 1 + next(40) as usize;
            let step = 1 + next(50) as usize;
            let got = pieces(&data, size, step);
            let whole = data.strip_prefix(BOM).unwrap_or(&data);
            assert_eq!(
                got.concat(),
                whole,
                "case {case}: every byte once, in order"
            );
            let longest = whole
                .split(|&b| b == b'\n')
                .map(<[u8]>::len)
                .max()
                .unwrap_or(0);
            for (i, p) in got.iter().enumerate() {
                assert!(!p.is_empty(), "case {case}: an empty piece");
                assert!(
                    p.len() <= 3 * size + longest,
                    "case {case}: piece {i} too long"
                );
                if i + 1 < got.len() {
                    assert!(
                        p.ends_with(b"\n"),
                        "case {case}: piece {i} ends inside a line"
                    );
                    // the bytes read up to its cut (at least `size`) are it and the start of
                    // the next piece
                    let bom = if i == 0 && data.starts_with(BOM) {
                        3
                    } else {
                        0
                    };
                    let read = p.len() + got[i + 1].len() + bom;
                    assert!(
                        read >= size,
                        "case {case}: piece {i} cut before {size} bytes"
                    );
                }
            }
        }
    }

    #[test]
    fn empty_text_and_bom_only() {
        assert!(pieces(b"", 4, 4).is_empty());
        assert!(pieces(BOM, 4, 4).is_empty());
        assert_eq!(
            pieces(b"\xef\xbb\xbfa\n\xef\xbb\xbfb", 2, 1),
            [&b"a\n"[..], b"\xef\xbb\xbfb"]
        );
    }

    #[test]
    fn a_text_shorter_than_expected_is_an_error_at_its_end() {
        let data = b"a b\nc d\n".repeat(50);
        for (expected, fails) in [(400, false), (399, false), (401, true), (5000, true)] {
            let input = Trickle {
                data: &data,
                pos: 0,
                step: 9,
                fail_at: None,
            };
            let mut r = TextReader::new(input, 64).expecting(expected);
            let got = std::iter::from_fn(|| r.next_piece().transpose()).collect::<Vec<_>>();
            let failed = got.last().is_some_and(Result::is_err);
            assert_eq!(failed, fails, "{expected}");
            assert!(got[..got.len() - 1].iter().all(Result::is_ok));
        }
    }

    #[test]
    fn a_failed_read_is_an_error_once_then_the_end() {
        let data = b"a b\nc d\ne f\n".repeat(100);
        let input = Trickle {
            data: &data,
            pos: 0,
            step: 7,
            fail_at: Some(500),
        };
        let mut r = TextReader::new(input, 64);
        let mut read = 0;
        let err = loop {
            match r.next_piece() {
                Ok(Some(p)) => read += p.len(),
                Ok(None) => panic!("the text ended before its failing byte"),
                Err(e) => break e,
            }
        };
        assert_eq!(err.raw_os_error(), Some(5));
        assert!(read <= 500);
        assert!(r.next_piece().unwrap().is_none());
    }
}
