//! `cranfield._core.RunJudge` for `cranfield.judging.streamed_run`: a run judged as its
//! pieces are read, against a `QrelsIndex` — grouped by query ([`crate::run_judge`]), or
//! collected per query and judged at its end ([`crate::run_collect`]).  The work runs
//! without the GIL.

use std::io::{self, Read, Seek};
use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::judge_py::QrelsIndex;
use super::{array, guarded, set_counts, text};
use crate::run_collect::RunCollect;
use crate::run_judge::{self, Judged, Stop};
use crate::text_reader;
use crate::trec::Counts;

enum Pass {
    Grouped(Box<run_judge::RunJudge>),
    Collected(Box<RunCollect>),
}

/// The pass: `RunJudge(index, depth, judged_only, grouped=True, rows=..., threads=None)`,
/// judged against the qrels of `index` (its query ids' map shared, not made again:
/// evaluating a run in many ranges makes a pass per range); `grouped=False` collects a run
/// that is not grouped by query and judges it once the text has ended, in batches of about
/// `rows` judged rows; `threads`: how many threads read and judge a large piece (`None`: one
/// per core).
#[pyclass(module = "cranfield._core")]
pub struct RunJudge {
    index: Py<QrelsIndex>,
    pass: Pass,
}

fn stopped(py: Python<'_>, stop: &Stop) -> PyResult<Py<PyAny>> {
    Ok(PyString::new(py, stop.name()).into_any().unbind())
}

fn batch(
    py: Python<'_>,
    j: Judged,
    more: bool,
    tag: &[u8],
    counts: &Counts,
) -> PyResult<Py<PyAny>> {
    let d = PyDict::new(py);
    let ids = j
        .run_ids
        .iter()
        .map(|q| text(py, q))
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("qrels_queries", array(py, j.qrels_queries))?;
    d.set_item("offsets", array(py, j.offsets))?;
    d.set_item("grades", array(py, j.grades))?;
    d.set_item("scores", array(py, j.scores))?;
    d.set_item("tie_ids", array(py, j.tie_ids))?;
    d.set_item("run_ids", PyList::new(py, ids)?)?;
    d.set_item("tag", text(py, tag)?)?;
    d.set_item("more", more)?;
    set_counts(&d, counts)?;
    Ok(d.into_any().unbind())
}

/// Judged queries of a pass, as the pass took them.
enum Queries {
    /// Not yet in the qrels' order (a grouped pass's).
    Held(run_judge::Held),
    Judged(Judged),
}

/// Judged queries taken from a `RunJudge` (`take`): `batch()` makes them a dict of
/// `qrels_queries`, `offsets`, `grades`, `scores`, `tie_ids` (arrays), `run_ids` (the run's
/// query ids met since the last take), `tag`, `more` (another batch follows: take again) and
/// `counts` (the lines read when they were taken: lines, data, comments, blank, extra, first
/// extra line), once.
#[pyclass(module = "cranfield._core")]
pub struct Taken {
    queries: Option<Queries>,
    /// Another batch follows (a run collected whole): take again.
    #[pyo3(get)]
    more: bool,
    tag: Vec<u8>,
    counts: Counts,
}

#[pymethods]
impl Taken {
    fn batch(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some(queries) = self.queries.take() else {
            return Err(PyValueError::new_err(
                "Taken.batch: the batch was made already",
            ));
        };
        let judged = py.detach(|| {
            guarded("Taken.batch", || match queries {
                Queries::Held(h) => h.judged(),
                Queries::Judged(j) => j,
            })
        })?;
        batch(py, judged, self.more, &self.tag, &self.counts)
    }
}

/// `TextReader(path, size, start=0, stop=None)`: the plain text file `path` (its bytes
/// `start:stop`; a file that ends before `stop` is an `OSError` there) read in pieces of
/// whole lines of about `size` bytes ([`crate::text_reader`]) by [`RunJudge::feed_next`],
/// which reads the next piece while the core judges the current one.  `device`, `inode`: the
/// file opened (the caller checks that it is the file it has checked).
#[pyclass(module = "cranfield._core")]
pub struct TextReader {
    reader: text_reader::TextReader<io::Take<std::fs::File>>,
    /// The next piece, read while the last one was judged.
    ready: Option<io::Result<Option<Vec<u8>>>>,
    #[pyo3(get)]
    device: u64,
    #[pyo3(get)]
    inode: u64,
}

#[pymethods]
impl TextReader {
    #[new]
    #[pyo3(signature = (path, size, start=0, stop=None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        size: usize,
        start: u64,
        stop: Option<u64>,
    ) -> PyResult<Self> {
        if stop.is_some_and(|stop| stop < start) {
            return Err(PyValueError::new_err("TextReader: stop before start"));
        }
        let opened = guarded("TextReader", || {
            let (mut file, device, inode) = open_file(&path)?;
            file.seek(io::SeekFrom::Start(start))?;
            let reader = match stop {
                Some(stop) => text_reader::TextReader::new(file.take(stop - start), size)
                    .expecting(stop - start),
                None => text_reader::TextReader::new(file.take(u64::MAX), size),
            };
            Ok::<_, io::Error>((reader, device, inode))
        })?;
        let (reader, device, inode) = opened.map_err(|e| os_error(py, e))?;
        Ok(TextReader {
            reader,
            ready: None,
            device,
            inode,
        })
    }
}

#[cfg(unix)]
fn open_file(path: &std::path::Path) -> io::Result<(std::fs::File, u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    Ok((file, meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn open_file(_path: &std::path::Path) -> io::Result<(std::fs::File, u64, u64)> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "the core reads files on Unix only",
    ))
}

/// An I/O error as Python's `OSError(errno, os.strerror(errno))` (its subclass for the errno,
/// as `open` raises it).
fn os_error(py: Python<'_>, e: io::Error) -> PyErr {
    let Some(code) = e.raw_os_error() else {
        return PyOSError::new_err(e.to_string());
    };
    let strerror = py
        .import("os")
        .and_then(|os| os.call_method1("strerror", (code,)))
        .and_then(|s| s.extract::<String>());
    match strerror {
        Ok(s) => PyOSError::new_err((code, s)),
        Err(err) => err,
    }
}

/// `f()` (with the GIL), and what it raised.
fn call(f: &Option<Py<PyAny>>) -> Option<PyErr> {
    f.as_ref()
        .and_then(|f| Python::attach(|py| f.call0(py)).err())
}

/// What [`RunJudge::feed_next`] did.
enum Fed {
    Piece(Result<(), Stop>),
    End,
    Failed(io::Error),
}

#[pymethods]
impl RunJudge {
    #[new]
    #[pyo3(signature = (index, depth, judged_only, grouped=true, rows=1 << 19, threads=None))]
    fn new(
        index: Bound<'_, QrelsIndex>,
        depth: Option<usize>,
        judged_only: bool,
        grouped: bool,
        rows: usize,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let threads = threads.unwrap_or_else(crate::threads::available);
        let queries = Arc::clone(index.get().queries());
        let pass = guarded("RunJudge", || {
            if grouped {
                let pass = run_judge::RunJudge::with_queries(queries, depth, judged_only);
                Pass::Grouped(Box::new(pass.with_threads(threads)))
            } else {
                let pass = RunCollect::with_queries(queries, depth, judged_only, rows);
                Pass::Collected(Box::new(pass.with_threads(threads)))
            }
        })?;
        Ok(RunJudge {
            index: index.unbind(),
            pass,
        })
    }

    /// `feed(data)`: read the next piece (whole lines); `None`, or why the pass stopped
    /// (`"text"`, `"parse"`, `"not grouped"`, `"duplicate"`, `"id"`, `"empty"`, `"limit"`).
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<Option<Py<PyAny>>> {
        let index = self.index.get().inner();
        let pass = &mut self.pass;
        let got = py.detach(|| {
            guarded("RunJudge.feed", || match pass {
                Pass::Grouped(g) => g.feed(index, data),
                Pass::Collected(c) => c.feed(data),
            })
        })?;
        match got {
            Ok(()) => Ok(None),
            Err(stop) => Ok(Some(stopped(py, &stop)?)),
        }
    }

    /// `feed_next(reader, during=None)`: read the next piece of `reader` (a `TextReader`) and
    /// feed it, reading the piece after it meanwhile (on this thread once no part of the
    /// piece is left to judge, while the other threads judge theirs); `True`, or `False` once
    /// the text has ended (nothing fed), or why the pass stopped (as `feed`).  A read that
    /// fails raises its `OSError`.  `during`: called (no argument) on this thread, holding the
    /// GIL, while the other threads start on the piece (the caller measures what it took
    /// before), and at the end of the text; what it raises is raised once the piece is fed,
    /// before anything else.
    #[pyo3(signature = (reader, during=None))]
    fn feed_next(
        &mut self,
        py: Python<'_>,
        mut reader: PyRefMut<'_, TextReader>,
        during: Option<Py<PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let index = self.index.get().inner();
        let pass = &mut self.pass;
        let TextReader { reader, ready, .. } = &mut *reader;
        let mut failed: Option<PyErr> = None;
        let fed = py.detach(|| {
            guarded("RunJudge.feed_next", || {
                let piece = match ready.take().unwrap_or_else(|| reader.next_piece()) {
                    Ok(Some(piece)) => piece,
                    Ok(None) => {
                        failed = call(&during);
                        return Fed::End;
                    }
                    Err(e) => {
                        failed = call(&during);
                        return Fed::Failed(e);
                    }
                };
                // `during` first on this thread, then the parts of the piece left, then the
                // next piece read while the other threads end theirs
                let mut first = || failed = call(&during);
                let mut then = || reader.next_piece();
                let (got, next) = match pass {
                    Pass::Grouped(g) => g.feed_beside(index, &piece, first, then),
                    Pass::Collected(c) => {
                        first();
                        (c.feed(&piece), then())
                    }
                };
                *ready = Some(next);
                reader.recycle(piece);
                Fed::Piece(got)
            })
        })?;
        if let Some(err) = failed {
            return Err(err);
        }
        match fed {
            Fed::Piece(Ok(())) => Ok(true.into_pyobject(py)?.to_owned().into_any().unbind()),
            Fed::Piece(Err(stop)) => stopped(py, &stop),
            Fed::End => Ok(false.into_pyobject(py)?.to_owned().into_any().unbind()),
            Fed::Failed(e) => Err(os_error(py, e)),
        }
    }

    /// `take(last)`: the next judged queries, as a `Taken` (their arrays made by its
    /// `batch()`, on the thread that wants them), or why the pass stopped (a string).
    /// `last`: the text has ended (a run collected whole is judged only then).
    fn take(&mut self, py: Python<'_>, last: bool) -> PyResult<Py<PyAny>> {
        let index = self.index.get().inner();
        if !last && matches!(self.pass, Pass::Collected(_)) {
            return Err(PyValueError::new_err(
                "RunJudge.take: a run collected whole is judged once its text has ended",
            ));
        }
        let pass = &mut self.pass;
        let got = py.detach(|| {
            guarded("RunJudge.take", || match pass {
                Pass::Grouped(g) => g.take(index, last).map(|h| (Queries::Held(h), false)),
                Pass::Collected(c) => c.take(index).map(|(j, more)| (Queries::Judged(j), more)),
            })
        })?;
        let (tag, counts) = match &self.pass {
            Pass::Grouped(g) => (g.tag(), g.counts()),
            Pass::Collected(c) => (c.tag(), c.counts()),
        };
        match got {
            Ok((queries, more)) => {
                let taken = Taken {
                    queries: Some(queries),
                    more,
                    tag: tag.to_vec(),
                    counts: counts.clone(),
                };
                Ok(Py::new(py, taken)?.into_any())
            }
            Err(stop) => stopped(py, &stop),
        }
    }

    /// The lines of the text read so far.
    #[getter]
    fn lines(&self) -> PyResult<u64> {
        guarded("RunJudge.lines", || match &self.pass {
            Pass::Grouped(g) => g.counts().lines,
            Pass::Collected(c) => c.counts().lines,
        })
    }

    /// Rows judged and not taken yet (none before its end for a run collected whole).
    #[getter]
    fn held(&self) -> PyResult<usize> {
        guarded("RunJudge.held", || match &self.pass {
            Pass::Grouped(g) => g.held(),
            Pass::Collected(_) => 0,
        })
    }
}
