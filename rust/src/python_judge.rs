//! `cranfield._core`'s judging functions ([`crate::judge`]) for `cranfield.judging.join`.
//!
//! Document ids come as a list of strings or as the buffers of an Arrow string column
//! (`offsets`, int64, and `data`, uint8): [`Docs`].  The work runs without the GIL.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use std::sync::Arc;

use super::{array, guarded};
use crate::judge;
use crate::run_judge::{QueryMap, query_map};

/// Document ids: Python strings, or an Arrow column's buffers.
enum Docs<'py> {
    Strings(Vec<Bound<'py, PyString>>),
    Arrow(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, u8>),
}

fn docs_of<'py>(docs: &Bound<'py, PyAny>) -> PyResult<Docs<'py>> {
    if let Ok((offsets, data)) = docs.extract::<(PyReadonlyArray1<i64>, PyReadonlyArray1<u8>)>() {
        return Ok(Docs::Arrow(offsets, data));
    }
    Ok(Docs::Strings(docs.extract()?))
}

/// The UTF-8 bytes of Python strings (borrowed from them).
fn utf8<'a>(strings: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a [u8]>> {
    strings
        .iter()
        .map(|s| s.to_str().map(str::as_bytes))
        .collect()
}

/// The ids as a function of the row, checked once (an offset out of range is an error here,
/// never a panic later).
struct DocView<'a> {
    strings: Vec<&'a [u8]>,
    offsets: &'a [i64],
    data: &'a [u8],
}

impl<'a> DocView<'a> {
    fn new(docs: &'a Docs<'_>, rows: usize) -> PyResult<Self> {
        match docs {
            Docs::Strings(v) => {
                if v.len() != rows {
                    return Err(PyValueError::new_err("judge: one document per row"));
                }
                Ok(DocView {
                    strings: utf8(v)?,
                    offsets: &[],
                    data: &[],
                })
            }
            Docs::Arrow(o, d) => {
                let (offsets, data) = (o.as_slice()?, d.as_slice()?);
                let ok = offsets.len() == rows + 1
                    && offsets.first().is_some_and(|&a| a >= 0)
                    && offsets.windows(2).all(|w| w[0] <= w[1])
                    && offsets[rows] as usize <= data.len();
                if !ok {
                    return Err(PyValueError::new_err(
                        "judge: the documents' offsets do not fit their bytes",
                    ));
                }
                Ok(DocView {
                    strings: Vec::new(),
                    offsets,
                    data,
                })
            }
        }
    }

    #[inline]
    fn get(&self, r: usize) -> &'a [u8] {
        if self.offsets.is_empty() {
            self.strings[r]
        } else {
            &self.data[self.offsets[r] as usize..self.offsets[r + 1] as usize]
        }
    }
}

/// The judgments of a `Qrels`, by query and document, and its query ids by position, built
/// once per qrels (the query ids' map shared by every pass judged against them).
#[pyclass(frozen, module = "cranfield._core")]
pub struct QrelsIndex {
    inner: judge::QrelsIndex,
    queries: Arc<QueryMap>,
}

#[pymethods]
impl QrelsIndex {
    /// `QrelsIndex(offsets, doc_ids, grades, query_ids)`: the columns of a
    /// `cranfield.data.Qrels` (query `i`, `query_ids[i]`, judges rows
    /// `offsets[i]..offsets[i + 1]`).
    #[new]
    fn new(
        py: Python<'_>,
        offsets: PyReadonlyArray1<'_, i64>,
        doc_ids: Vec<Bound<'_, PyString>>,
        grades: PyReadonlyArray1<'_, i64>,
        query_ids: Vec<Bound<'_, PyString>>,
    ) -> PyResult<Self> {
        let (offsets, grades) = (offsets.as_slice()?, grades.as_slice()?);
        let docs = utf8(&doc_ids)?;
        let queries = utf8(&query_ids)?;
        let ok = grades.len() == docs.len()
            && offsets.len() == queries.len() + 1
            && offsets.first() == Some(&0)
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && offsets.last().is_some_and(|&b| b as usize == docs.len());
        if !ok {
            return Err(PyValueError::new_err("QrelsIndex: the columns do not fit"));
        }
        py.detach(|| {
            guarded("QrelsIndex", || {
                Self::of_columns(offsets, &docs, grades, &queries)
            })
        })
    }

    #[getter]
    fn num_queries(&self) -> PyResult<usize> {
        guarded("QrelsIndex.num_queries", || self.inner.num_queries())
    }

    /// `prepare()`: make the lookup tables now (the first lookup makes them otherwise, after
    /// a qrels' text is let go of): before worker processes are forked, so that they share
    /// them instead of each making its own.
    fn prepare(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| guarded("QrelsIndex.prepare", || self.inner.prepare()))
    }

    /// Whether the lookup tables are made.
    #[getter]
    fn prepared(&self) -> PyResult<bool> {
        guarded("QrelsIndex.prepared", || self.inner.prepared())
    }

    /// `id_strings()`: the document id of every judgment, in row order, as Python strings
    /// (made only when something reads the qrels' document ids).
    fn id_strings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ids = guarded("QrelsIndex.id_strings", || {
            (0..self.inner.rows())
                .map(|r| self.inner.doc(r))
                .collect::<Vec<&[u8]>>()
        })?;
        PyList::new(py, super::strings(py, &ids)?)
    }
}

impl QrelsIndex {
    /// The index itself (for the other entry points of the core).
    pub fn inner(&self) -> &judge::QrelsIndex {
        &self.inner
    }

    /// The qrels' query ids by position.
    pub fn queries(&self) -> &Arc<QueryMap> {
        &self.queries
    }

    /// The index of qrels columns the core read itself (`read_qrels`): built from the file's
    /// bytes, with no Python string per judgment.
    pub fn of_columns(offsets: &[i64], docs: &[&[u8]], grades: &[i64], queries: &[&[u8]]) -> Self {
        QrelsIndex {
            inner: judge::QrelsIndex::new(offsets, |r| docs[r], grades),
            queries: Arc::new(query_map(queries)),
        }
    }

    /// The same, the document of row `r` being `bytes[doc_offsets[r]..doc_offsets[r + 1]]`
    /// (offsets ascending from 0, as `read_qrels` makes them); the buffer and its offsets
    /// are kept by the index, not copied.
    pub fn of_joined(
        offsets: &[i64],
        bytes: Vec<u8>,
        doc_offsets: Vec<u32>,
        grades: &[i64],
        queries: &[&[u8]],
    ) -> Self {
        QrelsIndex {
            inner: judge::QrelsIndex::of_joined(offsets, bytes, doc_offsets, grades),
            queries: Arc::new(query_map(queries)),
        }
    }
}

fn check_rows(rows: &[i64], n: usize) -> PyResult<()> {
    if rows.iter().all(|&r| r >= 0 && (r as usize) < n) {
        Ok(())
    } else {
        Err(PyValueError::new_err("judge: a row out of range"))
    }
}

fn check_segments(index: &QrelsIndex, query_of_segment: &[i64]) -> PyResult<()> {
    if query_of_segment
        .iter()
        .all(|&q| q < index.inner.num_queries() as i64)
    {
        Ok(())
    } else {
        Err(PyValueError::new_err(
            "judge: a segment's query out of range",
        ))
    }
}

/// `judge_grades(index, query_of_segment, offsets, rows, docs)`: the grade code of every
/// ranked row (`crate::judge::grades`); `docs` holds the run's documents (per run row).
#[pyfunction]
pub fn judge_grades<'py>(
    py: Python<'py>,
    index: &Bound<'py, QrelsIndex>,
    query_of_segment: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    rows: PyReadonlyArray1<'py, i64>,
    docs: &Bound<'py, PyAny>,
    num_rows: usize,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let index = index.get();
    let (qseg, offsets, rows) = (
        query_of_segment.as_slice()?,
        offsets.as_slice()?,
        rows.as_slice()?,
    );
    check_segments(index, qseg)?;
    let ok = offsets.len() == qseg.len() + 1
        && offsets.first().is_none_or(|&a| a == 0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets.last().is_none_or(|&b| b as usize == rows.len());
    if !ok {
        return Err(PyValueError::new_err(
            "judge: the segments do not fit the rows",
        ));
    }
    check_rows(rows, num_rows)?;
    let docs = docs_of(docs)?;
    let dv = DocView::new(&docs, num_rows)?;
    let out = py.detach(|| {
        guarded("judge_grades", || {
            judge::grades(&index.inner, qseg, offsets, rows, |r| dv.get(r))
        })
    })?;
    Ok(array(py, out))
}

/// `order_trec(segment_of_query, num_segments, qcodes, scores, docs)`: the run's rows in
/// `trec` order (`crate::judge::order_trec`): a dict of `rows`, `lengths`, `tie_ids` (int64
/// arrays) and `identity`.
#[pyfunction]
pub fn order_trec<'py>(
    py: Python<'py>,
    segment_of_query: PyReadonlyArray1<'py, i64>,
    num_segments: usize,
    qcodes: PyReadonlyArray1<'py, i32>,
    scores: PyReadonlyArray1<'py, f64>,
    docs: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let segq = segment_of_query.as_slice()?;
    let (qcodes, scores) = (qcodes.as_slice()?, scores.as_slice()?);
    if scores.len() != qcodes.len() {
        return Err(PyValueError::new_err("order_trec: one score per row"));
    }
    let docs = docs_of(docs)?;
    let dv = DocView::new(&docs, qcodes.len())?;
    let o = py.detach(|| {
        guarded("order_trec", || {
            judge::order_trec(segq, num_segments, qcodes, scores, |r| dv.get(r))
        })
    })?;
    let d = PyDict::new(py);
    d.set_item("rows", array(py, o.rows))?;
    d.set_item("lengths", array(py, o.lengths))?;
    d.set_item("tie_ids", array(py, o.tie_ids))?;
    d.set_item("identity", o.identity)?;
    Ok(d)
}

/// `first_duplicate(qcodes, docs)`: `(later, earlier)`, the first row whose (query,
/// document) an earlier row holds and that row, or `None`
/// (`crate::duplicates::first_duplicate`).
#[pyfunction]
pub fn first_duplicate<'py>(
    py: Python<'py>,
    qcodes: PyReadonlyArray1<'py, i32>,
    docs: &Bound<'py, PyAny>,
) -> PyResult<Option<(usize, usize)>> {
    let qcodes = qcodes.as_slice()?;
    let docs = docs_of(docs)?;
    let dv = DocView::new(&docs, qcodes.len())?;
    py.detach(|| {
        guarded("first_duplicate", || {
            crate::duplicates::first_duplicate(qcodes, |r| dv.get(r))
        })
    })
}
