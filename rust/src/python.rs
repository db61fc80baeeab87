//! The extension module `cranfield._core`: the readers of [`crate::trec`] for Python.
//!
//! Each function takes the text as `bytes` and returns a dict of numpy arrays (the core's
//! vectors, handed over without a copy) and Python strings, or `{"error": kind, "line", "start", "end", "field"}` for `cranfield.io.text` to
//! word.  The parse runs without the GIL.  A panic is caught here and raised as
//! `cranfield._core.InternalError`, never unwound into the interpreter.
//!
//! Every entry point (a `#[pyfunction]`, or a method of a `#[pymethods]` block) runs its work
//! in [`guarded`]: `tests/entry_points.rs` fails `cargo test` otherwise (see rust/README.md).

use std::panic::{AssertUnwindSafe, catch_unwind};

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::quicksort;
use crate::trec::{self, Counts, ParseError};

#[path = "dicts_glue.rs"]
mod dicts_glue;
#[path = "python_judge.rs"]
mod judge_py;
#[path = "python_run_judge.rs"]
mod run_judge_py;

create_exception!(
    _core,
    InternalError,
    PyRuntimeError,
    "A bug in cranfield's compiled core (please report it with the input)."
);

/// Run `f` and turn a panic into one clear error.
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        InternalError::new_err(format!(
            "internal error in cranfield's compiled core ({what}): {msg}; please report it"
        ))
    })
}

/// A vector as a numpy array that owns its memory (no copy).
fn array<'py, T: numpy::Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyArray1<T>> {
    PyArray1::from_vec(py, v)
}

fn text<'py>(py: Python<'py>, id: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let s = std::str::from_utf8(id)
        .map_err(|_| PyValueError::new_err("the text must be checked as UTF-8 before parsing"))?;
    Ok(PyString::new(py, s))
}

fn strings<'py>(py: Python<'py>, ids: &[&[u8]]) -> PyResult<Vec<Bound<'py, PyString>>> {
    ids.iter().map(|id| text(py, id)).collect()
}

fn error_dict<'py>(py: Python<'py>, e: &ParseError) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("error", e.kind.name())?;
    d.set_item("line", e.line)?;
    d.set_item("start", e.start)?;
    d.set_item("end", e.end)?;
    d.set_item("field", e.field)?;
    Ok(d)
}

fn set_counts(d: &Bound<'_, PyDict>, c: &Counts) -> PyResult<()> {
    d.set_item(
        "counts",
        (c.lines, c.data, c.comments, c.blank, c.extra, c.first_extra),
    )
}

/// `read_run(data, list_rows)`: a TREC run.  The documents come as a list of strings when
/// the run has fewer than `list_rows` rows, else as the buffers of an Arrow large string
/// column (`doc_offsets`, int64, and `doc_bytes`, uint8).
#[pyfunction]
fn read_run<'py>(py: Python<'py>, data: &[u8], list_rows: usize) -> PyResult<Bound<'py, PyDict>> {
    let parsed = py.detach(|| guarded("read_run", || trec::read_run(data)))?;
    let run = match parsed {
        Ok(run) => run,
        Err(e) => return error_dict(py, &e),
    };
    let d = PyDict::new(py);
    d.set_item("query_ids", PyList::new(py, strings(py, &run.query_ids)?)?)?;
    let n = run.qcodes.len();
    d.set_item("qcodes", array(py, run.qcodes))?;
    if n < list_rows {
        let docs = run
            .doc_offsets
            .windows(2)
            .map(|w| text(py, &run.doc_bytes[w[0] as usize..w[1] as usize]));
        d.set_item(
            "docs",
            PyList::new(py, docs.collect::<PyResult<Vec<_>>>()?)?,
        )?;
    } else {
        d.set_item("doc_offsets", array(py, run.doc_offsets))?;
        d.set_item("doc_bytes", array(py, run.doc_bytes))?;
    }
    d.set_item("scores", array(py, run.scores))?;
    d.set_item("ranks", array(py, run.ranks))?;
    match run.rank_problem {
        Some((line, tok)) => d.set_item("rank_problem", (line, PyBytes::new(py, tok)))?,
        None => d.set_item("rank_problem", py.None())?,
    }
    d.set_item("tag", text(py, run.tag)?)?;
    match run.lines.lines {
        Some(v) => d.set_item("lines", array(py, v))?,
        None => d.set_item("lines", py.None())?,
    }
    set_counts(&d, &run.counts)?;
    Ok(d)
}

/// What [`ReadQrels`] hands over besides its index: the columns of TREC qrels, sorted as
/// `cranfield.data.Qrels` keeps them, and the ids' owned bytes.
struct QrelsRead {
    duplicates: bool,
    /// The query ids joined, and their bounds ([`crate::judge::joined`]).
    query_ids: (Vec<u8>, Vec<u32>),
    ids_ok: bool,
    offsets: Vec<i64>,
    grades: Vec<i64>,
    lines: Option<Vec<u32>>,
    counts: Counts,
}

/// TREC qrels read and indexed: the whole of [`ReadQrels`]'s work, none of it needing the
/// interpreter.
fn qrels_read(data: &[u8]) -> Result<(QrelsRead, judge_py::QrelsIndex), ParseError> {
    let mut q = trec::read_qrels(data)?;
    let duplicates = q.has_duplicate();
    let bad = crate::run_judge::bad_id;
    let ids_ok = !q.query_ids.iter().any(|id| bad(id)) && !(0..q.rows()).any(|r| bad(q.doc(r)));
    // the ids joined into one buffer, their slices freed, and the buffer kept by the index,
    // which makes the ids' strings when asked (`QrelsIndex.id_strings`): the documents'
    // bytes held once (the peak memory of a large qrels read)
    let (bytes, doc_offsets) = crate::judge::joined(q.rows(), |r| q.doc(r));
    q.free_docs();
    let index =
        judge_py::QrelsIndex::of_joined(&q.offsets, bytes, doc_offsets, &q.grades, &q.query_ids);
    let read = QrelsRead {
        duplicates,
        query_ids: crate::judge::joined(q.query_ids.len(), |i| q.query_ids[i]),
        ids_ok,
        offsets: q.offsets,
        grades: q.grades,
        lines: q.lines,
        counts: q.counts,
    };
    Ok((read, index))
}

/// `ReadQrels(data)`: TREC qrels, read and indexed without the GIL and without numpy (a
/// thread reading them ahead waits neither for the interpreter nor for numpy's import).
/// `index`: the judging index (`QrelsIndex`, which holds the document ids' bytes and makes
/// their strings when asked), or `None` when the text is not valid qrels.  `result()`, once:
/// a dict of the query ids (strings), `offsets`, `grades`, `lines` (numpy arrays; `lines` is
/// `None` where each judgment's line is its row + 1), `index`, `duplicates` (whether a query
/// judges a document twice), `ids_ok` (whether every id follows the id rule) and `counts`,
/// or the error's dict.
#[pyclass(frozen, module = "cranfield._core")]
struct ReadQrels {
    #[pyo3(get)]
    index: Option<Py<judge_py::QrelsIndex>>,
    read: std::sync::Mutex<Option<Result<QrelsRead, ParseError>>>,
}

#[pymethods]
impl ReadQrels {
    #[new]
    fn new(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let (read, index) = match py.detach(|| guarded("read_qrels", || qrels_read(data)))? {
            Ok((read, index)) => (Ok(read), Some(Py::new(py, index)?)),
            Err(e) => (Err(e), None),
        };
        Ok(ReadQrels {
            index,
            read: std::sync::Mutex::new(Some(read)),
        })
    }

    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let read = guarded("ReadQrels.result", || {
            self.read.lock().map(|mut r| r.take()).ok().flatten()
        })?;
        let q = match read {
            None => return Err(PyValueError::new_err("ReadQrels.result: already taken")),
            Some(Err(e)) => return error_dict(py, &e),
            Some(Ok(q)) => q,
        };
        let d = PyDict::new(py);
        d.set_item("duplicates", q.duplicates)?;
        let (bytes, bounds) = &q.query_ids;
        let ids = bounds
            .windows(2)
            .map(|w| text(py, &bytes[w[0] as usize..w[1] as usize]));
        d.set_item(
            "query_ids",
            PyList::new(py, ids.collect::<PyResult<Vec<_>>>()?)?,
        )?;
        d.set_item("ids_ok", q.ids_ok)?;
        d.set_item("index", &self.index)?;
        d.set_item("offsets", array(py, q.offsets))?;
        d.set_item("grades", array(py, q.grades))?;
        match q.lines {
            Some(v) => d.set_item("lines", array(py, v))?,
            None => d.set_item("lines", py.None())?,
        }
        set_counts(&d, &q.counts)?;
        Ok(d)
    }
}

/// `numba_argsort(values, offsets)`: numba's `np.argsort` (ranx's order) of each segment
/// `values[offsets[k]:offsets[k + 1]]`, positions counted within the segment
/// ([`crate::quicksort`]).
#[pyfunction]
fn numba_argsort<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
    offsets: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let (v, o) = (values.as_slice()?, offsets.as_slice()?);
    let sorted =
        py.detach(|| guarded("numba_argsort", || quicksort::numba_argsort_segments(v, o)))?;
    match sorted {
        Some(positions) => Ok(array(py, positions)),
        None => Err(PyValueError::new_err(
            "numba_argsort: the offsets do not cut the values into segments",
        )),
    }
}

/// `_panic()`: raise a panic inside the core (tests check it becomes `InternalError`).
/// `id_strings(offsets, data)`: the ids `data[offsets[i]..offsets[i + 1]]` as a list of
/// strings (the text was checked as UTF-8 when it was read).
#[pyfunction]
fn id_strings<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
) -> PyResult<Bound<'py, PyList>> {
    let (offsets, data) = (offsets.as_slice()?, data.as_slice()?);
    let ok = offsets.first().is_none_or(|&a| a >= 0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets.last().is_none_or(|&b| b as usize <= data.len());
    if !ok {
        return Err(PyValueError::new_err(
            "id_strings: the offsets do not fit the bytes",
        ));
    }
    let ids = guarded("id_strings", || {
        offsets
            .windows(2)
            .map(|w| &data[w[0] as usize..w[1] as usize])
            .collect::<Vec<&[u8]>>()
    })?;
    PyList::new(py, strings(py, &ids)?)
}

#[pyfunction]
fn _panic() -> PyResult<()> {
    guarded("_panic", || panic!("a test of the panic guard"))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // a panic is reported once, by `guarded`'s InternalError (this library's own hook: the
    // extension module links its own copy of std)
    std::panic::set_hook(Box::new(|_| {}));
    m.add_function(wrap_pyfunction!(read_run, m)?)?;
    m.add_class::<ReadQrels>()?;
    m.add_function(wrap_pyfunction!(numba_argsort, m)?)?;
    m.add_function(wrap_pyfunction!(id_strings, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add_class::<judge_py::QrelsIndex>()?;
    m.add_function(wrap_pyfunction!(judge_py::judge_grades, m)?)?;
    m.add_function(wrap_pyfunction!(judge_py::order_trec, m)?)?;
    m.add_function(wrap_pyfunction!(judge_py::first_duplicate, m)?)?;
    m.add_class::<run_judge_py::RunJudge>()?;
    m.add_class::<run_judge_py::TextReader>()?;
    m.add_class::<run_judge_py::Taken>()?;
    dicts_glue::register(m)?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    Ok(())
}
