//! `cargo +nightly fuzz run qrels`: see `oracle::check_qrels`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracle::check_qrels(data));
