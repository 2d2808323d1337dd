//! What a scenario works with: the emulator, a scratch directory, the fixture
//! deploy harness, out-of-band changes and the `realdrift` binary.

use crate::emulator::Emulator;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Logical ids of the fixture template (tests/fixtures/app).
pub mod ids {
    /// The versioned bucket.
    pub const BUCKET: &str = "Data666C94C7";
    /// The queue.
    pub const QUEUE: &str = "InboxA8E05DC3";
    /// The queue's policy (lets the topic send to it).
    pub const QUEUE_POLICY: &str = "InboxPolicy63A7501F";
    /// The topic.
    pub const TOPIC: &str = "Alerts91F83244";
    /// The role.
    pub const ROLE: &str = "WorkerRole8DD27D41";
}

/// The moto account.
pub const ACCOUNT: &str = "123456789012";

/// One scenario's world.
pub struct World<'a> {
    /// The repository root.
    pub root: &'a Path,
    /// The emulator.
    pub emu: &'a Emulator,
    /// The scenario's working directory (its `baselines/` lives here).
    pub dir: PathBuf,
}

/// A deployed fixture stack: logical id -> physical id.
pub struct Stack {
    /// The stack name.
    pub name: String,
    /// Physical ids by logical id.
    pub physical: BTreeMap<String, String>,
}

impl Stack {
    /// The physical id of a logical id (panics with the id when absent).
    pub fn id(&self, logical: &str) -> &str {
        self.physical
            .get(logical)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("{}: no physical id for {logical}", self.name))
    }
}

/// A finished `realdrift` run.
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Stdout parsed as JSON (panics with the output when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!("not JSON ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr)
        })
    }

    /// Asserts the exit code, showing the output when it differs.
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

impl World<'_> {
    fn python(&self, args: &[&str]) -> Output {
        self.python_in(None, args)
    }

    /// The harness python, acting in `account` (moto's default when `None`).
    fn python_in(&self, account: Option<&str>, args: &[&str]) -> Output {
        let mut cmd = Command::new(self.emu.python());
        cmd.args(args).envs(self.emu.env()).current_dir(self.root);
        if let Some(a) = account {
            cmd.env("REALDRIFT_EMULATOR_ACCOUNT", a);
        }
        cmd.output().expect("run the venv python")
    }

    /// Creates the fixture stack through CloudFormation in another moto account.
    pub fn deploy_in(&self, account: &str, name: &str) -> Stack {
        self.deploy_template_in(
            Some(account),
            name,
            "tests/fixtures/app/RealdriftFixture.template.json",
            &[],
        )
    }

    /// Makes out-of-band changes (mutate.py ops) in another moto account.
    pub fn mutate_in(&self, account: &str, ops: Value) {
        let script = self.root.join("tests/e2e/mutate.py");
        let out = self.python_in(
            Some(account),
            &[script.to_str().unwrap_or_default(), &ops.to_string()],
        );
        assert!(
            out.status.success(),
            "mutate in {account} {ops}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Creates the fixture stack with CreateStack and the harness fix-ups.
    pub fn deploy(&self, name: &str) -> Stack {
        self.deploy_template(
            name,
            "tests/fixtures/app/RealdriftFixture.template.json",
            &[],
        )
    }

    /// Creates a stack from a template under the repository root (JSON or
    /// YAML), with `KEY=VALUE` parameters.
    pub fn deploy_template(&self, name: &str, template: &str, parameters: &[&str]) -> Stack {
        self.deploy_template_in(None, name, template, parameters)
    }

    /// As [`World::deploy_template`], in `account` (moto's default when `None`).
    fn deploy_template_in(
        &self,
        account: Option<&str>,
        name: &str,
        template: &str,
        parameters: &[&str],
    ) -> Stack {
        let script = self.root.join("tests/emulator/deploy_fixture.py");
        let template = self.root.join(template);
        let mut args = vec![
            script.to_str().unwrap_or_default().to_string(),
            name.to_string(),
            "--template".to_string(),
            template.to_str().unwrap_or_default().to_string(),
        ];
        for p in parameters {
            args.push("--parameter".to_string());
            args.push((*p).to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.python_in(account, &args);
        assert!(
            out.status.success(),
            "deploy_fixture.py {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let summary: Value = serde_json::from_slice(&out.stdout).expect("deploy summary JSON");
        let physical = summary["resources"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                Some((
                    r["logicalId"].as_str()?.to_string(),
                    r["physicalId"].as_str()?.to_string(),
                ))
            })
            .collect();
        Stack {
            name: name.to_string(),
            physical,
        }
    }

    /// Makes out-of-band changes (tests/e2e/mutate.py ops) in order.
    pub fn mutate(&self, ops: Value) {
        let script = self.root.join("tests/e2e/mutate.py");
        let out = self.python(&[script.to_str().unwrap_or_default(), &ops.to_string()]);
        assert!(
            out.status.success(),
            "mutate {ops}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs a harness script (path under the repository root) in moto's
    /// default account and parses its stdout as JSON.
    pub fn script_json(&self, script: &str, args: &[&str]) -> Value {
        let script = self.root.join(script);
        let mut all = vec![script.to_str().unwrap_or_default()];
        all.extend(args);
        let out = self.python(&all);
        assert!(
            out.status.success(),
            "{}: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("the script's JSON")
    }

    /// Runs `realdrift` in the scenario directory against the emulator.
    pub fn realdrift(&self, args: &[&str]) -> Run {
        self.realdrift_with(args, &[])
    }

    /// Runs `realdrift` with some emulator variables removed (to test flags instead).
    pub fn realdrift_with(&self, args: &[&str], unset: &[&str]) -> Run {
        self.realdrift_env(args, unset, &[])
    }

    /// Runs `realdrift` with some emulator variables removed and others set.
    pub fn realdrift_env(&self, args: &[&str], unset: &[&str], set: &[(&str, &str)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_realdrift"));
        cmd.args(args)
            .envs(self.emu.env())
            .env_remove("NO_COLOR")
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        for k in unset {
            cmd.env_remove(k);
        }
        for (k, v) in set {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("run realdrift");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The baseline file of a stack in this scenario's `baselines/`.
    pub fn baseline_path(&self, stack: &str) -> PathBuf {
        self.dir
            .join("baselines")
            .join(format!("{stack}.{ACCOUNT}.us-east-1.json"))
    }
}

/// The findings of the single stack of a JSON report.
pub fn findings(doc: &Value) -> Vec<Value> {
    let stacks = doc["stacks"].as_array().expect("stacks array");
    assert_eq!(stacks.len(), 1, "one stack expected: {doc}");
    stacks[0]["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Findings that count as drift or potential drift (deleted/declared/undeclared/added).
pub fn drift_findings(doc: &Value) -> Vec<Value> {
    findings(doc)
        .into_iter()
        .filter(|f| {
            matches!(
                f["tier"].as_str(),
                Some("deleted" | "declared" | "undeclared" | "added")
            )
        })
        .collect()
}

/// The single finding with this tier, logical id and path (panics listing all when not exactly one).
pub fn the_finding(doc: &Value, tier: &str, logical: &str, path: &str) -> Value {
    let all = findings(doc);
    let hits: Vec<&Value> = all
        .iter()
        .filter(|f| f["tier"] == tier && f["logicalId"] == logical && f["path"] == path)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one {tier} {logical}.{path}; findings:\n{}",
        summary(&all)
    );
    hits[0].clone()
}

/// One line per finding, for assertion messages.
pub fn summary(findings: &[Value]) -> String {
    findings
        .iter()
        .map(|f| {
            format!(
                "  {} {} {} unrecorded={} note={}",
                f["tier"], f["logicalId"], f["path"], f["unrecorded"], f["note"]
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A JSON string value as an owned string ("" when absent).
pub fn str_at(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// The stack parameters a world script's `setup` answers (`KEY=VALUE` strings).
pub fn world_parameters(world: &Value) -> Vec<&str> {
    world["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The findings of a value not compared (`skipped`, `readGap`).
pub fn not_compared(doc: &Value) -> Vec<Value> {
    findings(doc)
        .into_iter()
        .filter(|f| matches!(f["tier"].as_str(), Some("skipped" | "readGap")))
        .collect()
}

/// A fresh stack's report: nothing drifted, and all `n` resources compared.
pub fn assert_clean_and_fully_compared(doc: &Value, n: u64) {
    let drift = drift_findings(doc);
    assert!(drift.is_empty(), "a fresh stack:\n{}", summary(&drift));
    let coverage = &doc["stacks"][0]["coverage"];
    assert_eq!(
        (
            &coverage["total"],
            &coverage["checked"],
            &coverage["complete"]
        ),
        (&json!(n), &json!(n), &json!(true)),
        "{coverage}"
    );
}
