//! The dict evaluations of [`crate::dicts`] for Python (a child module of `python.rs`).
//!
//! `dict_qrels(qrels)` and `dict_evaluate(index, run, ...)` take the dicts as the user gave
//! them and return `None` for anything but the plain shape: dicts (or their subclasses) keyed
//! by `str` ids that follow the id rule, grades that are `int` (not `bool`) in int64, scores
//! that are finite `float`s or `int`s.  Python then takes its general path, which reads every
//! other input and words every problem (so no message is written twice).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use numpy::{PyArray1, PyReadonlyArray1};

use super::{InternalError, array, guarded};
use crate::dicts::{self, Kernel, QrelsIndex, UNDEFINED_CASES};

/// A kernel as Python names it: `(name, cutoff or -1, rel, x, extra)` ([`Kernel::from_parts`]).
type KernelCall = (String, i64, i64, f64, Vec<f64>);

/// The qrels of an evaluator, indexed once (`cranfield._core.DictQrels`).
#[pyclass(frozen, module = "cranfield._core")]
pub struct DictQrels {
    index: QrelsIndex,
    /// The query ids as Python strings, made once.
    ids: Vec<Py<PyString>>,
}

#[pymethods]
impl DictQrels {
    /// The query ids with judgments, in `strcmp` order.
    #[getter]
    fn query_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        guarded("DictQrels.query_ids", || {
            PyTuple::new(py, self.ids.iter().map(|s| s.bind(py)))
        })?
    }

    /// The highest grade of the qrels.
    #[getter]
    fn max_grade(&self) -> PyResult<Option<i64>> {
        guarded("DictQrels.max_grade", || self.index.max_grade)
    }

    fn __len__(&self) -> PyResult<usize> {
        guarded("DictQrels.__len__", || self.index.num_queries())
    }

    /// `{query: {document: grade}}`: the judgments indexed (queries without any left out),
    /// a copy made from the index, whatever became of the dicts it was built from.
    fn judgments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guarded("DictQrels.judgments", || {
            let out = PyDict::new(py);
            for (id, judged) in self.ids.iter().zip(&self.index.judgments) {
                let docs = PyDict::new(py);
                for (doc, grade) in judged {
                    docs.set_item(doc.as_ref(), grade)?;
                }
                out.set_item(id.bind(py), docs)?;
            }
            Ok(out)
        })?
    }
}

/// An id of the plain shape: an exact `str`, valid UTF-8, following the id rule.
fn plain_id<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    if !obj.is_exact_instance_of::<PyString>() {
        return None;
    }
    let s = obj.cast::<PyString>().ok()?.to_str().ok()?;
    dicts::valid_id(s.as_bytes()).then_some(s)
}

fn plain_grade(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if !obj.is_exact_instance_of::<PyInt>() {
        return None;
    }
    obj.extract::<i64>().ok()
}

fn plain_score(obj: &Bound<'_, PyAny>) -> Option<f64> {
    let f = if obj.is_exact_instance_of::<PyFloat>() {
        obj.cast::<PyFloat>().ok()?.value()
    } else if obj.is_exact_instance_of::<PyInt>() {
        obj.extract::<f64>().ok()? // int.__float__: correctly rounded; too large: None
    } else {
        return None;
    };
    f.is_finite().then_some(f)
}

/// `dict_qrels(qrels)`: the index of `{qid: {doc: grade}}`, or `None` when the qrels are
/// not of the plain shape (or judge nothing).
#[pyfunction]
fn dict_qrels(py: Python<'_>, qrels: &Bound<'_, PyAny>) -> PyResult<Option<DictQrels>> {
    let Ok(outer) = qrels.cast::<PyDict>() else {
        return Ok(None);
    };
    let mut entries = Vec::with_capacity(outer.len());
    let mut any = false;
    for (q, docs) in outer.iter() {
        let Some(qid) = plain_id(&q) else {
            return Ok(None);
        };
        let Ok(docs) = docs.cast::<PyDict>() else {
            return Ok(None);
        };
        let mut judged = Vec::with_capacity(docs.len());
        for (d, g) in docs.iter() {
            let (Some(doc), Some(grade)) = (plain_id(&d), plain_grade(&g)) else {
                return Ok(None);
            };
            judged.push((doc.to_string(), grade));
        }
        any |= !judged.is_empty();
        entries.push((qid.to_string(), judged));
    }
    if !any {
        return Ok(None);
    }
    let index = guarded("dict_qrels", || QrelsIndex::new(entries))?;
    let ids = index
        .query_ids
        .iter()
        .map(|s| PyString::new(py, s).unbind())
        .collect();
    Ok(Some(DictQrels { index, ids }))
}

/// `dict_evaluate(index, run, kernels, complete, depth, judged_only, rel)`: the run
/// `{qid: {doc: score}}` judged against `index` and measured by `kernels` (a list of
/// `(name, cutoff or -1, rel, x, extra)`), or `None` when the run is not of the plain shape or no
/// query is evaluated.  Returns `(query_ids, values, undefined, retrieved, relevant,
/// relevant_retrieved, run_only, missing, arrays, totals)`: the evaluated queries in `strcmp`
/// order (all the judged ones when `complete`), their values (queries x kernels, float64),
/// per kernel and per undefined case of its declaration (`UNDEFINED_CASES` slots a kernel,
/// the module's constant) the number of queries where it holds, per query the rows, the relevant
/// documents at `rel` and the relevant rows, the run's queries without judgments (in the
/// run's order), the judged queries without results, and with `arrays` the judged rankings'
/// arrays (offsets, grades, scores, tie_ids, qrels_offsets, qrels_grades, in_run) for the
/// measures without a kernel, else `None`; and the sums of the three per-query counts.
/// `single`: the scores rounded to single precision first (trec_eval 9.0.8, pytrec_eval);
/// `keep_empty`: a judged query mapped to no documents is evaluated as an empty ranking
/// (pytrec_eval's rule), not left out; `given`: each query's documents ranked in the order
/// its dict gives them (the `given` tie policy), not by score.
#[pyfunction]
#[pyo3(signature = (index, run, kernels, complete, depth, judged_only, rel, arrays, single=false, keep_empty=false, given=false))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn dict_evaluate<'py>(
    py: Python<'py>,
    index: &DictQrels,
    run: &Bound<'py, PyAny>,
    kernels: Vec<KernelCall>,
    complete: bool,
    depth: i64,
    judged_only: bool,
    rel: i64,
    arrays: bool,
    single: bool,
    keep_empty: bool,
    given: bool,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let plan = guarded("dict_evaluate", || {
        DictPlan::of(
            &kernels,
            complete,
            depth,
            judged_only,
            rel,
            arrays,
            single,
            keep_empty,
            given,
            None,
        )
    })?;
    let Some(plan) = plan else {
        return Ok(None);
    };
    plan.evaluate(py, index, run)
}

/// `dict_plan(kernels, ...)`: the arguments of `dict_evaluate` but the dicts, converted once
/// (`None` for an unknown kernel); `names`: `(name, kernel index)` pairs for
/// [`DictPlan::named`].
#[pyfunction]
#[pyo3(signature = (kernels, complete, depth, judged_only, rel, arrays, single=false, keep_empty=false, given=false, names=None))]
#[allow(clippy::too_many_arguments)]
fn dict_plan(
    kernels: Vec<KernelCall>,
    complete: bool,
    depth: i64,
    judged_only: bool,
    rel: i64,
    arrays: bool,
    single: bool,
    keep_empty: bool,
    given: bool,
    names: Option<Vec<(Py<PyString>, usize)>>,
) -> PyResult<Option<DictPlan>> {
    guarded("dict_plan", || {
        DictPlan::of(
            &kernels,
            complete,
            depth,
            judged_only,
            rel,
            arrays,
            single,
            keep_empty,
            given,
            names,
        )
    })
}

/// What the core computes of a run dict, made once per measures and options
/// (`cranfield._core.DictPlan`): the kernels, the judging options and, for
/// [`DictPlan::named`], the name of each value.
#[pyclass(frozen, module = "cranfield._core")]
pub struct DictPlan {
    kernels: Vec<Kernel>,
    complete: bool,
    depth: Option<usize>,
    judged_only: bool,
    rel: i64,
    arrays: bool,
    single: bool,
    keep_empty: bool,
    given: bool,
    names: Vec<(Py<PyString>, usize)>,
}

/// A run dict judged against an index: each query's ranking (by query index), the run's
/// queries without judgments, the evaluated query indexes (in `strcmp` order) and the run's
/// judged queries in the run's order (its key, its index).
struct JudgedRun<'py> {
    rankings: Vec<Option<dicts::Judged>>,
    run_only: Vec<Bound<'py, PyAny>>,
    evaluated: Vec<usize>,
    in_order: Vec<(Bound<'py, PyAny>, usize)>,
}

impl DictPlan {
    #[allow(clippy::too_many_arguments)]
    fn of(
        kernels: &[KernelCall],
        complete: bool,
        depth: i64,
        judged_only: bool,
        rel: i64,
        arrays: bool,
        single: bool,
        keep_empty: bool,
        given: bool,
        names: Option<Vec<(Py<PyString>, usize)>>,
    ) -> Option<DictPlan> {
        let kernels = kernels
            .iter()
            .map(|(n, c, r, x, extra)| Kernel::from_parts(n, *c, *r, *x, extra))
            .collect::<Option<Vec<_>>>()?;
        let names = names.unwrap_or_default();
        if names.iter().any(|(_, k)| *k >= kernels.len()) {
            return None;
        }
        Some(DictPlan {
            kernels,
            complete,
            depth: usize::try_from(depth).ok(),
            judged_only,
            rel,
            arrays,
            single,
            keep_empty,
            given,
            names,
        })
    }

    /// The run judged, or `None`: not of the plain shape, no rows (and `keep_empty` off),
    /// or no query evaluated (Python's path words those).
    fn judge<'py>(
        &self,
        index: &DictQrels,
        run: &Bound<'py, PyAny>,
    ) -> PyResult<Option<JudgedRun<'py>>> {
        let Ok(outer) = run.cast::<PyDict>() else {
            return Ok(None);
        };
        let ix = &index.index;
        let nq = ix.num_queries();
        // the strings stay owned by the dicts (held here by `held`), borrowed while judged
        let mut held: Vec<Bound<'py, PyAny>> = Vec::new();
        let mut rankings: Vec<Option<dicts::Judged>> = (0..nq).map(|_| None).collect();
        let mut run_only: Vec<Bound<'py, PyAny>> = Vec::new();
        let mut in_order: Vec<(Bound<'py, PyAny>, usize)> = Vec::new();
        let mut any_rows = false;
        for (q, docs) in outer.iter() {
            let Some(qid) = plain_id(&q) else {
                return Ok(None);
            };
            let Ok(docs) = docs.cast::<PyDict>() else {
                return Ok(None);
            };
            any_rows |= !docs.is_empty();
            let qi = ix.query_index.get(qid).map(|&i| i as usize);
            held.clear();
            held.reserve(docs.len());
            let mut scores = Vec::with_capacity(docs.len());
            for (d, s) in docs.iter() {
                if plain_id(&d).is_none() {
                    return Ok(None);
                }
                let Some(mut score) = plain_score(&s) else {
                    return Ok(None);
                };
                if self.single {
                    score = f64::from(score as f32); // trec_eval 9.0.8's float sim
                }
                held.push(d);
                scores.push(score);
            }
            match qi {
                None => {
                    if !docs.is_empty() {
                        run_only.push(q.clone());
                    }
                }
                Some(qi) if !docs.is_empty() => {
                    let mut items: Vec<(&str, f64)> = held
                        .iter()
                        .zip(&scores)
                        .map(|(d, &s)| (plain_id(d).unwrap_or_default(), s))
                        .collect();
                    let judged = guarded("dict_evaluate", || {
                        dicts::judge(ix, qi, &mut items, self.depth, self.judged_only, self.given)
                    })?;
                    rankings[qi] = Some(judged);
                    in_order.push((q.clone(), qi));
                }
                Some(qi) => {
                    if self.keep_empty {
                        rankings[qi] = Some(dicts::Judged::default());
                        in_order.push((q.clone(), qi));
                    }
                }
            }
        }
        if !any_rows && !self.keep_empty {
            return Ok(None); // "no scores": Python's path words it
        }
        let evaluated: Vec<usize> = (0..nq)
            .filter(|&q| self.complete || rankings[q].is_some())
            .collect();
        if evaluated.is_empty() {
            return Ok(None); // no query evaluated: Python's path words it
        }
        Ok(Some(JudgedRun {
            rankings,
            run_only,
            evaluated,
            in_order,
        }))
    }

    /// The kernels' values of query `q` of `run` (appended to `values`, its undefined
    /// cases counted in `undefined`).
    fn compute(
        &self,
        index: &DictQrels,
        run: &JudgedRun<'_>,
        q: usize,
        values: &mut Vec<f64>,
        undefined: &mut [u64],
    ) {
        let empty = dicts::Judged::default();
        let judged = run.rankings[q].as_ref().unwrap_or(&empty);
        let qrels = index.index.sorted_grades(q);
        // a query missing from the run (under `complete`) has trec_eval's dummy ranking of
        // one document, unless depth 0 or judged_only would drop it too
        let in_run = run.rankings[q].is_some();
        let num_ret = match run.rankings[q] {
            Some(_) => judged.grades.len(),
            None => usize::from(!self.judged_only && self.depth != Some(0)),
        };
        for (k, kernel) in self.kernels.iter().enumerate() {
            let (v, undef) = kernel.compute(&judged.grades, qrels, num_ret, in_run);
            values.push(v);
            dicts::count_undefined(undefined, k, undef);
        }
    }
}

#[pymethods]
impl DictPlan {
    /// `evaluate(index, run)`: what `dict_evaluate(index, run, ...)` returns with this
    /// plan's arguments.
    #[allow(clippy::type_complexity)]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        index: &DictQrels,
        run: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let Some(judged_run) = self.judge(index, run)? else {
            return Ok(None);
        };
        let ix = &index.index;
        let nq = ix.num_queries();
        let rankings = &judged_run.rankings;
        let evaluated = &judged_run.evaluated;
        let nk = self.kernels.len();
        let empty = dicts::Judged::default();
        let level = self.rel.max(0);
        let computed = guarded("dict_evaluate", || {
            let mut values = Vec::with_capacity(evaluated.len() * nk);
            let mut undefined = vec![0u64; nk * UNDEFINED_CASES];
            let mut retrieved = Vec::with_capacity(evaluated.len());
            let mut relevant = Vec::with_capacity(evaluated.len());
            let mut rel_ret = Vec::with_capacity(evaluated.len());
            for &q in evaluated {
                let judged = rankings[q].as_ref().unwrap_or(&empty);
                let qrels = ix.sorted_grades(q);
                self.compute(index, &judged_run, q, &mut values, &mut undefined);
                retrieved.push(judged.grades.len() as i64);
                relevant.push(qrels.iter().take_while(|&&g| g >= level).count() as i64);
                rel_ret.push(judged.grades.iter().filter(|&&g| g >= level).count() as i64);
            }
            (values, undefined, retrieved, relevant, rel_ret)
        })?;
        let (values, undefined, retrieved, relevant, rel_ret) = computed;
        let totals: (i64, i64, i64) = (
            retrieved.iter().sum(),
            relevant.iter().sum(),
            rel_ret.iter().sum(),
        );
        let missing: Vec<&Py<PyString>> = (0..nq)
            .filter(|&q| rankings[q].is_none())
            .map(|q| &index.ids[q])
            .collect();
        let query_ids = PyTuple::new(py, evaluated.iter().map(|&q| index.ids[q].bind(py)))?;
        let extra = if self.arrays {
            let mut offsets = vec![0i64];
            let (mut grades, mut scores, mut tie_ids) = (Vec::new(), Vec::new(), Vec::new());
            let mut qoffsets = vec![0i64];
            let mut qgrades = Vec::new();
            let mut in_run = Vec::with_capacity(evaluated.len());
            let mut tie = -1i64;
            for &q in evaluated {
                let judged = rankings[q].as_ref().unwrap_or(&empty);
                in_run.push(rankings[q].is_some());
                for (i, (&g, &s)) in judged.grades.iter().zip(&judged.scores).enumerate() {
                    if i == 0 || s != judged.scores[i - 1] {
                        tie += 1;
                    }
                    grades.push(g);
                    scores.push(s);
                    tie_ids.push(tie);
                }
                offsets.push(grades.len() as i64);
                qgrades.extend_from_slice(ix.sorted_grades(q));
                qoffsets.push(qgrades.len() as i64);
            }
            PyTuple::new(
                py,
                [
                    array(py, offsets).into_any(),
                    array(py, grades).into_any(),
                    array(py, scores).into_any(),
                    array(py, tie_ids).into_any(),
                    array(py, qoffsets).into_any(),
                    array(py, qgrades).into_any(),
                    array(py, in_run).into_any(),
                ],
            )?
            .into_any()
        } else {
            py.None().into_bound(py)
        };
        let out = PyTuple::new(
            py,
            [
                query_ids.into_any(),
                array(py, values).into_any(),
                PyList::new(py, undefined)?.into_any(),
                array(py, retrieved).into_any(),
                array(py, relevant).into_any(),
                array(py, rel_ret).into_any(),
                PyList::new(py, judged_run.run_only.iter())?.into_any(),
                PyList::new(py, missing.iter().map(|s| s.bind(py)))?.into_any(),
                extra,
                totals.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok(Some(out))
    }

    /// `named(index, run)`: `{query: {name: value}}` for the run's judged queries in the
    /// run's order (the run's own key objects), each value the kernel its name points at;
    /// `None` where [`DictPlan::evaluate`] gives `None`.
    fn named<'py>(
        &self,
        py: Python<'py>,
        index: &DictQrels,
        run: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(judged_run) = self.judge(index, run)? else {
            return Ok(None);
        };
        let nk = self.kernels.len();
        let mut values = Vec::with_capacity(nk);
        let mut undefined = vec![0u64; nk * UNDEFINED_CASES];
        let out = PyDict::new(py);
        for (q, qi) in &judged_run.in_order {
            values.clear();
            guarded("dict_evaluate", || {
                self.compute(index, &judged_run, *qi, &mut values, &mut undefined)
            })?;
            let row = PyDict::new(py);
            for (name, k) in &self.names {
                row.set_item(name.bind(py), values[*k])?;
            }
            out.set_item(q, row)?;
        }
        Ok(Some(out))
    }
}

/// The kernels' values and the counts of their undefined cases, as numpy arrays.
type ValuesAndCases<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<u64>>);

/// `kernel_values(kernels, offsets, grades, qrels_offsets, qrels_grades, num_ret, in_run)`:
/// the kernels' values on judged rankings given as `JudgedRankings`' arrays and the counts of
/// their undefined cases ([`dicts::Rankings::kernel_values`]); `None` for an unknown kernel.
/// Arrays that do not fit together are an internal error.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn kernel_values<'py>(
    py: Python<'py>,
    kernels: Vec<KernelCall>,
    offsets: PyReadonlyArray1<'py, i64>,
    grades: PyReadonlyArray1<'py, i64>,
    qrels_offsets: PyReadonlyArray1<'py, i64>,
    qrels_grades: PyReadonlyArray1<'py, i64>,
    num_ret: PyReadonlyArray1<'py, i64>,
    in_run: PyReadonlyArray1<'py, bool>,
) -> PyResult<Option<ValuesAndCases<'py>>> {
    let Some(kernels) = kernels
        .iter()
        .map(|(n, c, r, x, extra)| Kernel::from_parts(n, *c, *r, *x, extra))
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(None);
    };
    let rankings = dicts::Rankings {
        offsets: offsets.as_slice()?,
        grades: grades.as_slice()?,
        qrels_offsets: qrels_offsets.as_slice()?,
        qrels_grades: qrels_grades.as_slice()?,
        num_ret: num_ret.as_slice()?,
        in_run: in_run.as_slice()?,
    };
    let values = py.detach(|| guarded("kernel_values", || rankings.kernel_values(&kernels)))?;
    match values {
        Some((v, undefined)) => Ok(Some((array(py, v), array(py, undefined)))),
        None => Err(InternalError::new_err(
            "internal error in cranfield's compiled core (kernel_values): the judged \
             rankings' arrays do not fit together; please report it",
        )),
    }
}

/// Register the dict evaluations in the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DictQrels>()?;
    m.add_function(wrap_pyfunction!(dict_qrels, m)?)?;
    m.add_function(wrap_pyfunction!(dict_evaluate, m)?)?;
    m.add_class::<DictPlan>()?;
    m.add_function(wrap_pyfunction!(dict_plan, m)?)?;
    m.add_function(wrap_pyfunction!(kernel_values, m)?)?;
    m.add("UNDEFINED_CASES", UNDEFINED_CASES)?;
    Ok(())
}
