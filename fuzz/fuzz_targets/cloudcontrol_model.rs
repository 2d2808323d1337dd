//! cargo-fuzz target: `realdrift_core::fuzzing::cloudcontrol_model`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| realdrift_core::fuzzing::cloudcontrol_model(data));
