//! A local Lambda runtime for the functions: `cargo lambda watch` (from the
//! repository's .venv, installed from infra/requirements.txt when missing)
//! on a free port, invoked with `cargo lambda invoke`. Dropping the guard
//! stops it (the process group it was started in).

use serde_json::Value;
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running `cargo lambda watch`.
pub struct LocalLambda {
    root: PathBuf,
    port: u16,
    child: Child,
    scratch: PathBuf,
}

/// The venv's bin directory (cargo-lambda, zig).
fn venv_bin(root: &Path) -> PathBuf {
    std::env::var_os("REALDRIFT_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv"))
        .join("bin")
}

/// Installs cargo-lambda into the venv when it is not there.
fn ensure_cargo_lambda(root: &Path) -> Result<PathBuf, String> {
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

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

impl LocalLambda {
    /// Starts `cargo lambda watch` with `env` for the functions. Logs go to
    /// `scratch/lambda.log` (outside the crates: watch would rebuild on them).
    pub fn start(
        root: &Path,
        scratch: &Path,
        env: &BTreeMap<String, String>,
    ) -> Result<LocalLambda, String> {
        let exe = ensure_cargo_lambda(root)?;
        let port = free_port()?;
        let log = std::fs::File::create(scratch.join("lambda.log")).map_err(|e| e.to_string())?;
        let err = log.try_clone().map_err(|e| e.to_string())?;
        let env_file = scratch.join("lambda.env");
        let lines: String = env.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        std::fs::write(&env_file, lines).map_err(|e| e.to_string())?;
        let path = format!(
            "{}:{}",
            venv_bin(root).display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new(exe);
        // --timeout: how long an invoke waits for the answer (scan may run 15 minutes in infra/).
        // The deadline the function sees is cargo lambda's fixed 600000, read as a budget.
        cmd.args([
            "lambda",
            "watch",
            "--timeout",
            "900",
            "--invoke-address",
            "127.0.0.1",
            "--ignore-changes",
        ])
        .arg("--invoke-port")
        .arg(port.to_string())
        .arg("--env-file")
        .arg(&env_file)
        .env("PATH", path)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err);
        // Its own process group, so the guard stops the runtime and the
        // function processes it spawned, and nothing else.
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cargo lambda watch: {e}"))?;
        let l = LocalLambda {
            root: root.to_path_buf(),
            port,
            child,
            scratch: scratch.to_path_buf(),
        };
        l.wait_listening()?;
        Ok(l)
    }

    /// Polls until the runtime accepts connections (about a second).
    fn wait_listening(&self) -> Result<(), String> {
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
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

    /// Invokes `function` with `event`; the function's answer, or its error text.
    pub fn invoke(&self, function: &str, event: &Value) -> Result<Value, String> {
        let data = self.scratch.join("event.json");
        std::fs::write(&data, event.to_string()).map_err(|e| e.to_string())?;
        let exe = venv_bin(&self.root).join("cargo-lambda");
        let out = Command::new(exe)
            .args([
                "lambda",
                "invoke",
                "--invoke-address",
                "127.0.0.1",
                "--output-format",
                "json",
            ])
            .arg("--invoke-port")
            .arg(self.port.to_string())
            .arg("--data-file")
            .arg(&data)
            .arg(function)
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

    /// The runtime's log so far (the functions' JSON lines and EMF lines).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.scratch.join("lambda.log")).unwrap_or_default()
    }
}

impl Drop for LocalLambda {
    fn drop(&mut self) {
        // The process group this guard started: the runtime and its functions.
        let pgid = self.child.id() as i32;
        let _ = Command::new("kill")
            .arg("--")
            .arg(format!("-{pgid}"))
            .status();
        let _ = self.child.wait();
    }
}
