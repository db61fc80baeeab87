//! `cargo +nightly fuzz run join`: see `oracle::check_join_input`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracle::check_join_input(data));
