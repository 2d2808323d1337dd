//! A resource like a recorded one, deployed another way, must report what
//! the recorded one reports. Knowledge fitted to what the corpus happened
//! to hold breaks here, where knowledge that follows the resource holds.
//!
//! **Other declared numbers.** A default stated as the recorded capacity,
//! or a condition on the recorded shard count, is fitted; a `sameAs` rule
//! or a count derived from the declared ones is not. Every declared whole number from 2 up that the read echoes unchanged (or
//! does not return) is varied (`n` becomes `3n + 1`) in the template and wherever the read
//! holds it, as AWS would when it derives a value from the declared one;
//! the case is replayed and must report the same tiers at the same paths.
//! A read value that only equals the declared number by chance is listed
//! in `COINCIDENCES`, with why.
//!
//! **Another resource name, stack name, account and region.** A default
//! that spells the recorded name, account, region or stack instead of
//! `${PhysicalId}`, `${AccountId}`, `${Region}` or a stack-minted name is
//! fitted. The whole case is rewritten with another resource name (in any
//! case, as services lower-case names), stack name (also lower-cased),
//! account id and region, and must report the same tiers at the same
//! (rewritten) paths.

mod corpus_support;

use corpus_support::case_paths;
use corpus_support::corpus_cases;
use realdrift_core::classify::Knowledge;
use realdrift_core::corpus::{replay_case_with, CorpusCase};
use realdrift_core::Finding;
use serde_json::Value;
use std::collections::BTreeSet;

/// (logical id, varied number, why a read value equal to it is not derived
/// from it and so must not follow it).
const COINCIDENCES: &[(&str, i64, &str)] = &[
    (
        "HuntOsDedMaster",
        2,
        "the zone-awareness AvailabilityZoneCount default (2) equals the declared InstanceCount; \
         AWS allows only 2 or 3 zones",
    ),
    (
        "HuntOsMultiAz",
        2,
        "the zone-awareness AvailabilityZoneCount default (2) equals the declared InstanceCount; \
         AWS allows only 2 or 3 zones",
    ),
    (
        "HuntServerlessEpc",
        5,
        "the 5 GB VolumeSizeInGB default equals the declared MaxConcurrency",
    ),
];

/// A whole number of at least 2, written as a number or as its string.
fn whole(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse::<i64>().ok().filter(|i| i.to_string() == *s),
        _ => None,
    }
    .filter(|i| *i >= 2)
}

/// The JSON pointers of the whole numbers under `v`.
fn numbers(v: &Value, at: String, out: &mut Vec<(String, i64)>) {
    match v {
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            numbers(
                x,
                format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                out,
            )
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| numbers(x, format!("{at}/{i}"), out)),
        other => out.extend(whole(other).map(|n| (at, n))),
    }
}

/// Replaces every `old` under `v` by `new`, in the spelling it had.
fn vary(v: &mut Value, old: i64, new: i64) -> usize {
    match v {
        Value::Object(o) => o.values_mut().map(|x| vary(x, old, new)).sum(),
        Value::Array(a) => a.iter_mut().map(|x| vary(x, old, new)).sum(),
        Value::Number(n) if n.as_i64() == Some(old) => {
            *v = Value::from(new);
            1
        }
        Value::String(s) if *s == old.to_string() => {
            *s = new.to_string();
            1
        }
        _ => 0,
    }
}

/// The declared numbers of a case the read echoes unchanged or does not
/// return, each once (a read that spells it otherwise, such as `5.0` or an
/// hour-floored expiry, would need the same spelling varied).
fn echoed_numbers(case: &CorpusCase) -> BTreeSet<i64> {
    let declared = Value::Object(case.resource.declared.clone());
    let mut found = Vec::new();
    numbers(&declared, String::new(), &mut found);
    found
        .into_iter()
        .filter(|(at, n)| {
            case.live_raw
                .pointer(at)
                .is_none_or(|v| whole(v) == Some(*n))
        })
        .map(|(_, n)| n)
        .collect()
}

/// The tiers and paths a replay reports.
fn reported(findings: Vec<Finding>) -> BTreeSet<String> {
    findings
        .iter()
        .map(|f| format!("{:?}:{}", f.tier, f.path))
        .collect()
}

/// Varies every case's echoed declared numbers; returns how many numbers
/// were varied and what changed.
fn vary_corpus(knowledge: Knowledge) -> (usize, Vec<String>) {
    let (mut varied, mut changed) = (0, Vec::new());
    for case in corpus_cases() {
        let before = reported(replay_case_with(&case, knowledge));
        for old in echoed_numbers(&case) {
            let id = case.resource.logical_id.as_str();
            if COINCIDENCES.iter().any(|(c, n, _)| *c == id && *n == old) {
                continue;
            }
            let new = old * 3 + 1;
            let mut m = case.clone();
            let mut declared = Value::Object(std::mem::take(&mut m.resource.declared));
            vary(&mut declared, old, new);
            if let Value::Object(o) = declared {
                m.resource.declared = o;
            }
            vary(&mut m.live_raw, old, new);
            varied += 1;
            let after = reported(replay_case_with(&m, knowledge));
            if before != after {
                let gone: Vec<_> = before.difference(&after).collect();
                let came: Vec<_> = after.difference(&before).collect();
                changed.push(format!(
                    "{} {id}: {old} -> {new}: lost {gone:?}, gained {came:?}",
                    case.resource.resource_type
                ));
            }
        }
    }
    (varied, changed)
}

#[test]
fn declared_numbers_varied_report_the_same() {
    let (varied, changed) = vary_corpus(Knowledge::All);
    assert!(varied > 300, "only {varied} declared numbers varied");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn declared_numbers_varied_report_the_same_on_general_knowledge() {
    let (varied, changed) = vary_corpus(Knowledge::WithoutObserved);
    assert!(varied > 300, "only {varied} declared numbers varied");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn every_listed_coincidence_is_still_in_the_corpus() {
    let cases = corpus_cases();
    for (id, n, why) in COINCIDENCES {
        assert!(
            cases
                .iter()
                .any(|c| c.resource.logical_id == *id && echoed_numbers(c).contains(n)),
            "{id} no longer declares {n} ({why}): drop it from COINCIDENCES"
        );
    }
}

/// A deploy's names and where it ran, as a case records them.
struct Deploy {
    name: Option<String>,
    stack: Option<String>,
    account: String,
    region: String,
    /// Where the other deploy runs: its region and its partition.
    to: Place,
}

/// A region and the partition its ARNs are in.
#[derive(Clone, Copy)]
struct Place {
    region: &'static str,
    partition: &'static str,
}

/// Another commercial region.
const PARIS: Place = Place {
    region: "eu-west-3",
    partition: "aws",
};

/// A region of another partition: ARNs read `arn:aws-us-gov:`.
const GOVCLOUD: Place = Place {
    region: "us-gov-west-1",
    partition: "aws-us-gov",
};

impl Deploy {
    fn of(case: &CorpusCase, to: Place) -> Self {
        let opt = |k: &str| {
            case.opts
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        Deploy {
            // The resource's own name ends its physical id (an ARN, a path
            // or a composite id); short ones are left alone like the stack.
            name: case
                .resource
                .physical_id
                .as_deref()
                .and_then(|p| p.rsplit(['/', ':', '|']).next())
                .filter(|s| s.len() >= 8 && s.is_ascii())
                .map(str::to_string),
            // The construct path starts with the stack's name; a short one
            // could be part of unrelated text, so it is left as it is.
            stack: case
                .resource
                .construct_path
                .as_deref()
                .and_then(|p| p.split('/').next())
                .filter(|s| s.len() >= 8)
                .map(str::to_string),
            account: opt("accountId"),
            region: opt("region"),
            to,
        }
    }

    /// `text` as the other deploy would spell it.
    fn moved(&self, text: &str) -> String {
        let mut out = match &self.name {
            // In any case: a service may lower-case the name it was given.
            Some(name) => replace_ignoring_case(text, name, "zqothername"),
            None => text.to_string(),
        };
        if let Some(stack) = &self.stack {
            out = out
                .replace(stack, "OtherDeployStack")
                .replace(&stack.to_lowercase(), "otherdeploystack");
        }
        if self.account.len() == 12 {
            out = out.replace(&self.account, "222233334444");
        }
        if !self.region.is_empty() {
            out = out.replace(&self.region, self.to.region);
        }
        if self.to.partition != "aws" {
            out = out.replace("arn:aws:", &format!("arn:{}:", self.to.partition));
        }
        out
    }
}

/// `text` with every ASCII-case-insensitive occurrence of `from` replaced.
fn replace_ignoring_case(text: &str, from: &str, to: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let from = from.to_ascii_lowercase();
    let (mut out, mut last) = (String::with_capacity(text.len()), 0);
    for (at, _) in lower.match_indices(&from) {
        out.push_str(&text[last..at]);
        out.push_str(to);
        last = at + from.len();
    }
    out.push_str(&text[last..]);
    out
}

/// Replays every case as another deploy; returns the cases rewritten and
/// what changed.
fn move_corpus(knowledge: Knowledge, to: Place) -> (usize, Vec<String>) {
    let (mut moved, mut changed) = (0, Vec::new());
    for path in case_paths() {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let case: CorpusCase =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let deploy = Deploy::of(&case, to);
        let other: CorpusCase = serde_json::from_str(&deploy.moved(&text))
            .unwrap_or_else(|e| panic!("{} moved: {e}", path.display()));
        moved += 1;
        let before: BTreeSet<String> = reported(replay_case_with(&case, knowledge))
            .iter()
            .map(|f| deploy.moved(f))
            .collect();
        let after = reported(replay_case_with(&other, knowledge));
        if before != after {
            let gone: Vec<_> = before.difference(&after).collect();
            let came: Vec<_> = after.difference(&before).collect();
            changed.push(format!(
                "{}: lost {gone:?}, gained {came:?}",
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    (moved, changed)
}

#[test]
fn another_name_stack_account_and_region_report_the_same() {
    let (moved, changed) = move_corpus(Knowledge::All, PARIS);
    assert!(moved > 800, "only {moved} cases");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn another_name_stack_account_and_region_report_the_same_on_general_knowledge() {
    let (moved, changed) = move_corpus(Knowledge::WithoutObserved, PARIS);
    assert!(moved > 800, "only {moved} cases");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

#[test]
fn another_partition_reports_the_same() {
    // A default that spells `arn:aws:` holds in the commercial partition
    // only; `${Partition}` holds in GovCloud and China too.
    for knowledge in [Knowledge::All, Knowledge::WithoutObserved] {
        let (moved, changed) = move_corpus(knowledge, GOVCLOUD);
        assert!(moved > 800, "only {moved} cases");
        assert!(changed.is_empty(), "{}", changed.join("\n"));
    }
}
