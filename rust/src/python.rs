//! The extension module `cranfield._core`: the readers of [`crate::trec`] for Python.
//!
//! Each function takes the text as `bytes` and returns a dict of plain buffers (`bytearray`s
//! of native-endian numbers, which `numpy.frombuffer` reads without a copy) and Python
//! strings, or `{"error": kind, "line", "start", "end", "field"}` for `cranfield.io.text` to
//! word.  The parse runs without the GIL.  A panic is caught here and raised as
//! `cranfield._core.InternalError`, never unwound into the interpreter.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyList, PyString};

use crate::trec::{self, Counts, ParseError};

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

/// A native-endian buffer of 8-byte numbers as a `bytearray`.
fn buffer8<'py, T: Copy>(
    py: Python<'py>,
    values: &[T],
    bytes: impl Fn(T) -> [u8; 8],
) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, values.len() * 8, |buf| {
        for (chunk, &v) in buf.chunks_exact_mut(8).zip(values) {
            chunk.copy_from_slice(&bytes(v));
        }
        Ok(())
    })
}

fn buffer4<'py, T: Copy>(
    py: Python<'py>,
    values: &[T],
    bytes: impl Fn(T) -> [u8; 4],
) -> PyResult<Bound<'py, PyByteArray>> {
    PyByteArray::new_with(py, values.len() * 4, |buf| {
        for (chunk, &v) in buf.chunks_exact_mut(4).zip(values) {
            chunk.copy_from_slice(&bytes(v));
        }
        Ok(())
    })
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
/// the run has fewer than `list_rows` rows, else as the buffers of an Arrow string column
/// (`doc_offsets`: int32 or int64 by `doc_offsets_64`, `doc_bytes`).
#[pyfunction]
fn read_run<'py>(py: Python<'py>, data: &[u8], list_rows: usize) -> PyResult<Bound<'py, PyDict>> {
    let parsed = py.detach(|| guarded("read_run", || trec::read_run(data)))?;
    let run = match parsed {
        Ok(run) => run,
        Err(e) => return error_dict(py, &e),
    };
    let d = PyDict::new(py);
    d.set_item("query_ids", PyList::new(py, strings(py, &run.query_ids)?)?)?;
    d.set_item("qcodes", buffer4(py, &run.qcodes, i32::to_ne_bytes)?)?;
    let n = run.qcodes.len();
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
        let small = run.doc_bytes.len() <= i32::MAX as usize;
        let offsets = if small {
            buffer4(py, &run.doc_offsets, |v| (v as i32).to_ne_bytes())?
        } else {
            buffer8(py, &run.doc_offsets, i64::to_ne_bytes)?
        };
        d.set_item("doc_offsets", offsets)?;
        d.set_item("doc_offsets_64", !small)?;
        d.set_item("doc_bytes", PyByteArray::new(py, &run.doc_bytes))?;
    }
    d.set_item("scores", buffer8(py, &run.scores, f64::to_ne_bytes)?)?;
    d.set_item("ranks", buffer8(py, &run.ranks, i64::to_ne_bytes)?)?;
    match run.rank_problem {
        Some((line, tok)) => {
            d.set_item("rank_problem", (line, pyo3::types::PyBytes::new(py, tok)))?
        }
        None => d.set_item("rank_problem", py.None())?,
    }
    d.set_item("tag", text(py, run.tag)?)?;
    match &run.lines.lines {
        Some(v) => d.set_item("lines", buffer8(py, v, i64::to_ne_bytes)?)?,
        None => d.set_item("lines", py.None())?,
    }
    set_counts(&d, &run.counts)?;
    Ok(d)
}

/// `read_qrels(data)`: TREC qrels, sorted as `cranfield.data.Qrels` keeps them.
#[pyfunction]
fn read_qrels<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let parsed = py.detach(|| guarded("read_qrels", || trec::read_qrels(data)))?;
    let q = match parsed {
        Ok(q) => q,
        Err(e) => return error_dict(py, &e),
    };
    let d = PyDict::new(py);
    d.set_item("query_ids", PyList::new(py, strings(py, &q.query_ids)?)?)?;
    d.set_item("offsets", buffer8(py, &q.offsets, i64::to_ne_bytes)?)?;
    let vocab = strings(py, &q.doc_ids)?;
    let docs = q.doc_codes.iter().map(|&c| vocab[c as usize].clone());
    d.set_item("doc_ids", PyList::new(py, docs)?)?;
    d.set_item("grades", buffer8(py, &q.grades, i64::to_ne_bytes)?)?;
    d.set_item("lines", buffer8(py, &q.lines, i64::to_ne_bytes)?)?;
    set_counts(&d, &q.counts)?;
    Ok(d)
}

/// `_panic()`: raise a panic inside the core (tests check it becomes `InternalError`).
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
    m.add_function(wrap_pyfunction!(read_qrels, m)?)?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    m.add("InternalError", m.py().get_type::<InternalError>())?;
    Ok(())
}
