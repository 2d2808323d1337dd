//! cargo-fuzz target: `realdrift_core::fuzzing::template_yaml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| realdrift_core::fuzzing::template_yaml(data));
