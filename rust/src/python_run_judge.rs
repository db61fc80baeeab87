//! `cranfield._core.RunJudge` ([`crate::run_judge`]) for `cranfield.judging.streamed_run`: a
//! grouped run judged as its pieces are read, against a `QrelsIndex`.  The work runs without
//! the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::judge_py::QrelsIndex;
use super::{array, guarded, text};
use crate::run_judge::{self, Stop};

/// The pass: `RunJudge(index, query_ids, depth, judged_only)`, `query_ids` the qrels' query
/// ids in the index's order.
#[pyclass(module = "cranfield._core")]
pub struct RunJudge {
    index: Py<QrelsIndex>,
    inner: run_judge::RunJudge,
}

fn stopped(py: Python<'_>, stop: &Stop) -> PyResult<Py<PyAny>> {
    Ok(PyString::new(py, stop.name()).into_any().unbind())
}

#[pymethods]
impl RunJudge {
    #[new]
    #[pyo3(signature = (index, query_ids, depth, judged_only))]
    fn new(
        index: Bound<'_, QrelsIndex>,
        query_ids: Vec<Bound<'_, PyString>>,
        depth: Option<usize>,
        judged_only: bool,
    ) -> PyResult<Self> {
        let ids = query_ids
            .iter()
            .map(|s| s.to_str().map(str::as_bytes))
            .collect::<PyResult<Vec<&[u8]>>>()?;
        if ids.len() != index.get().inner().num_queries() {
            return Err(PyValueError::new_err(
                "RunJudge: one query id per query of the index",
            ));
        }
        let inner = guarded("RunJudge", || {
            run_judge::RunJudge::new(&ids, depth, judged_only)
        })?;
        Ok(RunJudge {
            index: index.unbind(),
            inner,
        })
    }

    /// `feed(data)`: read the next piece (whole lines); `None`, or why the pass stopped
    /// (`"parse"`, `"not grouped"`, `"duplicate"`, `"id"`).
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<Option<Py<PyAny>>> {
        let index = self.index.get().inner();
        let inner = &mut self.inner;
        let got = py.detach(|| guarded("RunJudge.feed", || inner.feed(index, data)))?;
        match got {
            Ok(()) => Ok(None),
            Err(stop) => Ok(Some(stopped(py, &stop)?)),
        }
    }

    /// `take(last)`: the queries judged since the last take, a dict of `qrels_queries`,
    /// `offsets`, `grades`, `scores`, `tie_ids` (arrays), `run_ids` (the run's query ids met
    /// since then, in file order) and `tag`; or why the pass stopped (a string).  `last`: the
    /// text has ended.
    fn take(&mut self, py: Python<'_>, last: bool) -> PyResult<Py<PyAny>> {
        let index = self.index.get().inner();
        let inner = &mut self.inner;
        let got = py.detach(|| guarded("RunJudge.take", || inner.take(index, last)))?;
        let j = match got {
            Ok(x) => x,
            Err(stop) => return stopped(py, &stop),
        };
        let d = PyDict::new(py);
        d.set_item("qrels_queries", array(py, j.qrels_queries))?;
        d.set_item("offsets", array(py, j.offsets))?;
        d.set_item("grades", array(py, j.grades))?;
        d.set_item("scores", array(py, j.scores))?;
        d.set_item("tie_ids", array(py, j.tie_ids))?;
        let ids = j
            .run_ids
            .iter()
            .map(|q| text(py, q))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("run_ids", PyList::new(py, ids)?)?;
        d.set_item("tag", text(py, self.inner.tag())?)?;
        Ok(d.into_any().unbind())
    }

    /// Rows judged and not taken yet.
    #[getter]
    fn held(&self) -> PyResult<usize> {
        guarded("RunJudge.held", || self.inner.held())
    }
}
