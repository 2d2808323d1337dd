//! The revert function end to end, through the local Lambda runtime
//! (`cargo lambda watch` + `cargo lambda invoke`, one session for every
//! step): a stack outside the scope is refused, a dry run returns the plan
//! and its digest, an apply with a stale digest writes nothing, an apply
//! with the current digest converges, a following check is clean, and the
//! applied revert is published to SNS.

use crate::world::{drift_findings, ids, summary, World};
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BUCKET: &str = "realdrift-fn-e2e";
const STACK: &str = "FnRevert";

/// A running `cargo lambda watch`; dropping it stops its process group.
struct Watch {
    child: Child,
    port: u16,
    cargo_lambda: PathBuf,
    dir: PathBuf,
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Only the process this test started, by its id. The function
        // process it ran exits by itself once its runtime API is gone.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watch {
    fn start(w: &World, env: &[(&str, &str)]) -> Watch {
        let cargo_lambda = w
            .emu
            .python()
            .parent()
            .map(|p| p.join("cargo-lambda"))
            .unwrap_or_default();
        assert!(
            cargo_lambda.exists(),
            "{} is missing: scripts/emulator.sh start installs it (tests/emulator/requirements.txt)",
            cargo_lambda.display()
        );
        let port = free_port();
        // An env file, not --env-var: that flag splits its value on commas.
        let env_file = w.dir.join("function.env");
        let lines: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        std::fs::write(&env_file, lines.join("\n") + "\n").expect("env file");
        let log = std::fs::File::create(w.dir.join("watch.log")).expect("watch log");
        let mut cmd = Command::new(&cargo_lambda);
        cmd.args([
            "lambda",
            "watch",
            "--ignore-changes",
            "-A",
            "127.0.0.1",
            "-P",
        ])
        .arg(port.to_string())
        .envs(w.emu.env())
        .current_dir(w.root)
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .arg("--env-file")
        .arg(&env_file);
        let child = cmd.spawn().expect("start cargo lambda watch");
        let watch = Watch {
            child,
            port,
            cargo_lambda,
            dir: w.dir.clone(),
        };
        watch.wait_ready();
        watch
    }

    /// Polls until the runtime accepts connections (it starts in about a second).
    fn wait_ready(&self) {
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "cargo lambda watch did not listen on {}:\n{}",
                self.port,
                std::fs::read_to_string(self.dir.join("watch.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Invokes the revert function with `event`; its response.
    fn invoke(&self, event: Value) -> Value {
        let file = self.dir.join("event.json");
        std::fs::write(&file, event.to_string()).expect("event file");
        let out = Command::new(&self.cargo_lambda)
            .args(["lambda", "invoke", "-A", "127.0.0.1", "-P"])
            .arg(self.port.to_string())
            .arg("--data-file")
            .arg(&file)
            .arg("realdrift-revert")
            .output()
            .expect("cargo lambda invoke");
        let text = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str(&text).unwrap_or_else(|e| {
            panic!(
                "invoke {event}: not JSON ({e}):\n{text}\n{}\nwatch log:\n{}",
                String::from_utf8_lossy(&out.stderr),
                std::fs::read_to_string(self.dir.join("watch.log")).unwrap_or_default()
            )
        })
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Runs tests/e2e/sns_inbox.py.
fn inbox(w: &World, args: &[&str]) -> Value {
    let script: PathBuf = Path::new(w.root).join("tests/e2e/sns_inbox.py");
    let out = Command::new(w.emu.python())
        .arg(script)
        .args(args)
        .envs(w.emu.env())
        .output()
        .expect("sns_inbox.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("inbox JSON")
}

fn s3_check(w: &World) -> (i32, Value) {
    let base = format!("s3://{BUCKET}/baselines");
    let run = w.realdrift(&["check", STACK, "--json", "--fail", "--baseline-s3", &base]);
    (run.code, run.json())
}

/// The whole Lambda story in one `cargo lambda watch` session.
pub fn revert_lambda_through_the_local_runtime(w: &World) {
    let s = w.deploy(STACK);
    w.mutate(json!([["create-bucket", BUCKET]]));
    let sns = inbox(w, &["create", "realdrift-alerts"]);
    let base = format!("s3://{BUCKET}/baselines");
    w.realdrift(&["record", STACK, "--yes", "--baseline-s3", &base])
        .expect_code(0);
    let (bucket, topic, role) = (s.id(ids::BUCKET), s.id(ids::TOPIC), s.id(ids::ROLE));
    w.mutate(json!([
        ["versioning", bucket, "Suspended"],
        ["topic-display-name", topic, "Changed by hand"],
        ["role-policy", role, "Rogue", "s3:*"],
        ["subscribe", topic, "email", "oncall@example.com"],
    ]));

    let topic_arn = sns["topicArn"].as_str().unwrap_or_default().to_string();
    let watch = Watch::start(
        w,
        &[
            ("REALDRIFT_BUCKET", BUCKET),
            ("REALDRIFT_TOPIC_ARN", &topic_arn),
            ("REALDRIFT_STACKS", "FnRevert,Other*"),
            ("RUST_LOG", "info"),
        ],
    );

    // Outside the scope: refused before anything is read.
    let r = watch.invoke(json!({"stack": "NotInScope"}));
    assert_eq!(r["status"], "refused", "{r}");

    // A dry run is the default.
    let dry = watch.invoke(json!({"stack": STACK}));
    assert_eq!(dry["status"], "planned", "{dry}");
    assert_eq!(
        dry["plan"]["items"].as_array().map(Vec::len),
        Some(4),
        "{dry}"
    );
    let stale = dry["digest"].as_str().unwrap_or_default().to_string();

    // Something else drifts before the apply: the approved digest is stale.
    w.mutate(json!([["accelerate", bucket, "Enabled"]]));
    let r = watch.invoke(json!({"stack": STACK, "dryRun": false, "planDigest": stale}));
    assert_eq!(r["status"], "refused", "{r}");
    assert!(
        r["message"]
            .as_str()
            .unwrap_or_default()
            .contains("nothing was written"),
        "{r}"
    );
    assert!(r.get("outcome").is_none());
    let (_, doc) = s3_check(w);
    assert_eq!(
        drift_findings(&doc).len(),
        5,
        "nothing written:\n{}",
        summary(&drift_findings(&doc))
    );

    // The new plan, approved and applied.
    let dry = watch.invoke(json!({"stack": STACK}));
    let digest = dry["digest"].as_str().unwrap_or_default().to_string();
    assert_ne!(digest, stale);
    let r = watch.invoke(json!({"stack": STACK, "dryRun": false, "planDigest": digest}));
    assert_eq!(r["status"], "converged", "{r}");
    let items = r["outcome"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(items.len(), 5, "{r}");
    assert!(items.iter().all(|i| i["status"] == "converged"), "{r}");

    let (code, doc) = s3_check(w);
    assert!(
        drift_findings(&doc).is_empty(),
        "{}",
        summary(&drift_findings(&doc))
    );
    assert_eq!(code, 0);

    // One notice, for the one apply.
    let queue = sns["queueUrl"].as_str().unwrap_or_default().to_string();
    let notices = inbox(w, &["read", &queue]);
    let notices = notices.as_array().cloned().unwrap_or_default();
    assert_eq!(notices.len(), 1, "{notices:?}");
    let n = &notices[0];
    assert_eq!(
        n["subject"],
        format!("realdrift revert converged: {STACK} (5 reverted, 0 failed)")
    );
    assert_eq!(n["message"]["planDigest"], json!(digest));
    assert_eq!(n["message"]["result"], "converged");
    assert_eq!(n["message"]["items"].as_array().map(Vec::len), Some(5));
    drop(watch);
}
