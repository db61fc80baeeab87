//! The compiled core of cranfield: bytes in, arrays out.
//!
//! [`trec`] reads TREC text (qrels and runs) in one pass per line: fields split, query and
//! document ids interned, numbers parsed by the rules of `cranfield.io.number_text`.  It knows
//! nothing of Python; `python.rs` (the `python` feature, on in the extension module) hands
//! its arrays to Python.  A problem in the text is returned as a [`trec::ParseError`] (its
//! kind, line and field), which the Python side words as the readers always have.

#![forbid(unsafe_code)]

pub mod dicts;
pub mod duplicates;
pub mod judge;
pub mod numbers;
pub mod quicksort;
pub mod run_collect;
pub mod run_judge;
pub mod text_reader;
pub mod threads;
pub mod trec;
pub mod words;

#[cfg(test)]
mod test_rng;

#[cfg(feature = "python")]
mod python;
