//! cargo-fuzz target: `realdrift_core::fuzzing::cloudtrail_event`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| realdrift_core::fuzzing::cloudtrail_event(data));
