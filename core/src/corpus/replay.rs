//! Replaying corpus cases through classify.

use super::case::{CorpusCase, CorpusError};
use super::compare::{compare_findings, Agreement};
use crate::classify::{
    classify_in, AwsFacts, ClassifyContext, Knowledge, ResourceInput, SiblingPolicyNames,
};
use crate::declared::DeclaredValue;
use crate::finding::Finding;
use crate::normalize::aws_facts::facts_for;
use crate::schema::{SchemaFacts, SchemaSource};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The result of replaying one case file.
#[derive(Debug)]
pub struct CaseOutcome {
    /// The case file name (no directory).
    pub name: String,
    /// The findings produced, or the error that stopped the case.
    pub result: Result<(Vec<Finding>, Agreement), CorpusError>,
}

/// Builds the classify input for a case's resource.
pub fn resource_from_case(case: &CorpusCase) -> ResourceInput {
    let r = &case.resource;
    let sibling = match &r.sibling_policy_names {
        None => SiblingPolicyNames::None,
        Some(Value::Array(names)) => {
            let known: Option<Vec<String>> = names
                .iter()
                .map(|n| n.as_str().map(str::to_string))
                .collect();
            known.map_or(SiblingPolicyNames::Unresolved, SiblingPolicyNames::Known)
        }
        Some(_) => SiblingPolicyNames::Unresolved,
    };
    ResourceInput {
        logical_id: r.logical_id.clone(),
        resource_type: r.resource_type.clone(),
        physical_id: r.physical_id.clone(),
        construct_path: r.construct_path.clone(),
        declared: r
            .declared
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
            .collect(),
        sibling_policy_names: sibling,
    }
}

fn string_map(v: Option<&Value>) -> Option<BTreeMap<String, String>> {
    let obj = v?.as_object()?;
    Some(
        obj.iter()
            .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
            .collect(),
    )
}

/// Builds the classify context from a case's `opts` (and construct path).
pub fn context_from_opts(
    opts: &Map<String, Value>,
    construct_path: Option<&str>,
) -> ClassifyContext {
    let mut sibling_facts = opts.clone();
    for k in ["accountId", "region", "kmsAliasTargets", "stackTags"] {
        sibling_facts.remove(k);
    }
    ClassifyContext {
        account_id: opts
            .get("accountId")
            .and_then(Value::as_str)
            .map(str::to_string),
        region: opts
            .get("region")
            .and_then(Value::as_str)
            .map(str::to_string),
        // The first construct-path segment is the stack name.
        stack_name: construct_path
            .and_then(|p| p.split('/').next())
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        // An empty recorded map is a listing the recorder did not take (the
        // cases that took one list the account's managed aliases).
        kms_alias_targets: string_map(opts.get("kmsAliasTargets")).filter(|m| !m.is_empty()),
        stack_tags: string_map(opts.get("stackTags")).unwrap_or_default(),
        sibling_facts,
    }
}

/// Replays one case through classify with every fact.
pub fn replay_case(case: &CorpusCase) -> Vec<Finding> {
    replay_case_with(case, Knowledge::All)
}

/// Replays one case through classify using the facts `knowledge` admits.
pub fn replay_case_with(case: &CorpusCase, knowledge: Knowledge) -> Vec<Finding> {
    replay_case_in(case, facts_for(knowledge))
}

/// Replays one case through classify against an explicit fact registry.
pub fn replay_case_in(case: &CorpusCase, facts: &AwsFacts) -> Vec<Finding> {
    let resource = resource_from_case(case);
    let ctx = context_from_opts(&case.opts, case.resource.construct_path.as_deref());
    if recorded_without_schema(&case.schema) {
        if let Some(bundled) = bundled_facts(&resource.resource_type) {
            return classify_in(&resource, &case.live_raw, &bundled, &ctx, facts);
        }
    }
    // A case records no property types, no transforms and no tag property:
    // the bundled registry schema's are what realdrift itself would use to
    // type the template's strings, read the service's rewrites and find the
    // tags.
    if let Some(bundled) = bundled_facts(&resource.resource_type) {
        let mut schema = case.schema.clone();
        if schema.typed_scalar_paths.is_empty() {
            schema.typed_scalar_paths = bundled.typed_scalar_paths.clone();
        }
        if schema.property_transforms.is_empty() {
            schema.property_transforms = bundled.property_transforms.clone();
        }
        if schema.tag_property.is_none() {
            schema.tag_property = bundled.tag_property.clone();
        }
        return classify_in(&resource, &case.live_raw, &schema, &ctx, facts);
    }
    classify_in(&resource, &case.live_raw, &case.schema, &ctx, facts)
}

/// True when a case was recorded with no registry-schema fact at all (the
/// recorder could not describe the type).
fn recorded_without_schema(s: &SchemaFacts) -> bool {
    *s == SchemaFacts::default()
}

/// The bundled registry schema's facts for a type: what realdrift itself
/// falls back to when the account cannot describe a type, so a case
/// recorded without schema facts replays as realdrift would run it.
fn bundled_facts(type_name: &str) -> Option<std::sync::Arc<SchemaFacts>> {
    crate::schema::BundledSchemas::shared()
        .ok()?
        .facts(type_name)
        .ok()
        .flatten()
}

/// Replays every `*.json` case in `dir`, sorted by file name.
///
/// Fails only when the directory itself cannot be listed; a bad case file
/// becomes an error outcome and the other cases go on.
pub fn replay_dir(dir: &Path) -> Result<Vec<CaseOutcome>, CorpusError> {
    replay_dir_with(dir, Knowledge::All)
}

/// The `*.json` case files in `dir`, sorted by file name.
pub fn case_files(dir: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let io = |source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// [`replay_dir`] using the facts `knowledge` admits.
pub fn replay_dir_with(dir: &Path, knowledge: Knowledge) -> Result<Vec<CaseOutcome>, CorpusError> {
    Ok(case_files(dir)?
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let result = CorpusCase::load(&path).map(|case| {
                let produced = replay_case_with(&case, knowledge);
                let agreement = compare_findings(&case.expected, &produced);
                (produced, agreement)
            });
            CaseOutcome { name, result }
        })
        .collect())
}
