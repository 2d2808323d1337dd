//! The local emulator for the whole test binary: a private instance (own
//! state directory, free ports) started through `scripts/emulator.sh`, and a
//! guard that stops it when dropped — on success, failure or panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A running private emulator; dropping it stops the emulator.
pub struct Emulator {
    root: PathBuf,
    state: PathBuf,
    env: BTreeMap<String, String>,
}

impl Emulator {
    /// Starts private emulator number `n` (installing the venv on first use).
    pub fn start(root: &Path, scratch: &Path, n: usize) -> Result<Emulator, String> {
        if Command::new("python3").arg("--version").output().is_err() {
            return Err(
                "python3 is not installed: the end-to-end tests need it to create the emulator's virtualenv (tests/emulator/requirements.txt)".into(),
            );
        }
        let state = scratch.join(format!("emulator-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&state);
        let mut emu = Emulator {
            root: root.to_path_buf(),
            state,
            env: BTreeMap::new(),
        };
        // The guard exists before the start, so a half-started emulator is stopped too.
        let out = emu
            .script("start")
            .map_err(|e| format!("scripts/emulator.sh start: {e}"))?;
        emu.env = parse_exports(&out);
        if !emu.env.contains_key("AWS_ENDPOINT_URL") {
            return Err(format!(
                "scripts/emulator.sh start printed no endpoint:\n{out}"
            ));
        }
        Ok(emu)
    }

    /// Runs `scripts/emulator.sh <verb>` for this instance; stdout on success.
    fn script(&self, verb: &str) -> Result<String, String> {
        let out = Command::new("bash")
            .arg(self.root.join("scripts/emulator.sh"))
            .arg(verb)
            .env("REALDRIFT_EMULATOR_DIR", &self.state)
            // Any free port: never collide with a developer's emulator on 4566.
            .env("REALDRIFT_MOTO_PORT", "0")
            .env("REALDRIFT_CLOUDCONTROL_PORT", "0")
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(format!(
                "exit {:?}\n{}{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    /// Forgets every resource (between scenarios).
    pub fn reset(&self) -> Result<(), String> {
        self.script("reset").map(|_| ())
    }

    /// The `AWS_*` environment that points SDKs at this emulator.
    pub fn env(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// The virtualenv's python (boto3, the deploy harness).
    pub fn python(&self) -> PathBuf {
        std::env::var_os("REALDRIFT_VENV")
            .map(PathBuf::from)
            .unwrap_or_else(|| self.root.join(".venv"))
            .join("bin/python")
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        if let Err(e) = self.script("stop") {
            eprintln!("e2e: stopping the emulator failed: {e}");
        }
        let _ = std::fs::remove_dir_all(&self.state);
    }
}

/// `export K=V` lines -> map.
fn parse_exports(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("export "))
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}
