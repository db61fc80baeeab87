//! `cargo +nightly fuzz run numbers`: see `oracle::check_numbers`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracle::check_numbers(data));
