//! Fuzz targets: one entry point per parser of untrusted input, shared by
//! the cargo-fuzz targets in `fuzz/` (the million-input runs) and the
//! seconds-long smoke in `core/tests/fuzz_smoke.rs`.
//!
//! Each takes arbitrary bytes and must return without panicking, hanging or
//! allocating without bound. Each also drives what consumes the parsed
//! value (resolution, classify, baseline apply and record, ignore matching),
//! since hostile structure reaches those too, and checks the round trips
//! that must hold (a written baseline or ignore file reads back the same).

use crate::baseline::{
    apply_baseline, record, BaselineFile, RecordInput, RunContext, Selection, StackIdentity,
};
use crate::classify::{classify, ClassifyContext, ResourceInput, SiblingPolicyNames};
use crate::finding::{Finding, Tier};
use crate::ignore::{
    add_ignore_rules, apply_ignores, parse_rules, IgnoreConfig, IgnoreRule, IgnoreScope,
};
use crate::schema::{BundledSchemas, SchemaSource};
use crate::template::{resolve_resource, ResolverContext, Template};
use serde_json::Value;
use std::sync::OnceLock;

/// Resources resolved per fuzzed template (resolution is per resource; more
/// adds time, not coverage).
const MAX_RESOURCES: usize = 64;

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

fn resolve_all(t: &Template) {
    let ctx = ResolverContext::new("123456789012", "us-east-1", "Fuzz");
    for id in t.resources.keys().take(MAX_RESOURCES) {
        let _ = resolve_resource(t, id, &ctx);
    }
}

/// A template body read as JSON (a body starting with `{`), then resolved.
pub fn template_json(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let body = if s.trim_start().starts_with('{') {
        s.to_string()
    } else {
        format!("{{{s}")
    };
    if let Ok(t) = Template::parse(&body) {
        resolve_all(&t);
    }
}

/// A template body read as YAML (short-form tags included), then resolved.
pub fn template_yaml(data: &[u8]) {
    let Some(s) = text(data) else { return };
    // A leading comment keeps the body off the JSON path.
    let body = format!("#\n{s}");
    if let Ok(t) = Template::parse(&body) {
        resolve_all(&t);
    }
}

/// The declared side the Cloud Control target classifies against: the
/// resources of the fixture app, resolved once.
fn fixture_resources() -> &'static [(ResourceInput, String)] {
    static CELL: OnceLock<Vec<(ResourceInput, String)>> = OnceLock::new();
    CELL.get_or_init(|| {
        let body = include_str!("../../tests/fixtures/app/RealdriftFixture.template.json");
        let Ok(t) = Template::parse(body) else {
            return Vec::new();
        };
        let ctx = ResolverContext::new("123456789012", "us-east-1", "Fuzz");
        t.resources
            .keys()
            .filter_map(|id| {
                let r = resolve_resource(&t, id, &ctx).ok()?;
                let input = ResourceInput {
                    logical_id: id.clone(),
                    resource_type: r.resource_type.clone(),
                    physical_id: Some(format!("{id}-physical")),
                    construct_path: r.construct_path.clone(),
                    declared: r.properties,
                    sibling_policy_names: SiblingPolicyNames::None,
                };
                Some((input, r.resource_type))
            })
            .collect()
    })
}

/// A Cloud Control model (`ResourceDescription.Properties`, JSON text) of
/// one of the fixture's resources (picked by the first byte), classified
/// against its declared properties and bundled schema.
pub fn cloudcontrol_model(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(s) = text(rest) else { return };
    let Ok(live) = serde_json::from_str::<Value>(s) else {
        return;
    };
    let resources = fixture_resources();
    let Some((input, type_name)) = resources.get(usize::from(pick) % resources.len().max(1)) else {
        return;
    };
    let Ok(Some(schema)) = BundledSchemas::shared().and_then(|b| b.facts(type_name)) else {
        return;
    };
    let ctx = ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("us-east-1".into()),
        stack_name: Some("Fuzz".into()),
        ..ClassifyContext::default()
    };
    let _ = classify(input, &live, &schema, &ctx);
}

/// A baseline file: parsed, applied to a run of its own identity, recorded
/// over, and written back (which must read back equal).
pub fn baseline_file(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(b) = BaselineFile::parse("fuzz.json", s) else {
        return;
    };
    let ctx = RunContext {
        identity: StackIdentity::new(
            &b.stack_name,
            b.account_id.as_deref().unwrap_or_default(),
            &b.region,
        ),
        ..RunContext::default()
    };
    let findings: Vec<Finding> = b
        .recorded
        .iter()
        .take(MAX_RESOURCES)
        .map(|e| {
            let mut f = Finding::new(Tier::Undeclared, &e.logical_id, &e.resource_type, &e.path);
            f.actual = Some(e.value.clone());
            f.unrecorded = true;
            f
        })
        .collect();
    let _ = apply_baseline(findings.clone(), Some(&b), &ctx);
    let _ = record(RecordInput {
        classified: &findings,
        existing: Some(&b),
        ctx: &ctx,
        selection: &Selection::All,
        captured_at: "2026-01-01T00:00:00Z",
    });
    let written = b.to_text();
    match BaselineFile::parse("fuzz.json", &written) {
        Ok(mut back) => {
            let mut canonical = b;
            canonical.normalize_order();
            back.normalize_order();
            assert!(
                back == canonical,
                "a written baseline reads back differently"
            );
        }
        Err(e) => panic!("a written baseline does not parse: {e}"),
    }
}

/// A CloudTrail event as EventBridge delivers it to on-change: parsed, then
/// screened against the bundled catalog (mapping the call to the resources
/// it touched).
pub fn cloudtrail_event(data: &[u8]) {
    let Ok(event) = crate::events::parse_event(data) else {
        return;
    };
    let Ok(catalog) = crate::events::Catalog::bundled() else {
        return;
    };
    let screener = crate::events::Screener::new(catalog, crate::events::FilterConfig::new());
    let _ = screener.assess(&event);
}

/// An ignore file: parsed, matched against findings, and appended to
/// (what is appended must read back as the old rules plus the new one).
pub fn ignore_file(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(rules) = parse_rules("ignore.yaml", s) else {
        return;
    };
    if let Ok(config) = IgnoreConfig::from_rules(rules) {
        let findings = vec![
            Finding::new(
                Tier::Undeclared,
                "Bucket",
                "AWS::S3::Bucket",
                "Tags[team].Value",
            ),
            Finding::new(
                Tier::Declared,
                "Fn",
                "AWS::Lambda::Function",
                "Environment.Variables.X",
            ),
            Finding::new(Tier::Added, "Sub", "AWS::SNS::Subscription", ""),
        ];
        let scope = IgnoreScope::new("Prod-App", "123456789012", "us-east-1");
        let _ = apply_ignores(findings, &scope, &config);
    }
    let _ = add_ignore_rules(
        "ignore.yaml",
        Some(s),
        &[IgnoreRule::new("Bucket.Tags[a\u{202e}]")],
    );
}
