//! A local Lambda runtime for the functions: per function, `cargo lambda
//! watch --only-lambda-apis` (from the repository's .venv, installed from
//! infra/requirements.txt when missing) serves the Lambda runtime API on a
//! free port, the function's binary polls it, and `cargo lambda invoke`
//! sends the events. Dropping the guard stops every process it started.
//!
//! The binaries are the ones `cargo test --workspace` builds: watch's own
//! `cargo run` resolves features without the workspace's dev-dependencies
//! and would compile the whole AWS SDK a second time (minutes and gigabytes
//! on a clean CI machine).

use serde_json::Value;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The Lambda runtimes started so far, one per function.
pub struct LocalLambda {
    root: PathBuf,
    scratch: PathBuf,
    env: BTreeMap<String, String>,
    running: Mutex<BTreeMap<String, Runtime>>,
}

/// One function's runtime API server and the function process polling it.
struct Runtime {
    port: u16,
    watch: Child,
    function: Child,
}

impl Drop for Runtime {
    fn drop(&mut self) {
        for child in [&mut self.function, &mut self.watch] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The venv's bin directory (cargo-lambda, zig).
fn venv_bin(root: &Path) -> PathBuf {
    std::env::var_os("REALDRIFT_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"))
        .join("bin")
}

/// Installs cargo-lambda into the venv when it is not there (once per run:
/// scenarios run side by side, and two pip installs into one venv collide).
fn ensure_cargo_lambda(root: &Path) -> Result<PathBuf, String> {
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    INSTALLED.get_or_init(|| install_cargo_lambda(root)).clone()
}

fn install_cargo_lambda(root: &Path) -> Result<PathBuf, String> {
    let bin = venv_bin(root);
    let exe = bin.join("cargo-lambda");
    if exe.exists() {
        return Ok(exe);
    }
    let out = Command::new(bin.join("pip"))
        .args(["install", "--quiet", "--disable-pip-version-check", "-r"])
        .arg(root.join("infra/requirements.txt"))
        .output()
        .map_err(|e| format!("pip: {e}"))?;
    if !out.status.success() || !exe.exists() {
        return Err(format!(
            "installing cargo-lambda: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// The directory holding the workspace's binaries: the e2e test binary
/// runs from `<target>/<profile>/deps`.
fn bin_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    exe.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("no target directory above {}", exe.display()))
}

/// Builds the function binaries once per run, in the same invocation shape
/// as `cargo test --workspace` (so nothing is rebuilt after that command).
fn build_functions(root: &Path, scratch: &Path) -> Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let log = scratch.join("build.log");
            let out = Command::new(cargo)
                .args(["test", "--workspace", "--locked", "--no-run"])
                .current_dir(root)
                .output()
                .map_err(|e| format!("cargo test --no-run: {e}"))?;
            let _ = std::fs::write(&log, &out.stderr);
            if !out.status.success() {
                return Err(format!(
                    "building the functions failed:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            bin_dir()
        })
        .clone()
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// The shared log file, opened for appending by one more process.
fn log_handle(scratch: &Path) -> Result<(File, File), String> {
    let open = || {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(scratch.join("lambda.log"))
            .map_err(|e| e.to_string())
    };
    Ok((open()?, open()?))
}

impl LocalLambda {
    /// A runtime for the functions with `env`; each function starts on its
    /// first invoke. Logs go to `scratch/lambda.log`.
    pub fn start(
        root: &Path,
        scratch: &Path,
        env: &BTreeMap<String, String>,
    ) -> Result<LocalLambda, String> {
        ensure_cargo_lambda(root)?;
        build_functions(root, scratch)?;
        File::create(scratch.join("lambda.log")).map_err(|e| e.to_string())?;
        Ok(LocalLambda {
            root: root.to_path_buf(),
            scratch: scratch.to_path_buf(),
            env: env.clone(),
            running: Mutex::new(BTreeMap::new()),
        })
    }

    /// Starts `function`'s runtime API server and the function itself.
    fn spawn(&self, function: &str) -> Result<Runtime, String> {
        let exe = venv_bin(&self.root).join("cargo-lambda");
        let port = free_port()?;
        let (out, err) = log_handle(&self.scratch)?;
        // --timeout: how long an invoke waits for the answer (scan may run 15 minutes in infra/).
        let watch = Command::new(exe)
            .args(["lambda", "watch", "--only-lambda-apis", "--timeout", "900"])
            .args(["--invoke-address", "127.0.0.1", "--invoke-port"])
            .arg(port.to_string())
            .current_dir(&self.root)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cargo lambda watch: {e}"))?;
        let mut watch = watch;
        // The function exits when its runtime API refuses it: wait first.
        if let Err(e) = self.wait_listening(port) {
            let _ = watch.kill();
            let _ = watch.wait();
            return Err(e);
        }
        let binary = build_functions(&self.root, &self.scratch)?.join(function);
        let (out, err) = log_handle(&self.scratch)?;
        let spawned = Command::new(&binary)
            .envs(&self.env)
            .env("AWS_LAMBDA_FUNCTION_NAME", function)
            .env("AWS_LAMBDA_FUNCTION_VERSION", "1")
            .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512")
            .env(
                "AWS_LAMBDA_RUNTIME_API",
                format!("http://127.0.0.1:{port}/.rt"),
            )
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn();
        match spawned {
            Ok(function) => Ok(Runtime {
                port,
                watch,
                function,
            }),
            Err(e) => {
                let _ = watch.kill();
                let _ = watch.wait();
                Err(format!("{}: {e}", binary.display()))
            }
        }
    }

    /// Polls until the runtime API accepts connections (about a second).
    fn wait_listening(&self, port: u16) -> Result<(), String> {
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if started.elapsed() > std::time::Duration::from_secs(60) {
                return Err(format!(
                    "cargo lambda watch did not listen:\n{}",
                    self.log()
                ));
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Ok(())
    }

    /// The runtime port of `function`, started on first use; an error when
    /// the function process has exited (an invoke would wait for it).
    fn port_of(&self, function: &str) -> Result<u16, String> {
        let mut running = self.running.lock().map_err(|e| e.to_string())?;
        if !running.contains_key(function) {
            let rt = self.spawn(function)?;
            running.insert(function.to_string(), rt);
        }
        let rt = running
            .get_mut(function)
            .ok_or_else(|| format!("{function}: not started"))?;
        if let Ok(Some(status)) = rt.function.try_wait() {
            return Err(format!("{function} exited ({status}):\n{}", self.log()));
        }
        Ok(rt.port)
    }

    /// Invokes `function` with `event`; the function's answer, or its error text.
    pub fn invoke(&self, function: &str, event: &Value) -> Result<Value, String> {
        let port = self.port_of(function)?;
        let data = self.scratch.join("event.json");
        std::fs::write(&data, event.to_string()).map_err(|e| e.to_string())?;
        let exe = venv_bin(&self.root).join("cargo-lambda");
        // Only-APIs mode serves one function, under the name `_`.
        let out = Command::new(exe)
            .args(["lambda", "invoke", "--invoke-address", "127.0.0.1"])
            .args(["--output-format", "json", "--invoke-port"])
            .arg(port.to_string())
            .arg("--data-file")
            .arg(&data)
            .arg("_")
            .current_dir(&self.root)
            .output()
            .map_err(|e| format!("cargo lambda invoke: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "{function} failed: {}{}\n(log: {})",
                stdout,
                String::from_utf8_lossy(&out.stderr),
                self.scratch.join("lambda.log").display()
            ));
        }
        serde_json::from_str(stdout.trim())
            .map_err(|e| format!("{function} answered non-JSON ({e}): {stdout}"))
    }

    /// The runtimes' log so far (the functions' JSON lines and EMF lines).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.scratch.join("lambda.log")).unwrap_or_default()
    }
}
