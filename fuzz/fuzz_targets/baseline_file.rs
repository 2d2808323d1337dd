//! cargo-fuzz target: `realdrift_core::fuzzing::baseline_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| realdrift_core::fuzzing::baseline_file(data));
