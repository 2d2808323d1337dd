//! `check --record-corpus DIR`: each read resource's classify inputs and
//! findings, written as a corpus case that `realdrift corpus replay` replays.
//!
//! A user attaches the file to a bug report about a false positive; the case
//! then reproduces the finding without access to their account. So a case
//! holds no secret: live values at the positions of NoEcho parameters and
//! `{{resolve:...}}` references are masked as `check` masks them, and so are
//! the expected findings; unsafe characters are written as `\uXXXX`.

use anyhow::Context;
use realdrift_core::baseline::ReadState;
use realdrift_core::baseline::{segments, Segment};
use realdrift_core::classify::{ClassifyContext, SiblingPolicyNames};
use realdrift_core::corpus::{CorpusCase, CorpusResource};
use realdrift_core::finding::{Finding, Tier};
use realdrift_core::pipeline::{secret_positions, GatheredStack, ResourceRecord};
use realdrift_core::report::{escape_json_text, mask_findings, MASK};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The corpus case of one read resource; `None` when it was not classified
/// (not read, or no schema).
pub fn case_for(report: &GatheredStack, r: &ResourceRecord) -> Option<CorpusCase> {
    let (ReadState::Read, Some(live), Some(schema)) = (r.read, &r.live, &r.schema) else {
        return None;
    };
    let expected: Vec<Finding> = report
        .findings
        .iter()
        .filter(|f| f.logical_id == r.logical_id)
        // On a read resource, a whole-resource skip is the pipeline's own
        // (a failed child listing), not classify output.
        .filter(|f| !(f.tier == Tier::Skipped && f.path.is_empty()))
        .cloned()
        .collect();
    let expected = mask_findings(&expected, &secret_positions(report));
    let mut live = live.clone();
    for path in &r.secret_paths {
        mask_live(&mut live, path);
    }
    Some(CorpusCase {
        corpus_version: 1,
        description: Some(format!(
            "recorded by realdrift check --record-corpus from stack {} ({})",
            report.stack, r.resource_type
        )),
        resource: CorpusResource {
            logical_id: r.logical_id.clone(),
            resource_type: r.resource_type.clone(),
            physical_id: r.physical_id.clone(),
            construct_path: r.construct_path.clone(),
            declared: masked_declared(r),
            sibling_policy_names: sibling_json(&r.sibling_policy_names),
        },
        live_raw: live,
        schema: (**schema).clone(),
        opts: opts_of(&report.context),
        expected,
    })
}

/// The declared properties in corpus form, secret positions masked (a
/// NoEcho value reads back as `****` from AWS, but an emulator or a
/// parameter default may hold the value itself).
fn masked_declared(r: &ResourceRecord) -> Map<String, Value> {
    let mut declared = Value::Object(
        r.declared
            .iter()
            .map(|(k, v)| (k.clone(), v.to_corpus_json()))
            .collect(),
    );
    for path in &r.secret_paths {
        mask_live(&mut declared, path);
    }
    match declared {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Masks the live value at a declared secret position. Object keys are
/// followed exactly; at the first list (whose live order need not be the
/// template's) or where the shape differs, everything below is masked:
/// over-masking beats writing a secret to disk.
fn mask_live(live: &mut Value, path: &str) {
    let mut cur = live;
    for seg in segments(path) {
        let Segment::Key(k) = seg else { break };
        let Value::Object(m) = cur else { break };
        match m.get_mut(k) {
            Some(next) => cur = next,
            None => return,
        }
    }
    *cur = Value::String(MASK.into());
}

/// The corpus form of sibling policy names.
fn sibling_json(s: &SiblingPolicyNames) -> Option<Value> {
    match s {
        SiblingPolicyNames::None => None,
        SiblingPolicyNames::Known(names) => Some(json!(names)),
        SiblingPolicyNames::Unresolved => Some(json!("unresolved")),
    }
}

/// The corpus `opts` of a classify context (the inverse of corpus replay's reading).
fn opts_of(ctx: &ClassifyContext) -> Map<String, Value> {
    let mut opts = ctx.sibling_facts.clone();
    if let Some(a) = &ctx.account_id {
        opts.insert("accountId".into(), json!(a));
    }
    if let Some(r) = &ctx.region {
        opts.insert("region".into(), json!(r));
    }
    if let Some(k) = &ctx.kms_alias_targets {
        opts.insert("kmsAliasTargets".into(), json!(k));
    }
    if !ctx.stack_tags.is_empty() {
        opts.insert("stackTags".into(), json!(ctx.stack_tags));
    }
    opts
}

/// A file name safe on any file system: `<stack>.<logicalId>.json`.
pub fn file_name(stack: &str, logical_id: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!("{}.{}.json", clean(stack), clean(logical_id))
}

/// Writes one case per classified resource of the stack into `dir`; returns the files.
pub fn write_stack(dir: &Path, report: &GatheredStack) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut written = Vec::new();
    for r in &report.resources {
        let Some(case) = case_for(report, r) else {
            continue;
        };
        let path = dir.join(file_name(&report.stack, &r.logical_id));
        let text = serde_json::to_string_pretty(&case)
            .with_context(|| format!("encoding the case of {}", r.logical_id))?;
        // Raw controls and bidi characters could mislead a reader of the file.
        let mut text = escape_json_text(&text);
        text.push('\n');
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(
            file_name("App", "Bucket83908E77"),
            "App.Bucket83908E77.json"
        );
        assert_eq!(file_name("../x", "a/b c"), "___x.a_b_c.json");
    }

    #[test]
    fn secret_positions_are_masked_in_the_live_model() {
        let mut live = json!({
            "MasterUserPassword": "hunter2",
            "Environment": {"Variables": {"PW": "s3cr3t", "MODE": "a"}},
            "Tags": [{"Key": "k", "Value": "tagsecret"}],
        });
        for p in [
            "MasterUserPassword",
            "Environment.Variables.PW",
            "Tags.0.Value",
            "Absent.X",
        ] {
            mask_live(&mut live, p);
        }
        assert_eq!(
            live,
            json!({
                "MasterUserPassword": "***",
                "Environment": {"Variables": {"PW": "***", "MODE": "a"}},
                "Tags": "***",
            })
        );
    }

    #[test]
    fn sibling_names_use_the_corpus_encoding() {
        assert_eq!(sibling_json(&SiblingPolicyNames::None), None);
        assert_eq!(
            sibling_json(&SiblingPolicyNames::Known(vec!["P".into()])),
            Some(json!(["P"]))
        );
        assert_eq!(
            sibling_json(&SiblingPolicyNames::Unresolved),
            Some(json!("unresolved"))
        );
    }

    #[test]
    fn opts_round_trip_through_corpus_replay() {
        let mut ctx = ClassifyContext {
            account_id: Some("123456789012".into()),
            region: Some("us-east-1".into()),
            stack_name: Some("App".into()),
            ..ClassifyContext::default()
        };
        ctx.stack_tags.insert("team".into(), "x".into());
        ctx.sibling_facts
            .insert("clusterEchoModel".into(), json!({"a": 1}));
        let back =
            realdrift_core::corpus::context_from_opts(&opts_of(&ctx), Some("App/Bucket/Resource"));
        assert_eq!(back, ctx);
    }
}
