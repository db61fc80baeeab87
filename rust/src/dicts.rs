//! Small in-memory evaluations: qrels and runs given as `{qid: {doc: value}}` dicts, judged
//! and measured without building a `Run`, a `Qrels` or any numpy array per call.
//!
//! [`QrelsIndex`] is built once from the qrels' entries; [`judge`] orders one query's
//! `(score, doc)` pairs as `cranfield.judging.ordering` does under the `trec` tie policy
//! (score descending, ties by document id in descending byte order), cuts them at `depth`,
//! drops unjudged rows under `judged_only`, and gives each row its grade with the codes of
//! `cranfield.judging.rankings` (`NOT_IN_QRELS`, `UNJUDGED`).  [`Kernel`] computes the hot
//! measures of one query with the floating-point operations of their Python declarations,
//! in the same order (sequential sums in rank order, C `log2`), so the values are the same
//! to the last bit; the generated differential test (`tests/measures/test_core_kernels.py`)
//! holds every kernel to its declaration.  Python's side is `python.rs`' `dicts_glue`.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::trec::FxHasher;

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A ranked document not in its query's qrels (`cranfield.judging.rankings.NOT_IN_QRELS`).
pub const NOT_IN_QRELS: i64 = -1;
/// A ranked document in the qrels with a negative grade ("in the pool, not judged").
pub const UNJUDGED: i64 = -2;

/// Whether `id` follows the id rule of `cranfield.io.ids` (not empty; no C0 control, space,
/// DEL or C1 control).  Lone surrogates never reach here: they are not UTF-8.
pub fn valid_id(id: &[u8]) -> bool {
    if id.is_empty() {
        return false;
    }
    let mut prev = 0u8;
    for &b in id {
        if b <= 0x20 || b == 0x7f || (prev == 0xc2 && (0x80..0xa0).contains(&b)) {
            return false;
        }
        prev = b;
    }
    true
}

/// The qrels of an evaluator: queries in `strcmp` order, each with its judgments by document
/// and its grades sorted descending.
pub struct QrelsIndex {
    pub query_ids: Vec<String>,
    pub query_index: FxMap<String, u32>,
    pub judgments: Vec<FxMap<Box<str>, i64>>,
    /// Per query, its grades sorted descending: `grades[grade_offsets[q]..grade_offsets[q + 1]]`.
    pub grades: Vec<i64>,
    pub grade_offsets: Vec<usize>,
    /// The highest grade of the whole qrels (`Qrels.max_grade`).
    pub max_grade: Option<i64>,
}

impl QrelsIndex {
    /// From each query's judgments (queries without any are left out, as in `Qrels`).
    pub fn new(entries: Vec<(String, Vec<(String, i64)>)>) -> QrelsIndex {
        let mut entries: Vec<_> = entries.into_iter().filter(|(_, d)| !d.is_empty()).collect();
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut index = QrelsIndex {
            query_ids: Vec::with_capacity(entries.len()),
            query_index: FxMap::default(),
            judgments: Vec::with_capacity(entries.len()),
            grades: Vec::new(),
            grade_offsets: vec![0],
            max_grade: None,
        };
        for (q, (qid, docs)) in entries.into_iter().enumerate() {
            let mut map: FxMap<Box<str>, i64> = FxMap::default();
            map.reserve(docs.len());
            let start = index.grades.len();
            for (doc, grade) in docs {
                map.entry(doc.into_boxed_str()).or_insert(grade);
                index.grades.push(grade);
            }
            index.grades[start..].sort_unstable_by(|a, b| b.cmp(a));
            let top = index.grades[start];
            index.max_grade = Some(index.max_grade.map_or(top, |m| m.max(top)));
            index.grade_offsets.push(index.grades.len());
            index.query_index.insert(qid.clone(), q as u32);
            index.query_ids.push(qid);
            index.judgments.push(map);
        }
        index
    }

    pub fn num_queries(&self) -> usize {
        self.query_ids.len()
    }

    /// Query `q`'s grades, sorted descending.
    pub fn sorted_grades(&self, q: usize) -> &[i64] {
        &self.grades[self.grade_offsets[q]..self.grade_offsets[q + 1]]
    }
}

/// One query's ranking, judged: per row (in rank order) its grade and score.
#[derive(Default)]
pub struct Judged {
    pub grades: Vec<i64>,
    pub scores: Vec<f64>,
}

/// Order `items` (document, score) of qrels query `q` by trec_eval's rule (`given`: keep
/// them in the order given, cranfield's `given` tie policy), cut at `depth`, drop the
/// unjudged rows under `judged_only`, and judge each row.
pub fn judge(
    index: &QrelsIndex,
    q: usize,
    items: &mut [(&str, f64)],
    depth: Option<usize>,
    judged_only: bool,
    given: bool,
) -> Judged {
    // equal scores (0.0 and -0.0 too) are ordered by document id, descending bytes; a
    // query's documents are distinct, so the order is total
    if !given {
        items.sort_unstable_by(|a, b| {
            b.1.partial_cmp(&a.1)
                .unwrap_or(Ordering::Equal)
                .then_with(|| b.0.as_bytes().cmp(a.0.as_bytes()))
        });
    }
    let n = depth.map_or(items.len(), |d| d.min(items.len()));
    let judgments = &index.judgments[q];
    let mut out = Judged {
        grades: Vec::with_capacity(n),
        scores: Vec::with_capacity(n),
    };
    for &(doc, score) in &items[..n] {
        let grade = match judgments.get(doc) {
            None => NOT_IN_QRELS,
            Some(&g) if g < 0 => UNJUDGED,
            Some(&g) => g,
        };
        if judged_only && grade < 0 {
            continue;
        }
        out.grades.push(grade);
        out.scores.push(score);
    }
    out
}

/// A measure computed per query in the core (`core_kernel=` of its declaration).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kernel {
    /// AP (AP@k): `cranfield.measures.ranking.average_precision`.
    Ap {
        cutoff: Option<u64>,
        rel: i64,
    },
    /// nDCG (nDCG@k) with trec_eval's gains (the grade) and discount (`log2(i + 1)`).
    Ndcg {
        cutoff: Option<u64>,
    },
    /// P@k: `cranfield.measures.precision.precision`.
    P {
        cutoff: u64,
        rel: i64,
    },
    /// RR (RR@k): `cranfield.measures.ranking.reciprocal_rank`.
    Rr {
        cutoff: Option<u64>,
        rel: i64,
    },
    /// R@k (recall): `cranfield.measures.precision.recall`.
    Recall {
        cutoff: u64,
        rel: i64,
    },
    /// Rprec (Rprec(mult=x)): `cranfield.measures.precision.r_precision`.
    Rprec {
        rel: i64,
        mult: f64,
    },
    /// Success@k: `cranfield.measures.precision.success`.
    Success {
        cutoff: u64,
        rel: i64,
    },
    /// NumQ, NumRet, NumRel, NumRelRet: `cranfield.measures.counts`.
    NumQ,
    NumRet,
    NumRel {
        rel: i64,
    },
    NumRelRet {
        rel: i64,
    },
    /// Bpref: `cranfield.measures.bpref.bpref` (GMBpref's value per query too).
    Bpref {
        rel: i64,
    },
    /// IPrec@r: `cranfield.measures.interpolated.iprec` (`trec9`: `rounding=trec9`).
    IPrec {
        rel: i64,
        point: f64,
        trec9: bool,
    },
    /// IPrecAvg, the 11-point average: `cranfield.measures.interpolated.iprec_avg`.
    IPrecAvg {
        rel: i64,
        trec9: bool,
    },
    /// trec_eval's per-query value of `gm_map` and `gm_bpref`: `ln(max(v, 1e-5))` of AP or
    /// Bpref (`cranfield.compat.trec_eval.adapters._gm`).
    GmAp {
        rel: i64,
    },
    GmBpref {
        rel: i64,
    },
    /// SetP, SetR, SetRelP, SetAP (`cranfield.measures.retrieved_set`): the ranking read as
    /// a set.
    SetP {
        rel: i64,
    },
    SetR {
        rel: i64,
    },
    SetRelP {
        rel: i64,
    },
    SetAp {
        rel: i64,
    },
    /// SetF(beta): `cranfield.measures.retrieved_set.set_f`.
    SetF {
        rel: i64,
        beta: f64,
    },
    /// RelP@k: `cranfield.measures.precision.relative_precision`.
    RelP {
        cutoff: u64,
        rel: i64,
    },
    /// NumNonRelJudgedRet: `cranfield.measures.counts.num_nonrel_judged_ret`.
    NumNonRelJudgedRet {
        rel: i64,
    },
    /// BinG: `cranfield.measures.gain_experimental.bin_g`.
    BinG {
        rel: i64,
    },
    /// infAP: `cranfield.measures.bpref.infap`.
    InfAp {
        rel: i64,
    },
    /// Utility(a, b, c, d, N): `cranfield.measures.utility.utility` (`n_docs`: N).
    Utility {
        rel: i64,
        a: f64,
        b: f64,
        c: f64,
        d: f64,
        n_docs: i64,
    },
    /// G, nDCGRel and RnDCG with trec_eval's gains (the grade):
    /// `cranfield.measures.gain_experimental`'s `g_measure`, `ndcg_rel`, `rndcg`.
    G,
    NdcgRel,
    Rndcg {
        rel: i64,
    },
    /// 0 on every query: what pytrec_eval returns for `runid` and `relstring`.
    Zero,
}

/// The undefined cases of a kernel's value: bit `i` set where the `i`-th `undefined=` case
/// of its declaration holds (at most [`UNDEFINED_CASES`] of them).
pub type Undefined = u8;
/// How many undefined cases a kernel reports at most.
pub const UNDEFINED_CASES: usize = 2;

/// Kernel `k`'s undefined cases `undef` (an [`Undefined`]) counted in `counts` (a row of
/// [`UNDEFINED_CASES`] counts per kernel).
#[inline]
pub fn count_undefined(counts: &mut [u64], k: usize, undef: Undefined) {
    let row = &mut counts[k * UNDEFINED_CASES..(k + 1) * UNDEFINED_CASES];
    for (case, count) in row.iter_mut().enumerate() {
        *count += u64::from(undef >> case & 1);
    }
}

/// trec_eval's 11 recall levels (`cranfield.measures.interpolated.ELEVEN_POINTS`), written
/// as the same decimal literals.
const ELEVEN_POINTS: [f64; 11] = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// trec_eval's floor of a geometric mean (`MIN_GEO_MEAN`).
const MIN_GEO_MEAN: f64 = 1e-5;

/// The largest integer below which every integer is a double (`cranfield.measures.params.
/// MAX_EXACT`, 2^53).
const MAX_EXACT: f64 = 9007199254740992.0;

/// infAP's smoothing (`cranfield.measures.bpref.INFAP_EPSILON`, trec_eval's `INFAP_EPSILON`).
const INFAP_EPSILON: f64 = 1e-5;

impl Kernel {
    /// From Python's `(name, cutoff, rel, x, extra)` (cutoff -1: none; `x` Rprec's `mult`,
    /// IPrec's recall level, SetF's beta; `extra` Utility's a, b, c, d and N); `None` for an
    /// unknown name, a missing cut-off or parameters the kernel does not take.
    pub fn from_parts(name: &str, cutoff: i64, rel: i64, x: f64, extra: &[f64]) -> Option<Kernel> {
        let cut = u64::try_from(cutoff).ok();
        match name {
            "ap" => Some(Kernel::Ap { cutoff: cut, rel }),
            "ndcg" => Some(Kernel::Ndcg { cutoff: cut }),
            "p" => Some(Kernel::P { cutoff: cut?, rel }),
            "rr" => Some(Kernel::Rr { cutoff: cut, rel }),
            "recall" => Some(Kernel::Recall { cutoff: cut?, rel }),
            "rprec" => Some(Kernel::Rprec { rel, mult: x }),
            "success" => Some(Kernel::Success { cutoff: cut?, rel }),
            "num_q" => Some(Kernel::NumQ),
            "num_ret" => Some(Kernel::NumRet),
            "num_rel" => Some(Kernel::NumRel { rel }),
            "num_rel_ret" => Some(Kernel::NumRelRet { rel }),
            "bpref" => Some(Kernel::Bpref { rel }),
            "iprec" | "iprec_trec9" if (0.0..=1.0).contains(&x) => Some(Kernel::IPrec {
                rel,
                point: x,
                trec9: name == "iprec_trec9",
            }),
            "iprec_avg" | "iprec_avg_trec9" => Some(Kernel::IPrecAvg {
                rel,
                trec9: name == "iprec_avg_trec9",
            }),
            "gm_ap" => Some(Kernel::GmAp { rel }),
            "gm_bpref" => Some(Kernel::GmBpref { rel }),
            "set_p" => Some(Kernel::SetP { rel }),
            "set_r" => Some(Kernel::SetR { rel }),
            "set_rel_p" => Some(Kernel::SetRelP { rel }),
            "set_ap" => Some(Kernel::SetAp { rel }),
            "set_f" => Some(Kernel::SetF { rel, beta: x }),
            "rel_p" => Some(Kernel::RelP { cutoff: cut?, rel }),
            "num_nonrel_judged_ret" => Some(Kernel::NumNonRelJudgedRet { rel }),
            "bin_g" => Some(Kernel::BinG { rel }),
            "infap" => Some(Kernel::InfAp { rel }),
            "utility" => match *extra {
                // N an integer the doubles hold exactly (the declaration's bound, 2^53)
                [a, b, c, d, n] if n.fract() == 0.0 && (0.0..=MAX_EXACT).contains(&n) => {
                    Some(Kernel::Utility {
                        rel,
                        a,
                        b,
                        c,
                        d,
                        n_docs: n as i64,
                    })
                }
                _ => None,
            },
            "g" => Some(Kernel::G),
            "ndcg_rel" => Some(Kernel::NdcgRel),
            "rndcg" => Some(Kernel::Rndcg { rel }),
            "zero" => Some(Kernel::Zero),
            _ => None,
        }
    }

    /// The value on one query (`grades` in rank order, `qrels` its grades sorted
    /// descending, `num_ret` the ranking's length as trec_eval counts it: 1 for the dummy
    /// ranking of a query missing from the run under `complete`; `in_run`: the query is in
    /// the run) and the undefined cases that hold there ([`Undefined`]).
    pub fn compute(
        &self,
        grades: &[i64],
        qrels: &[i64],
        num_ret: usize,
        in_run: bool,
    ) -> (f64, Undefined) {
        match *self {
            Kernel::Ap { cutoff, rel } => {
                let level = rel.max(0);
                let r = qrels.iter().take_while(|&&g| g >= level).count();
                let n = cutoff.map_or(grades.len(), |k| limit(k, grades.len()));
                let mut sum = 0.0f64;
                let mut found = 0u64;
                for (i, &g) in grades[..n].iter().enumerate() {
                    if g >= level {
                        found += 1;
                        sum += found as f64 / (i as u64 + 1) as f64;
                    }
                }
                (ratio(sum, r as f64), u8::from(r == 0))
            }
            Kernel::Ndcg { cutoff } => {
                let n = cutoff.map_or(grades.len(), |k| limit(k, grades.len()));
                let mut dcg = 0.0f64;
                for (i, &g) in grades[..n].iter().enumerate() {
                    if g > 0 {
                        dcg += g as f64 / log2_of(i as u64 + 2);
                    }
                }
                let ideal = qrels.iter().take_while(|&&g| g > 0).count();
                let m = cutoff.map_or(ideal, |k| limit(k, ideal));
                let mut idcg = 0.0f64;
                for (i, &g) in qrels[..m].iter().enumerate() {
                    idcg += g as f64 / log2_of(i as u64 + 2);
                }
                (ratio(dcg, idcg), u8::from(idcg <= 0.0))
            }
            Kernel::P { cutoff, rel } => {
                let hits = hits_at(grades, rel, limit(cutoff, grades.len()));
                (hits as f64 / cutoff as f64, 0)
            }
            Kernel::Rr { cutoff, rel } => {
                let level = rel.max(0);
                let n = cutoff.map_or(grades.len(), |k| limit(k, grades.len()));
                match grades[..n].iter().position(|&g| g >= level) {
                    Some(i) => (1.0 / (i as u64 + 1) as f64, 0),
                    None => (0.0, 0),
                }
            }
            Kernel::Recall { cutoff, rel } => {
                let r = num_rel(qrels, rel);
                let hits = hits_at(grades, rel, limit(cutoff, grades.len()));
                (ratio(hits as f64, r as f64), u8::from(r == 0))
            }
            Kernel::Rprec { rel, mult } => {
                let r = num_rel(qrels, rel);
                // c = max((long)(mult R + 0.9), 0); mult = 1: R itself
                let c = if mult == 1.0 {
                    r as i64
                } else {
                    ((mult * r as f64 + 0.9).trunc() as i64).max(0)
                };
                let n = usize::try_from(c).map_or(grades.len(), |c| c.min(grades.len()));
                (
                    ratio(hits_at(grades, rel, n) as f64, c as f64),
                    u8::from(r == 0),
                )
            }
            Kernel::Success { cutoff, rel } => {
                let hits = hits_at(grades, rel, limit(cutoff, grades.len()));
                (if hits > 0 { 1.0 } else { 0.0 }, 0)
            }
            Kernel::NumQ => (1.0, 0),
            Kernel::NumRet => (grades.len() as f64, 0),
            Kernel::NumRel { rel } => (num_rel(qrels, rel) as f64, 0),
            Kernel::NumRelRet { rel } => (hits_at(grades, rel, grades.len()) as f64, 0),
            Kernel::Bpref { rel } => bpref(grades, qrels, rel),
            Kernel::IPrec { rel, point, trec9 } => {
                let ip = Interpolated::of(grades, qrels, rel, num_ret);
                (ip.value(point, trec9), ip.undefined())
            }
            Kernel::IPrecAvg { rel, trec9 } => {
                let ip = Interpolated::of(grades, qrels, rel, num_ret);
                (ip.eleven_point_average(trec9), ip.undefined())
            }
            Kernel::GmAp { rel } => {
                let (ap, undefined) =
                    Kernel::Ap { cutoff: None, rel }.compute(grades, qrels, 0, true);
                (ap.max(MIN_GEO_MEAN).ln(), undefined)
            }
            Kernel::GmBpref { rel } => {
                let (v, undefined) = bpref(grades, qrels, rel);
                (v.max(MIN_GEO_MEAN).ln(), undefined)
            }
            Kernel::SetP { rel } => {
                let n = grades.len();
                let rr = hits_at(grades, rel, n);
                (ratio(rr as f64, n as f64), u8::from(n == 0))
            }
            Kernel::SetR { rel } => {
                let r = num_rel(qrels, rel);
                let rr = hits_at(grades, rel, grades.len());
                (ratio(rr as f64, r as f64), u8::from(r == 0))
            }
            Kernel::SetRelP { rel } => {
                let r = num_rel(qrels, rel);
                let rr = hits_at(grades, rel, grades.len());
                (
                    ratio(rr as f64, grades.len().min(r) as f64),
                    u8::from(r == 0),
                )
            }
            Kernel::SetAp { rel } => {
                let r = num_rel(qrels, rel);
                let rr = hits_at(grades, rel, grades.len()) as f64;
                let den = grades.len() as f64 * r as f64;
                (ratio(rr * rr, den), u8::from(r == 0))
            }
            Kernel::SetF { rel, beta } => {
                // set_f_weighted with x = beta^2: (x + 1) P R / (x P + R), 0 if RR = 0
                let rr = hits_at(grades, rel, grades.len());
                if rr == 0 {
                    return (0.0, 0);
                }
                let x = beta * beta;
                let p = rr as f64 / grades.len() as f64;
                let r = rr as f64 / num_rel(qrels, rel) as f64;
                ((x + 1.0) * p * r / (x * p + r), 0)
            }
            Kernel::RelP { cutoff, rel } => {
                let r = num_rel(qrels, rel);
                let hits = hits_at(grades, rel, limit(cutoff, grades.len()));
                let den = cutoff.min(r as u64);
                (ratio(hits as f64, den as f64), u8::from(r == 0))
            }
            Kernel::NumNonRelJudgedRet { rel } => {
                let level = rel.max(0);
                let n = grades.iter().filter(|&&g| (0..level).contains(&g)).count();
                (n as f64, 0)
            }
            Kernel::BinG { rel } => {
                // per relevant row 1 / log2(2 + non-relevant rows above it), over R
                let level = rel.max(0);
                let r = num_rel(qrels, rel);
                let mut total = SeqSum::default();
                let mut found = 0usize;
                for (i, &g) in grades.iter().enumerate() {
                    if g >= level {
                        found += 1;
                        let above = (i + 1 - found) as u64;
                        total.add(1.0 / log2_of(above + 2));
                    }
                }
                let v = if r > 0 && found > 0 {
                    total.value() / r as f64
                } else {
                    0.0
                };
                (v, u8::from(r == 0))
            }
            Kernel::InfAp { rel } => infap(grades, qrels, rel),
            Kernel::Utility {
                rel,
                a,
                b,
                c,
                d,
                n_docs,
            } => {
                // trec_eval -c prints 0 for a judged query absent from the run
                if !in_run {
                    return (0.0, 0);
                }
                let rr = hits_at(grades, rel, grades.len()) as i64;
                let n = grades.len() as i64;
                let r = num_rel(qrels, rel) as i64;
                let v = a * rr as f64
                    + b * (n - rr) as f64
                    + c * (r - rr) as f64
                    + d * (n_docs + rr - n - r) as f64;
                (v, 0)
            }
            Kernel::G => g_measure(grades, qrels),
            Kernel::NdcgRel => ndcg_rel(grades, qrels),
            Kernel::Rndcg { rel } => rndcg(grades, qrels, rel),
            Kernel::Zero => (0.0, 0),
        }
    }
}

/// A sum added one term at a time in the given order, starting from the first term, as
/// numpy's `add.accumulate` (`cranfield.base.segments.segment_total`); 0.0 without terms.
#[derive(Default)]
struct SeqSum(Option<f64>);

impl SeqSum {
    fn add(&mut self, v: f64) {
        self.0 = Some(self.0.map_or(v, |s| s + v));
    }

    fn value(&self) -> f64 {
        self.0.unwrap_or(0.0)
    }
}

/// infAP of one query, as `cranfield.measures.bpref.infap`: per relevant row at rank `i + 1`
/// (`f = i`), 1 at rank 1, else `1/(f+1) + (f/(f+1)) ((k1+nr+u)/f) ((k1+eps)/(k1+nr+2 eps))`,
/// `k1` the relevant, `nr` the judged non-relevant and `u` the unjudged (in the qrels with a
/// negative grade) rows above it; summed in rank order, divided by R.
fn infap(grades: &[i64], qrels: &[i64], rel: i64) -> (f64, u8) {
    let level = rel.max(0);
    let r = num_rel(qrels, rel);
    let (mut k1, mut nr, mut u) = (0u64, 0u64, 0u64);
    let mut total = SeqSum::default();
    for (i, &g) in grades.iter().enumerate() {
        if g >= level {
            let term = if i == 0 {
                1.0
            } else {
                let f = i as f64;
                1.0 / (f + 1.0)
                    + (f / (f + 1.0))
                        * ((k1 + nr + u) as f64 / f)
                        * ((k1 as f64 + INFAP_EPSILON) / ((k1 + nr) as f64 + 2.0 * INFAP_EPSILON))
            };
            total.add(term);
            k1 += 1;
        } else if g >= 0 {
            nr += 1;
        } else if g == UNJUDGED {
            u += 1;
        }
    }
    (ratio(total.value(), r as f64), u8::from(r == 0))
}

/// Bpref of one query, as `cranfield.measures.bpref._bpref`: per relevant row, `1 -
/// min(n, R) / min(N, R)` (1 when `n = 0`), `n` the judged non-relevant rows above it, `N`
/// the judged non-relevant of the qrels; summed in rank order, divided by R.
fn bpref(grades: &[i64], qrels: &[i64], rel: i64) -> (f64, u8) {
    let level = rel.max(0);
    let r = num_rel(qrels, rel) as u64;
    let n_nonrel = qrels.iter().filter(|&&g| (0..level).contains(&g)).count() as u64;
    let mut total = 0.0f64;
    let mut above = 0u64;
    for &g in grades {
        if g >= level {
            total += if above > 0 {
                1.0 - (above.min(r) as f64 / n_nonrel.min(r) as f64)
            } else {
                1.0
            };
        } else if g >= 0 {
            above += 1;
        }
    }
    (ratio(total, r as f64), u8::from(r == 0))
}

/// trec_eval's ideal gains of a query with its default gains (the grade): its positive
/// grades, descending (`cranfield.measures.kernels.gains.gain_table`).
fn ideal_gains(qrels: &[i64]) -> &[i64] {
    &qrels[..qrels.iter().take_while(|&&g| g > 0).count()]
}

/// The running DCG of a ranking with the default gains at every rank: `[k]` over ranks
/// `1..=k` (`cranfield.measures.dcg.dcg_at`: the running sum of `g / log2(rank + 1)` over
/// the rows with a positive grade, 0.0 before the first).
fn running_dcg(grades: &[i64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(grades.len() + 1);
    out.push(0.0);
    let mut sum = SeqSum::default();
    for (i, &g) in grades.iter().enumerate() {
        if g > 0 {
            sum.add(g as f64 / log2_of(i as u64 + 2));
        }
        out.push(sum.value());
    }
    out
}

/// The ideal DCG over the first `k` ideal positions at every `k` (`[0]` = 0.0), as
/// `cranfield.measures.dcg.ideal_prefix` and `ideal_at`.
fn ideal_dcg(ideal: &[i64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(ideal.len() + 1);
    out.push(0.0);
    let mut sum = SeqSum::default();
    for (i, &g) in ideal.iter().enumerate() {
        sum.add(g as f64 / log2_of(i as u64 + 2));
        out.push(sum.value());
    }
    out
}

/// `log2(x)` as `cranfield.measures.kernels.counting.c_log2`: -inf at 0, Python's NaN
/// below.
fn c_log2(x: f64) -> f64 {
    if x > 0.0 {
        x.log2()
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        f64::NAN
    }
}

/// nDCGRel of one query (`cranfield.measures.gain_experimental.ndcg_rel`): per row with a
/// positive grade, the running DCG over the ideal DCG at `min(rank, m)`, summed in rank
/// order; plus `(m - k) DCG_n / IDCG_m`; over `m` where positive, else 0.
fn ndcg_rel(grades: &[i64], qrels: &[i64]) -> (f64, u8) {
    let m = ideal_gains(qrels).len();
    let idcg = ideal_dcg(ideal_gains(qrels));
    let mut running = SeqSum::default();
    let mut s = SeqSum::default();
    let mut k = 0usize;
    for (i, &g) in grades.iter().enumerate() {
        if g > 0 {
            running.add(g as f64 / log2_of(i as u64 + 2));
            k += 1;
            s.add(running.value() / idcg[(i + 1).min(m)]);
        }
    }
    let rest = (m as i64 - k as i64) as f64;
    let s = s.value() + rest * running.value() / idcg[m];
    let v = if s > 0.0 { s / m as f64 } else { 0.0 };
    (v, u8::from(idcg[m] <= 0.0))
}

/// G of one query (`cranfield.measures.gain_experimental.g_measure`): per row with a
/// positive grade `g`, `g / log2(2 + C_i - S_i)` (`S_i` the running gain, `C_i` the running
/// `max(I_j, 1)` of the ideal gains, 1 a rank beyond them), summed in rank order, over the
/// sum of the ideal gains.
fn g_measure(grades: &[i64], qrels: &[i64]) -> (f64, u8) {
    let ideal = ideal_gains(qrels);
    let mut cost = SeqSum::default();
    let mut gained = SeqSum::default();
    let mut total = SeqSum::default();
    for (i, &g) in grades.iter().enumerate() {
        // C_i: the ideal gains' running cost, then 1.0 added a rank at a time
        cost.add(ideal.get(i).map_or(1.0, |&top| (top as f64).max(1.0)));
        if g > 0 {
            let gain = g as f64;
            gained.add(gain);
            total.add(gain / c_log2(2.0 + cost.value() - gained.value()));
        }
    }
    let mut sum_ideal = SeqSum::default();
    for &g in ideal {
        sum_ideal.add(g as f64);
    }
    let sum_ideal = sum_ideal.value();
    let v = if sum_ideal > 0.0 {
        total.value() / sum_ideal
    } else {
        0.0
    };
    // no positive ideal gain: the ideal DCG is 0 (NO_IDEAL)
    (v, u8::from(ideal.is_empty()))
}

/// RnDCG of one query (`cranfield.measures.gain_experimental.rndcg`): the mean of
/// `DCG@(b-1) / IDCG@(b-1)` over the boundaries `b` where the ideal gain changes (and `m +
/// 1`), plus `DCG_n / IDCG_m` when `n >= m + 2`; 0 if R = 0 (NaN with no ideal gain).
fn rndcg(grades: &[i64], qrels: &[i64], rel: i64) -> (f64, u8) {
    let r = num_rel(qrels, rel);
    let ideal = ideal_gains(qrels);
    let m = ideal.len();
    let n = grades.len();
    let dcg = running_dcg(grades);
    let idcg = ideal_dcg(ideal);
    let mut total = SeqSum::default();
    let mut count = 0u64;
    if m > 0 {
        for b in 2..=m + 1 {
            if b == m + 1 || ideal[b - 1] as f64 != ideal[b - 2] as f64 {
                total.add(dcg[(b - 1).min(n)] / idcg[b - 1]);
                count += 1;
            }
        }
        if n >= m + 2 {
            total.add(dcg[n] / idcg[m]);
            count += 1;
        }
    }
    let v = if r > 0 {
        total.value() / count as f64
    } else {
        0.0
    };
    (v, u8::from(r == 0) | (u8::from(r > 0 && m == 0) << 1))
}

/// Interpolated precision at each relevant retrieved row of one query, as
/// `cranfield.measures.interpolated._Interp`.
struct Interpolated {
    /// Per relevant row (rank order), `max_{j >= i} P` over the relevant rows from it on.
    ip: Vec<f64>,
    r: u64,
    /// The value where the recall level needs no relevant document (`c <= 0`).
    at_zero: f64,
    num_ret: usize,
}

impl Interpolated {
    fn of(grades: &[i64], qrels: &[i64], rel: i64, num_ret: usize) -> Interpolated {
        let level = rel.max(0);
        let mut ip: Vec<f64> = Vec::new();
        for (i, &g) in grades.iter().enumerate() {
            if g >= level {
                ip.push((ip.len() + 1) as f64 / (i + 1) as f64);
            }
        }
        for j in (1..ip.len()).rev() {
            ip[j - 1] = ip[j - 1].max(ip[j]);
        }
        // no relevant row: RR / n, that is 0 (NaN for an empty ranking, as trec_eval's -nan)
        let at_zero = ip.first().copied().unwrap_or(0.0 / num_ret as f64);
        Interpolated {
            ip,
            r: num_rel(qrels, rel) as u64,
            at_zero,
            num_ret,
        }
    }

    /// IPrec at recall level `p`: `c` relevant documents (`lround(p R)`, or `(long)(p R +
    /// 0.9)` by trec_eval 9.x); 0 beyond the relevant retrieved.
    fn value(&self, p: f64, trec9: bool) -> f64 {
        let x = p * self.r as f64;
        let c = if trec9 { (x + 0.9).trunc() } else { x.round() } as i64;
        let found = self.ip.len() as i64;
        if c > found {
            0.0
        } else if c >= 1 {
            self.ip[(c - 1) as usize]
        } else {
            self.at_zero
        }
    }

    /// The 11-point average: m_11pt_avg.c walks the points from the last; with these
    /// (ascending) each is its IPrec value.
    fn eleven_point_average(&self, trec9: bool) -> f64 {
        let mut total = 0.0f64;
        for &p in ELEVEN_POINTS.iter().rev() {
            total += self.value(p, trec9);
        }
        total / ELEVEN_POINTS.len() as f64
    }

    /// NO_REL (bit 0) and EMPTY, nothing retrieved (bit 1).
    fn undefined(&self) -> u8 {
        u8::from(self.r == 0) | (u8::from(self.num_ret == 0 && self.ip.is_empty()) << 1)
    }
}

/// R: the qrels grades (sorted descending) at least `max(rel, 0)`.
fn num_rel(qrels: &[i64], rel: i64) -> usize {
    let level = rel.max(0);
    qrels.iter().take_while(|&&g| g >= level).count()
}

/// The relevant rows (grade at least `max(rel, 0)`) among the first `n`.
fn hits_at(grades: &[i64], rel: i64, n: usize) -> usize {
    let level = rel.max(0);
    grades[..n].iter().filter(|&&g| g >= level).count()
}

/// `min(k, n)` without overflow.
fn limit(k: u64, n: usize) -> usize {
    usize::try_from(k).map_or(n, |k| k.min(n))
}

/// Judged rankings as `cranfield.judging.rankings.JudgedRankings` holds them: query `q` has
/// the grades `grades[offsets[q]..offsets[q + 1]]` in rank order, its qrels' grades
/// `qrels_grades[qrels_offsets[q]..qrels_offsets[q + 1]]` sorted descending, `num_ret[q]`
/// retrieved documents and `in_run[q]`.
pub struct Rankings<'a> {
    pub offsets: &'a [i64],
    pub grades: &'a [i64],
    pub qrels_offsets: &'a [i64],
    pub qrels_grades: &'a [i64],
    pub num_ret: &'a [i64],
    pub in_run: &'a [bool],
}

impl Rankings<'_> {
    /// The value of each kernel on each query, kernel `k` on query `q` at `k * queries + q`
    /// (the kernels as a matrix, one row each), and how many queries each undefined case
    /// holds on, case `c` of kernel `k` at `k * UNDEFINED_CASES + c`; `None` when the arrays
    /// do not fit together (lengths, offsets that decrease or leave their array, a negative
    /// `num_ret`).
    pub fn kernel_values(&self, kernels: &[Kernel]) -> Option<(Vec<f64>, Vec<u64>)> {
        let nq = self.num_ret.len();
        if self.offsets.len() != nq + 1
            || self.qrels_offsets.len() != nq + 1
            || self.in_run.len() != nq
        {
            return None;
        }
        let span = |offsets: &[i64], q: usize| -> Option<std::ops::Range<usize>> {
            let (a, b) = (
                usize::try_from(offsets[q]).ok()?,
                usize::try_from(offsets[q + 1]).ok()?,
            );
            (a <= b).then_some(a..b)
        };
        let mut queries = Vec::with_capacity(nq);
        for q in 0..nq {
            let grades = self.grades.get(span(self.offsets, q)?)?;
            let qrels = self.qrels_grades.get(span(self.qrels_offsets, q)?)?;
            let num_ret = usize::try_from(self.num_ret[q]).ok()?;
            queries.push((grades, qrels, num_ret, self.in_run[q]));
        }
        let mut values = vec![0.0f64; kernels.len() * nq];
        let mut undefined = vec![0u64; kernels.len() * UNDEFINED_CASES];
        for (q, &(grades, qrels, num_ret, in_run)) in queries.iter().enumerate() {
            // the interpolated precisions of the query, made once for the IPrec and IPrecAvg
            // kernels of one `rel` (the values each kernel's `compute` gives alone)
            let mut made: Option<(i64, Interpolated)> = None;
            for (k, kernel) in kernels.iter().enumerate() {
                let make = |rel| Interpolated::of(grades, qrels, rel, num_ret);
                let (value, undef) = match *kernel {
                    Kernel::IPrec { rel, point, trec9 } => {
                        let ip = made_once(&mut made, rel, make);
                        (ip.value(point, trec9), ip.undefined())
                    }
                    Kernel::IPrecAvg { rel, trec9 } => {
                        let ip = made_once(&mut made, rel, make);
                        (ip.eleven_point_average(trec9), ip.undefined())
                    }
                    _ => kernel.compute(grades, qrels, num_ret, in_run),
                };
                values[k * nq + q] = value;
                count_undefined(undefined.as_mut_slice(), k, undef);
            }
        }
        Some((values, undefined))
    }
}

/// The interpolated precisions of `rel` held in `made`, made by `make` unless they are
/// there already.
fn made_once(
    made: &mut Option<(i64, Interpolated)>,
    rel: i64,
    make: impl FnOnce(i64) -> Interpolated,
) -> &Interpolated {
    if made.as_ref().is_some_and(|(r, _)| *r != rel) {
        *made = None;
    }
    &made.get_or_insert_with(|| (rel, make(rel))).1
}

/// `num / den`, 0 where `den <= 0` (`cranfield.measures.kernels.counting.ratio`).
fn ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 { num / den } else { 0.0 }
}

/// `log2(i)` by the C library, as `JudgedRankings.log2_table` (Python's `math.log2`).
fn log2_of(i: u64) -> f64 {
    (i as f64).log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> QrelsIndex {
        QrelsIndex::new(vec![
            (
                "q2".to_string(),
                vec![("a".into(), 2), ("b".into(), 0), ("c".into(), -1)],
            ),
            ("q1".to_string(), vec![("a".into(), 1)]),
            ("q3".to_string(), vec![]),
        ])
    }

    #[test]
    fn queries_in_byte_order_with_sorted_grades() {
        let ix = index();
        assert_eq!(ix.query_ids, vec!["q1", "q2"]);
        assert_eq!(ix.sorted_grades(1), &[2, 0, -1]);
        assert_eq!(ix.max_grade, Some(2));
    }

    #[test]
    fn trec_order_and_grades() {
        let ix = index();
        // ties at 1.0 ordered by document id descending; -0.0 ties with 0.0
        let mut items = vec![("b", 1.0), ("c", 1.0), ("a", 0.0), ("z", -0.0), ("y", 3.0)];
        let j = judge(&ix, 1, &mut items, None, false, false);
        assert_eq!(j.grades, vec![NOT_IN_QRELS, UNJUDGED, 0, NOT_IN_QRELS, 2]);
        assert_eq!(j.scores, vec![3.0, 1.0, 1.0, -0.0, 0.0]);
        let j = judge(&ix, 1, &mut items, Some(4), true, false);
        assert_eq!(j.grades, vec![0]);
    }

    #[test]
    fn given_order_is_kept_then_cut_and_judged() {
        let ix = index();
        let mut items = vec![("b", 1.0), ("c", 1.0), ("a", 0.0), ("z", -0.0), ("y", 3.0)];
        let j = judge(&ix, 1, &mut items, None, false, true);
        assert_eq!(j.scores, vec![1.0, 1.0, 0.0, -0.0, 3.0]);
        // q2 judges a 2, b 0, c -1 (unjudged)
        assert_eq!(j.grades, vec![0, UNJUDGED, 2, NOT_IN_QRELS, NOT_IN_QRELS]);
        let j = judge(&ix, 1, &mut items, Some(3), true, true);
        assert_eq!(j.grades, vec![0, 2]);
    }

    #[test]
    fn kernels_on_a_worked_example() {
        // relevant at ranks 1 and 3 of 4; R = 3: AP = (1/1 + 2/3) / 3
        let grades = [1, 0, 2, NOT_IN_QRELS];
        let qrels = [2, 1, 1, 0];
        let ap = Kernel::Ap {
            cutoff: None,
            rel: 1,
        };
        assert_eq!(
            ap.compute(&grades, &qrels, 4, true),
            ((1.0 + 2.0 / 3.0) / 3.0, 0)
        );
        let p = Kernel::P { cutoff: 2, rel: 2 };
        assert_eq!(p.compute(&grades, &qrels, 4, true).0, 0.0);
        let ndcg = Kernel::Ndcg { cutoff: Some(1) };
        assert_eq!(ndcg.compute(&grades, &qrels, 4, true), (0.5, 0));
        assert_eq!(ap.compute(&[], &[0], 0, true).1, 1);
    }

    #[test]
    fn bpref_and_interpolated_precision_by_hand() {
        // relevant (rel 1) at ranks 1, 4, 6; judged non-relevant at ranks 2 and 5; R = 4,
        // N = 3 judged non-relevant in the qrels
        let grades = [1, 0, NOT_IN_QRELS, 2, 0, 1];
        let qrels = [2, 1, 1, 1, 0, 0, 0];
        // (1 + (1 - 1/3) + (1 - 2/3)) / 4
        let bpref = Kernel::Bpref { rel: 1 };
        assert_eq!(bpref.compute(&grades, &qrels, 6, true), (0.5, 0));
        assert_eq!(bpref.compute(&grades, &[0, 0], 6, true), (0.0, 1)); // R = 0
        // precision at the relevant rows 1, 1/2, 1/2: interpolated 1, 1/2, 1/2
        let iprec = |point, trec9| Kernel::IPrec {
            rel: 1,
            point,
            trec9,
        };
        assert_eq!(
            iprec(0.0, false).compute(&grades, &qrels, 6, true),
            (1.0, 0)
        );
        assert_eq!(
            iprec(0.5, false).compute(&grades, &qrels, 6, true),
            (0.5, 0)
        );
        // recall 0.8 of R = 4: lround(3.2) = 3 relevant, found; (long)(3.2 + 0.9) = 4, not
        assert_eq!(
            iprec(0.8, false).compute(&grades, &qrels, 6, true),
            (0.5, 0)
        );
        assert_eq!(iprec(0.8, true).compute(&grades, &qrels, 6, true), (0.0, 0));
        // nothing retrieved: NaN at recall 0, both undefined cases told apart
        let (v, undefined) = iprec(0.0, false).compute(&[], &qrels, 0, true);
        assert!(v.is_nan() && undefined == 0b10);
        assert_eq!(iprec(0.0, false).compute(&[], &[0], 1, true), (0.0, 0b01));
        // the 11 points, c = lround(4p): 1 (0.0 to 0.3: c = 0, 0, 1, 1), 0.5 (0.4 to 0.8:
        // c = 2 to 3), 0 (0.9, 1.0: c = 4)
        let avg = Kernel::IPrecAvg {
            rel: 1,
            trec9: false,
        };
        let (v, _) = avg.compute(&grades, &qrels, 6, true);
        assert!((v - (4.0 + 5.0 * 0.5) / 11.0).abs() < 1e-15);
        let gm = Kernel::GmBpref { rel: 1 };
        assert_eq!(gm.compute(&grades, &qrels, 6, true).0, 0.5f64.ln());
        assert_eq!(gm.compute(&[], &qrels, 0, true).0, 1e-5f64.ln());
    }

    #[test]
    fn set_measures_bin_g_and_infap_by_hand() {
        // relevant (rel 1) at ranks 1 and 5 of 6; judged non-relevant at ranks 2 and 6;
        // rank 3 not in the qrels, rank 4 unjudged (negative grade); R = 3
        let grades = [1, 0, NOT_IN_QRELS, UNJUDGED, 2, 0];
        let qrels = [2, 1, 1, 0, 0, -1];
        let close = |k: Kernel, want: f64| {
            let (v, undefined) = k.compute(&grades, &qrels, 6, true);
            assert!(
                (v - want).abs() < 1e-15 && undefined == 0,
                "{k:?}: {v} != {want}"
            );
        };
        close(Kernel::SetP { rel: 1 }, 2.0 / 6.0);
        close(Kernel::SetR { rel: 1 }, 2.0 / 3.0);
        close(Kernel::SetRelP { rel: 1 }, 2.0 / 3.0); // 2 / min(6, 3)
        close(Kernel::SetAp { rel: 1 }, 4.0 / 18.0);
        // P = 1/3, R = 2/3: F1 = 2 P R / (P + R) = 4/9; beta 2: 5 P R / (4 P + R) = 10/18
        close(Kernel::SetF { rel: 1, beta: 1.0 }, 4.0 / 9.0);
        close(Kernel::SetF { rel: 1, beta: 2.0 }, 10.0 / 18.0);
        close(Kernel::RelP { cutoff: 2, rel: 1 }, 0.5); // 1 / min(2, 3)
        close(Kernel::RelP { cutoff: 10, rel: 1 }, 2.0 / 3.0); // 2 / min(10, 3)
        close(Kernel::NumNonRelJudgedRet { rel: 1 }, 2.0);
        close(Kernel::NumNonRelJudgedRet { rel: 3 }, 4.0); // grades 0, 1, 2, 0
        // 3 non-relevant rows above rank 5: (1/log2 2 + 1/log2 5) / 3
        close(Kernel::BinG { rel: 1 }, (1.0 + 1.0 / 5f64.log2()) / 3.0);
        // rank 5: f = 4, k1 = 1, nr = 1, u = 1: 1/5 + (4/5)(3/4)(1/2) = 1/2; (1 + 1/2) / 3
        close(Kernel::InfAp { rel: 1 }, 0.5);
        // nothing retrieved: SetP's case; no relevant document: R = 0
        assert_eq!(
            Kernel::SetP { rel: 1 }.compute(&[], &qrels, 0, true),
            (0.0, 1)
        );
        assert_eq!(
            Kernel::SetR { rel: 1 }.compute(&grades, &[0], 6, true),
            (0.0, 1)
        );
        assert_eq!(
            Kernel::InfAp { rel: 1 }.compute(&grades, &[0], 6, true),
            (0.0, 1)
        );
        assert_eq!(
            Kernel::BinG { rel: 1 }.compute(&[0, 0], &qrels, 2, true),
            (0.0, 0)
        );
        assert_eq!(
            Kernel::SetF { rel: 1, beta: 1.0 }.compute(&[0], &qrels, 1, true),
            (0.0, 0)
        );
    }

    #[test]
    fn utility_and_the_gain_measures_by_hand() {
        // grades 2, 0, 1 at ranks 1 to 3, rank 4 not in the qrels; ideal gains 2, 1, 1
        let grades = [2, 0, 1, NOT_IN_QRELS];
        let qrels = [2, 1, 1, 0];
        let close = |k: Kernel, grades: &[i64], want: f64| {
            let (v, undefined) = k.compute(grades, &qrels, grades.len(), true);
            assert!(
                (v - want).abs() < 1e-15 && undefined == 0,
                "{k:?}: {v} != {want}"
            );
        };
        // RR = 2, n = 4, R = 3: 1*2 - 1*2 = 0; 2.5*2 - 0.5*2 + 0.5*1 + 1*(10 + 2 - 4 - 3)
        let utility = |a, b, c, d, n_docs| Kernel::Utility {
            rel: 1,
            a,
            b,
            c,
            d,
            n_docs,
        };
        close(utility(1.0, -1.0, 0.0, 0.0, 0), &grades, 0.0);
        close(utility(2.5, -0.5, 0.5, 1.0, 10), &grades, 9.5);
        // a judged query missing from the run: 0, whatever its dummy ranking
        let missing = utility(2.5, -0.5, 0.5, 1.0, 10).compute(&[], &qrels, 1, false);
        assert_eq!(missing, (0.0, 0));
        // G: C = 2, 3, 4 (then 5); rank 1: 2 / log2(2 + 2 - 2); rank 3: 1 / log2(2 + 4 - 3)
        close(Kernel::G, &grades, (2.0 + 1.0 / 3f64.log2()) / 4.0);
        // DCG 2 at rank 1, 2.5 at rank 3; IDCG 2, 2 + 1/log2 3, 2.5 + 1/log2 3
        let idcg3 = 2.5 + 1.0 / 3f64.log2();
        // nDCGRel: (2/2 + 2.5/IDCG_3 + (3 - 2) 2.5/IDCG_3) / 3
        close(Kernel::NdcgRel, &grades, (1.0 + 2.0 * 2.5 / idcg3) / 3.0);
        // RnDCG: boundaries 2 (gain 2 -> 1) and m + 1 = 4: (2/2 + 2.5/IDCG_3) / 2; with
        // n = 5 >= m + 2 the end point DCG_5 / IDCG_3 too
        let rndcg = Kernel::Rndcg { rel: 1 };
        close(rndcg, &grades, (1.0 + 2.5 / idcg3) / 2.0);
        let longer = [2, 0, 1, NOT_IN_QRELS, 0];
        close(rndcg, &longer, (1.0 + 2.0 * 2.5 / idcg3) / 3.0);
        // no positive grade: no ideal gain (G, nDCGRel); RnDCG R = 0, or R > 0 at rel 0: NaN
        assert_eq!(Kernel::G.compute(&[0], &[0], 1, true), (0.0, 1));
        assert_eq!(Kernel::NdcgRel.compute(&[0], &[0], 1, true), (0.0, 1));
        assert_eq!(rndcg.compute(&[0], &[0], 1, true), (0.0, 0b01));
        let (v, undefined) = Kernel::Rndcg { rel: 0 }.compute(&[0], &[0, 0], 1, true);
        assert!(v.is_nan() && undefined == 0b10);
    }

    #[test]
    fn ids() {
        assert!(valid_id(b"d1"));
        assert!(!valid_id(b""));
        assert!(!valid_id(b"a b"));
        assert!(!valid_id("a\u{85}".as_bytes()));
        assert!(valid_id("a\u{a0}".as_bytes()));
    }
}
