//! End-to-end tests: the real `realdrift` binary against the local emulator.
//!
//! Its own harness (`harness = false`): one private emulator for the whole
//! binary, owned by a guard in `main` so it is stopped whatever happens;
//! scenarios run one after another with the emulator reset in between.
//!
//! ```sh
//! cargo test -p realdrift-cli --test e2e            # all scenarios
//! cargo test -p realdrift-cli --test e2e -- record  # those whose name contains "record"
//! ```

mod baselines_sync;
mod emulator;
mod lambda;
mod on_change;
mod revert;
mod revert_lambda;
mod scan;
mod scenarios;
mod slack_receiver;
mod world;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let all: Vec<&scenarios::Scenario> = scenarios::ALL
        .iter()
        .chain(revert::ALL)
        .chain(baselines_sync::ALL)
        .chain(scan::ALL)
        .chain(on_change::selected())
        .collect();
    let selected: Vec<&scenarios::Scenario> = all
        .iter()
        .copied()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())))
        .collect();
    if args.iter().any(|a| a == "--list") {
        for s in &selected {
            println!("{}: test", s.name);
        }
        return ExitCode::SUCCESS;
    }
    // Scenario failures are reported with their message below; one line here
    // says where, instead of a backtrace per failure.
    std::panic::set_hook(Box::new(|info| {
        if let Some(l) = info.location() {
            eprintln!("panicked at {}:{}", l.file(), l.line());
        }
    }));
    let filtered_out = all.len() - selected.len();
    println!("\nrunning {} tests", selected.len());
    let started = Instant::now();
    if selected.is_empty() {
        return finish(0, 0, filtered_out, started);
    }

    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf();
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e");
    let _ = std::fs::create_dir_all(&scratch);
    let emu = match emulator::Emulator::start(&root, &scratch) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("e2e: cannot start the emulator: {e}");
            println!("test result: FAILED. 0 passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out", selected.len());
            return ExitCode::FAILURE;
        }
    };

    let (mut passed, mut failed) = (0, 0);
    for s in selected {
        let t = Instant::now();
        let dir = scratch.join(s.name);
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::create_dir_all(&dir);
        let outcome = emu
            .reset()
            .map_err(|e| format!("reset: {e}"))
            .and_then(|()| {
                let w = world::World {
                    root: &root,
                    emu: &emu,
                    dir: dir.clone(),
                };
                catch_unwind(AssertUnwindSafe(|| (s.run)(&w))).map_err(|p| panic_text(&*p))
            });
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("test {} ... ok ({:.1}s)", s.name, t.elapsed().as_secs_f64());
                let _ = std::fs::remove_dir_all(&dir);
            }
            Err(e) => {
                failed += 1;
                println!(
                    "test {} ... FAILED ({:.1}s)\n{e}\n",
                    s.name,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    drop(emu);
    finish(passed, failed, filtered_out, started)
}

fn finish(passed: usize, failed: usize, filtered_out: usize, started: Instant) -> ExitCode {
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {verdict}. {passed} passed; {failed} failed; 0 ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
        started.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".into())
}
