//! The CLI under hostile conditions, without the emulator: closed and silent
//! endpoints, a profile that must win over environment credentials, bad
//! rule arguments, malformed, huge and non-regular input files, and JSON on
//! every error under `--json`.
//!
//! Local TCP listeners stand in for AWS: one that accepts and never answers,
//! one that records the request's credential and refuses it.

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;

/// A scratch directory with no AWS config of its own (removed when dropped).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("baselines")).unwrap();
        Scratch(dir)
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    /// Runs realdrift in this directory with environment credentials and
    /// shared config files that exist only here.
    fn run(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_realdrift"));
        for (k, _) in std::env::vars() {
            if k.starts_with("AWS_") {
                cmd.env_remove(k);
            }
        }
        cmd.args(args)
            .current_dir(&self.0)
            .env("HOME", &self.0)
            .env("AWS_CONFIG_FILE", self.path("aws-config"))
            .env("AWS_SHARED_CREDENTIALS_FILE", self.path("aws-credentials"))
            .env("AWS_ACCESS_KEY_ID", "AKIDFROMENVIRONMENT")
            .env("AWS_SECRET_ACCESS_KEY", "env-secret")
            .env("AWS_REGION", "us-east-1")
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .stdin(Stdio::null())
            .output()
            .expect("run realdrift")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&o.stdout),
            stderr(o)
        )
    })
}

/// A port with nothing listening (bound, then released).
fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A listener that accepts every connection and never answers.
fn silent_endpoint() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        for s in l.incoming().flatten() {
            held.push(s);
        }
    });
    format!("http://{addr}")
}

/// A listener that answers every request with AccessDenied and sends the
/// access key id of each request's signature down the channel.
fn recording_endpoint() -> (String, mpsc::Receiver<String>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for mut s in l.incoming().flatten() {
            let mut head = Vec::new();
            let mut buf = [0u8; 4096];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                }
            }
            let text = String::from_utf8_lossy(&head).to_lowercase();
            let key = text
                .split("credential=")
                .nth(1)
                .and_then(|r| r.split('/').next())
                .unwrap_or("")
                .to_uppercase();
            let _ = tx.send(key);
            let body = "<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>denied by the test endpoint</Message></Error><RequestId>1</RequestId></ErrorResponse>";
            let _ = write!(
                s,
                "HTTP/1.1 403 Forbidden\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (format!("http://{addr}"), rx)
}

#[test]
fn a_closed_port_fails_at_once_on_one_clear_line() {
    let s = Scratch::new("closed");
    let url = format!("http://127.0.0.1:{}", closed_port());
    let out = s.run(&["check", "App", "--endpoint-url", &url]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line:\n{err}");
    assert!(err.contains("Connection refused"), "{err}");
    for dump in ["DispatchFailure(", "ConnectorError {", "Os {", "kind:"] {
        assert!(!err.contains(dump), "debug dump {dump:?} in:\n{err}");
    }
    // Said once, not once per layer.
    assert_eq!(err.matches("Connection refused").count(), 1, "{err}");

    let out = s.run(&["check", "App", "--json", "--endpoint-url", &url]);
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&out);
    assert_eq!(doc["exitCode"], 2);
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("Connection refused"),
        "{doc}"
    );
}

#[test]
fn a_silent_endpoint_times_out_instead_of_hanging() {
    let s = Scratch::new("silent");
    let url = silent_endpoint();
    let out = s.run(&[
        "check",
        "App",
        "--json",
        "--endpoint-url",
        &url,
        "--read-timeout",
        "0.3",
        "--call-timeout",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let doc = json(&out);
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("timed out"),
        "{doc}"
    );
}

#[test]
fn a_named_profile_wins_over_environment_credentials() {
    let s = Scratch::new("profile");
    std::fs::write(
        s.path("aws-credentials"),
        "[audit]\naws_access_key_id = AKIDFROMPROFILE\naws_secret_access_key = profile-secret\n",
    )
    .unwrap();
    std::fs::write(
        s.path("aws-config"),
        "[profile audit]\nregion = eu-west-1\n",
    )
    .unwrap();
    let (url, seen) = recording_endpoint();
    let out = s.run(&["check", "App", "--endpoint-url", &url, "--profile", "audit"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let key = seen.recv().expect("a request reached the endpoint");
    assert_eq!(
        key, "AKIDFROMPROFILE",
        "--profile must win over AWS_ACCESS_KEY_ID"
    );

    // Without --profile the environment's keys are used, as the AWS CLI does.
    let out = s.run(&["check", "App", "--endpoint-url", &url]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(seen.recv().expect("a request"), "AKIDFROMENVIRONMENT");

    // An unknown profile is an error before any call.
    let out = s.run(&["check", "App", "--endpoint-url", &url, "--profile", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--profile nope"), "{err}");
    assert!(
        seen.try_recv().is_err(),
        "no call was made with an unknown profile"
    );
    let out = s.run(&["check", "App", "--profile", ""]);
    assert_eq!(out.status.code(), Some(2), "a blank profile is refused");
}

#[test]
fn blank_and_malformed_rule_arguments_are_refused_without_blaming_the_file() {
    let s = Scratch::new("ignore-args");
    std::fs::write(
        s.path("baselines/ignore.yaml"),
        "ignore:\n  - path: 'a.B'\n",
    )
    .unwrap();
    for args in [
        vec!["ignore", ""],
        vec!["ignore", "   "],
        vec!["ignore", "a.B", "--account", ""],
        vec!["ignore", "a.B", "--stack", " "],
        vec!["ignore", "a.Tags\\"],
    ] {
        let out = s.run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            !err.contains("ignore.yaml"),
            "{args:?} blames the file: {err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(s.path("baselines/ignore.yaml")).unwrap(),
        "ignore:\n  - path: 'a.B'\n",
        "nothing written"
    );
    // A control character in a path is written escaped and matches the path.
    let out = s.run(&["ignore", "Bucket.Tags[a\u{202e}b]"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(s.path("baselines/ignore.yaml")).unwrap();
    assert!(
        !text.contains('\u{202e}') && text.contains("\\u202e"),
        "{text}"
    );
}

#[test]
fn bad_ignore_files_are_errors_in_json_too() {
    let s = Scratch::new("ignore-files");
    let url = format!("http://127.0.0.1:{}", closed_port());
    let check = |s: &Scratch| s.run(&["check", "App", "--json", "--endpoint-url", &url]);

    std::fs::write(s.path("baselines/ignore.yaml"), "ignroe: []\n").unwrap();
    let out = check(&s);
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&out);
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("ignore.yaml"),
        "{doc}"
    );

    // 100,000 rules (4.8 MB): refused by its size, at once and in little memory.
    let mut big = String::from("ignore:\n");
    for i in 0..100_000 {
        big.push_str(&format!("  - path: 'Resource{i}.Property'\n"));
    }
    std::fs::write(s.path("baselines/ignore.yaml"), &big).unwrap();
    let doc = json(&check(&s));
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("too large"),
        "{doc}"
    );

    // A FIFO never blocks the run; /dev/zero is never read.
    std::fs::remove_file(s.path("baselines/ignore.yaml")).unwrap();
    let made = Command::new("mkfifo")
        .arg(s.path("baselines/ignore.yaml"))
        .status();
    assert!(made.map(|st| st.success()).unwrap_or(false), "mkfifo");
    let doc = json(&check(&s));
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("not a regular file"),
        "{doc}"
    );
    std::fs::remove_file(s.path("baselines/ignore.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", s.path("baselines/ignore.yaml")).unwrap();
    let doc = json(&check(&s));
    assert!(
        doc["error"]
            .as_str()
            .unwrap_or_default()
            .contains("not a regular file"),
        "{doc}"
    );
}
