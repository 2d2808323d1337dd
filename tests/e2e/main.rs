//! End-to-end tests: the real `realdrift` binary against the local emulator.
//!
//! Its own harness (`harness = false`): private emulators (one per worker,
//! see `worker_count`), owned by guards in `main` so they are stopped
//! whatever happens; each worker runs scenarios one after another with its
//! emulator reset in between.
//!
//! ```sh
//! cargo test -p realdrift-cli --test e2e            # all scenarios
//! cargo test -p realdrift-cli --test e2e -- record  # those whose name contains "record"
//! ```

mod accounts;
mod baselines_sync;
mod emulator;
mod lambda;
mod on_change;
mod org_baselines;
mod org_hub;
mod readers;
mod readers_docdb;
mod readers_vpn;
mod revert;
mod revert_lambda;
mod scan;
mod scenarios;
mod slack_receiver;
mod world;

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let all: Vec<&scenarios::Scenario> = scenarios::ALL
        .iter()
        .chain(revert::ALL)
        .chain(baselines_sync::ALL)
        .chain(scan::ALL)
        .chain(accounts::ALL)
        .chain(org_hub::ALL)
        .chain(org_baselines::ALL)
        .chain(readers::ALL)
        .chain(readers_vpn::ALL)
        .chain(readers_docdb::ALL)
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
    // The panic location goes into the failing scenario's report (threads
    // run side by side, so a line on stderr could not be told apart).
    std::panic::set_hook(Box::new(|info| {
        if let Some(l) = info.location() {
            let at = format!("panicked at {}:{}", l.file(), l.line());
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(at));
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
    // The first start creates the venv; the others start side by side after it.
    let first = emulator::Emulator::start(&root, &scratch, 0);
    let others: Vec<_> = std::thread::scope(|scope| {
        let starting: Vec<_> = (1..worker_count(selected.len()))
            .map(|n| {
                let (root, scratch) = (&root, &scratch);
                scope.spawn(move || emulator::Emulator::start(root, scratch, n))
            })
            .collect();
        starting
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| Err(panic_text(&*p))))
            .collect()
    });
    let emulators: Result<Vec<_>, String> = std::iter::once(first).chain(others).collect();
    let emulators = match emulators {
        Ok(e) => e,
        Err(e) => {
            eprintln!("e2e: cannot start the emulator: {e}");
            println!("test result: FAILED. 0 passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out", selected.len());
            return ExitCode::FAILURE;
        }
    };

    let queue = Queue {
        scenarios: &selected,
        next: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
    };
    std::thread::scope(|scope| {
        for emu in &emulators {
            let (queue, root, scratch) = (&queue, &root, &scratch);
            scope.spawn(move || queue.work(emu, root, scratch));
        }
    });
    drop(emulators);
    let failed = queue.failed.load(Ordering::SeqCst);
    finish(selected.len() - failed, failed, filtered_out, started)
}

thread_local! {
    /// Where this thread's last panic happened.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Emulators, each with a worker taking scenarios in turn: the scenarios
/// mostly wait on the emulator's Python, so two run well side by side on two
/// cores. `REALDRIFT_E2E_WORKERS` overrides (1 runs them one after another).
fn worker_count(scenarios: usize) -> usize {
    let wanted = std::env::var("REALDRIFT_E2E_WORKERS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
                .min(4)
        });
    wanted.clamp(1, scenarios.max(1))
}

/// The scenarios to run, shared by the workers.
struct Queue<'a> {
    scenarios: &'a [&'a scenarios::Scenario],
    next: AtomicUsize,
    failed: AtomicUsize,
}

impl Queue<'_> {
    /// Runs scenarios on `emu` until none is left.
    fn work(&self, emu: &emulator::Emulator, root: &Path, scratch: &Path) {
        while let Some(s) = self.scenarios.get(self.next.fetch_add(1, Ordering::SeqCst)) {
            let t = Instant::now();
            match run_one(s, emu, root, scratch) {
                Ok(()) => println!("test {} ... ok ({:.1}s)", s.name, t.elapsed().as_secs_f64()),
                Err(e) => {
                    self.failed.fetch_add(1, Ordering::SeqCst);
                    println!(
                        "test {} ... FAILED ({:.1}s)\n{e}\n",
                        s.name,
                        t.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }
}

/// One scenario on a freshly reset emulator, in its own directory (kept when it fails).
fn run_one(
    s: &scenarios::Scenario,
    emu: &emulator::Emulator,
    root: &Path,
    scratch: &Path,
) -> Result<(), String> {
    let dir = scratch.join(s.name);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    emu.reset().map_err(|e| format!("reset: {e}"))?;
    let w = world::World {
        root,
        emu,
        dir: dir.clone(),
    };
    catch_unwind(AssertUnwindSafe(|| (s.run)(&w))).map_err(|p| {
        let at = LAST_PANIC
            .with(|l| l.borrow_mut().take())
            .unwrap_or_default();
        format!("{at}\n{}", panic_text(&*p))
    })?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
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
