//! `cargo +nightly fuzz run run`: see `oracle::check_run`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracle::check_run(data));
