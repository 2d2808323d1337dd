//! Runs the built `realdrift` binary: `corpus replay` in both formats, its
//! exit codes, and escaping of untrusted text.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const ESC: u8 = 0x1b;

fn realdrift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_realdrift"))
        .args(args)
        .output()
        .expect("run realdrift")
}

/// A fresh, empty directory for one test (removed when dropped).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("corpus-replay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.0.join(file), text).unwrap();
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A case whose resource declares nothing and reads back empty: no engine
/// can find anything in it, so it agrees whenever it expects nothing.
fn empty_case(expected: &str) -> String {
    format!(
        r#"{{"corpusVersion": 1,
  "resource": {{"logicalId": "Topic", "resourceType": "AWS::SNS::Topic", "declared": {{}}}},
  "liveRaw": {{}}, "schema": {{}},
  "opts": {{"accountId": "111111111111", "region": "us-east-1"}},
  "expected": [{expected}]}}"#
    )
}

/// An expected drift finding the empty resource cannot produce (a missed change),
/// with a path carrying a terminal escape sequence and a newline.
const EVIL_FINDING: &str = r#"{"tier": "declared", "logicalId": "Topic",
  "resourceType": "AWS::SNS::Topic", "path": "Tags\u001b[2J\nforged", "actual": 1}"#;

/// Three cases (error, agreeing, disagreeing) plus a file that is not a case.
fn sample_dir(name: &str) -> TempDir {
    let d = TempDir::new(name);
    d.write("b_agree.json", &empty_case(""));
    d.write("a_bad.json", "{not json");
    d.write("c_disagree.json", &empty_case(EVIL_FINDING));
    d.write("notes.txt", "not a case");
    d
}

fn stdout_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

#[test]
fn jsonl_is_the_default_and_lists_cases_in_name_order() {
    let d = sample_dir("jsonl");
    let out = realdrift(&["corpus", "replay", d.arg()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = stdout_lines(&out);
    let names: Vec<&str> = lines.iter().map(|l| l["case"].as_str().unwrap()).collect();
    assert_eq!(names, ["a_bad.json", "b_agree.json", "c_disagree.json"]);

    let err = lines[0]["error"].as_str().unwrap();
    assert!(err.contains("a_bad.json"), "{err}");
    assert!(lines[0].get("findings").is_none());
    assert_eq!(lines[1]["findings"], serde_json::json!([]));
    // A disagreeing case still prints what classify produced, and exits 0.
    assert!(lines[2]["findings"].is_array());
    assert!(lines[2].get("error").is_none());

    let explicit = realdrift(&["corpus", "replay", "--format", "jsonl", d.arg()]);
    assert_eq!(explicit.stdout, out.stdout);
}

#[test]
fn summary_counts_and_names_what_differs() {
    let d = sample_dir("summary");
    let out = realdrift(&["corpus", "replay", d.arg(), "--format", "summary"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "cases:                 3\n",
        "exact:                 1\n",
        "disagreeing:           1\n",
        "errors:                1\n",
        "missed drift findings: 1 (in 1 cases)\n",
        "  c_disagree.json: missing [declared:\"Tags\\u001b[2J\\nforged\"]\n",
        "  declared             1         0         1         0              0\n",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    assert!(text.contains("\ncase errors:\n  a_bad.json: "), "{text}");
    assert!(!text.contains("\nforged"), "a path forged a line:\n{text}");
    assert!(!text.as_bytes().contains(&ESC));
}

#[test]
fn control_characters_in_case_names_are_escaped_in_both_formats() {
    let d = TempDir::new("names");
    d.write("x\u{1b}[31mred\u{202e}.json", &empty_case(""));
    let jsonl = realdrift(&["corpus", "replay", d.arg()]);
    assert_eq!(jsonl.status.code(), Some(0));
    assert!(!jsonl.stdout.contains(&ESC));
    let text = String::from_utf8(jsonl.stdout.clone()).unwrap();
    assert!(!text.contains('\u{202e}'), "{text}");
    assert_eq!(
        stdout_lines(&jsonl)[0]["case"],
        "x\u{1b}[31mred\u{202e}.json",
        "escaped, yet the same name once decoded"
    );

    let summary = realdrift(&["corpus", "replay", d.arg(), "--format", "summary"]);
    assert_eq!(summary.status.code(), Some(0));
    assert!(!summary.stdout.contains(&ESC));
    assert!(!String::from_utf8(summary.stdout)
        .unwrap()
        .contains('\u{202e}'));
}

#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    let d = TempDir::new("pipe");
    let case = empty_case("");
    // Far more output than a pipe buffers, so the writer must hit the closed pipe.
    for i in 0..2000 {
        d.write(&format!("case-{i:05}.json"), &case);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_realdrift"))
        .args(["corpus", "replay", d.arg()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_empty_directory_replays_nothing() {
    let d = TempDir::new("empty");
    let out = realdrift(&["corpus", "replay", d.arg()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_directory_exits_2_naming_it() {
    let d = TempDir::new("missing");
    let gone = d.0.join("no-such-dir");
    let out = realdrift(&["corpus", "replay", gone.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no-such-dir"), "{err}");
    assert!(err.starts_with("realdrift: error: "), "{err}");
}

#[test]
fn a_file_given_as_directory_exits_2() {
    let d = TempDir::new("file");
    d.write("case.json", &empty_case(""));
    let file = d.0.join("case.json");
    let out = realdrift(&[
        "corpus",
        "replay",
        file.to_str().unwrap(),
        "--format",
        "summary",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("case.json") && err.contains("not a directory"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2_and_help_and_version_exit_0() {
    let bad = realdrift(&["corpus", "replay", ".", "--format", "xml"]);
    assert_eq!(bad.status.code(), Some(2));

    let version = realdrift(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    let v = String::from_utf8(version.stdout).unwrap();
    assert_eq!(v.trim(), format!("realdrift {}", env!("CARGO_PKG_VERSION")));

    let help = realdrift(&["corpus", "replay", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    let h = String::from_utf8(help.stdout).unwrap();
    assert!(h.contains("--format") && h.contains("summary"), "{h}");
}

fn real_corpus_dir() -> PathBuf {
    if let Ok(d) = std::env::var("REALDRIFT_CORPUS_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cases")
}

#[test]
fn the_real_corpus_replays_one_json_line_per_case() {
    let dir = real_corpus_dir();
    if !dir.is_dir() {
        println!("note: corpus dir {} absent; skipping", dir.display());
        return;
    }
    let cases = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let p = e.as_ref().unwrap().path();
            p.extension().is_some_and(|x| x == "json")
        })
        .count();
    let out = realdrift(&["corpus", "replay", dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = stdout_lines(&out);
    // The shared corpus holds 811 cases; a custom REALDRIFT_CORPUS_DIR may differ.
    if std::env::var_os("REALDRIFT_CORPUS_DIR").is_none() {
        assert_eq!(lines.len(), 811);
    }
    assert_eq!(lines.len(), cases);
    for l in &lines {
        assert!(l["case"].is_string(), "{l}");
        assert!(l["findings"].is_array() || l["error"].is_string(), "{l}");
    }
}

/// Two log groups of two stacks: only the first stack shows the Delivery
/// class's 2-day retention, so holding out what a stack alone supports
/// surfaces that retention there and leaves the other case as it was.
#[test]
fn hold_out_stacks_drops_what_a_case_s_own_stack_alone_supports() {
    let d = TempDir::new("holdout");
    let group = |stack: &str, class: &str, days: u64, tier: &str| {
        format!(
            r#"{{"corpusVersion": 1,
  "resource": {{"logicalId": "Logs", "resourceType": "AWS::Logs::LogGroup",
    "constructPath": "{stack}/Logs", "declared": {{"LogGroupClass": "{class}"}}}},
  "liveRaw": {{"LogGroupClass": "{class}", "RetentionInDays": {days}}}, "schema": {{}},
  "opts": {{"accountId": "111111111111", "region": "us-east-1"}},
  "expected": [{{"tier": "{tier}", "logicalId": "Logs", "resourceType": "AWS::Logs::LogGroup",
    "path": "RetentionInDays", "actual": {days}}}]}}"#
        )
    };
    d.write("a.json", &group("Alpha", "DELIVERY", 2, "atDefault"));
    d.write("b.json", &group("Beta", "STANDARD", 30, "undeclared"));
    d.write("c_bad.json", "{not json");

    let all = stdout_lines(&realdrift(&["corpus", "replay", d.arg()]));
    let held = realdrift(&["corpus", "replay", d.arg(), "--hold-out-stacks"]);
    assert_eq!(held.status.code(), Some(0), "{held:?}");
    let held = stdout_lines(&held);
    let tier = |lines: &[Value], i: usize| lines[i]["findings"][0]["tier"].clone();
    assert_eq!(tier(&all, 0), "atDefault");
    assert_eq!(tier(&held, 0), "undeclared");
    assert_eq!(tier(&all, 1), tier(&held, 1));
    assert!(held[2]["error"].as_str().unwrap().contains("c_bad.json"));

    let both = realdrift(&[
        "corpus",
        "replay",
        d.arg(),
        "--hold-out-stacks",
        "--without-observed",
    ]);
    assert_eq!(
        both.status.code(),
        Some(2),
        "the two measures exclude each other"
    );
}
