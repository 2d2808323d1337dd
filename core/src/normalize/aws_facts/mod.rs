//! Facts about AWS behaviour, loaded once from the JSON data files under
//! `core/data/` (bundled with `include_str!`). Every entry carries a reason.
//! Code holds mechanisms; these files hold the per-type facts they consume.

use std::collections::BTreeSet;
use std::sync::OnceLock;

mod entries;
mod files;
mod index;
mod load;

pub use entries::*;
use files::*;
pub use index::*;
use load::load_admitting;

/// Errors reading the bundled data files.
#[derive(Debug, thiserror::Error)]
pub enum FactsError {
    /// A data file is not valid.
    #[error("core/data/{file}: {source}")]
    Parse {
        /// The file name.
        file: &'static str,
        /// The JSON error.
        source: serde_json::Error,
    },
}

/// Builds the registry from the bundled files (every fact).
pub fn load() -> Result<AwsFacts, FactsError> {
    load_with(Knowledge::All)
}

/// Builds the registry from the bundled files, keeping the facts
/// `knowledge` admits.
pub fn load_with(knowledge: Knowledge) -> Result<AwsFacts, FactsError> {
    load_admitting(knowledge, &BTreeSet::new())
}

/// The hand-written known defaults of `known-defaults.json`, in file order:
/// a position here is what [`load_excluding`] takes.
pub fn observed_known_defaults() -> Result<Vec<KnownDefaultEntry>, FactsError> {
    let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    Ok(kd.defaults)
}

/// Every fact except the hand-written known defaults at the `excluded`
/// positions of [`observed_known_defaults`] (the corpus hold-out replay).
pub fn load_excluding(excluded: &BTreeSet<usize>) -> Result<AwsFacts, FactsError> {
    load_admitting(Knowledge::All, excluded)
}

/// The registry, loaded on first use. A broken bundled file is a build
/// defect caught by the unit tests; at run time it degrades to no facts
/// (more findings, never fewer) and logs an error.
pub fn facts() -> &'static AwsFacts {
    facts_for(Knowledge::All)
}

/// The registry restricted to what `knowledge` admits, loaded on first use.
pub fn facts_for(knowledge: Knowledge) -> &'static AwsFacts {
    static ALL: OnceLock<AwsFacts> = OnceLock::new();
    static GENERAL: OnceLock<AwsFacts> = OnceLock::new();
    let cell = match knowledge {
        Knowledge::All => &ALL,
        Knowledge::WithoutObserved => &GENERAL,
    };
    cell.get_or_init(|| {
        load_with(knowledge).unwrap_or_else(|e| {
            tracing::error!("{e}");
            AwsFacts::default()
        })
    })
}

/// True when a known default of `resource_type` (its own, cross-type or
/// description-stated) whose pattern covers `path` (as a finding renders
/// it) satisfies `kind`.
fn some_default_at(resource_type: &str, path: &str, kind: impl Fn(&KnownDefault) -> bool) -> bool {
    let f = facts();
    let top = path.split(['.', '[']).next();
    let rendered = super::path::Path::parse_rendered(path);
    f.for_type(resource_type)
        .defaults
        .candidates(top)
        .chain(f.cross_type_defaults.candidates(top))
        .chain(
            f.doc_defaults_for(resource_type)
                .into_iter()
                .flat_map(|d| d.candidates(top)),
        )
        .any(|kd| kind(kd) && kd.pattern.matches(&rendered))
}

/// True when some `chosenAtCreate` fact names `path` (as a finding renders
/// it) of a `resource_type` resource, whatever its condition: a value AWS
/// may choose at create that a user can change. What record and memory keep
/// is decided per finding instead (`Finding::chosen_at_create`), where the
/// resource's own conditions are known.
pub fn is_chosen_at_create(resource_type: &str, path: &str) -> bool {
    some_default_at(resource_type, path, |kd| kd.entry.chosen_at_create)
}

/// True when a known default at `path` (as a finding renders it) of a
/// `resource_type` resource folds any value (`any`: an id AWS assigns, a
/// value it derives or scales), under whatever condition the entry states.
pub fn is_value_independent(resource_type: &str, path: &str) -> bool {
    some_default_at(resource_type, path, |kd| kd.entry.any)
}

/// Every `(file, entry description, reason)` triple, for the data audit test.
pub fn all_reasons() -> Result<Vec<(String, String)>, FactsError> {
    let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    let tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES)?;
    let mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS)?;
    let mut out = Vec::new();
    for e in kd.defaults {
        out.push((
            format!("known default {} {}", e.type_name, e.path),
            e.reason,
        ));
    }
    for (name, rules) in [
        ("unorderedArrays", tr.unordered_arrays),
        ("orderedArrays", tr.ordered_arrays),
        ("caseInsensitive", tr.case_insensitive),
        ("latestSentinel", tr.latest_sentinel),
        ("versionPrefix", tr.version_prefix),
        ("readGapCollections", tr.readgap_collections),
        ("returnedWhenSet", tr.returned_when_set),
        ("descendUndeclared", tr.descend_undeclared),
        ("ownedElsewhere", tr.owned_elsewhere),
    ] {
        for r in rules {
            out.push((format!("{name} {} {}", r.type_name, r.path), r.reason));
        }
    }
    for r in tr.generated_paths {
        out.push((
            format!("generatedPaths {} {}", r.type_name, r.path),
            r.reason,
        ));
    }
    for r in tr.identity_keys {
        out.push((format!("identityKeys {} {}", r.type_name, r.path), r.reason));
    }
    for r in tr.keyed_sets {
        out.push((format!("keyedSets {} {}", r.type_name, r.path), r.reason));
    }
    for r in tr.alt_representations {
        out.push((
            format!("altRepresentations {} {}", r.type_name, r.declared),
            r.reason,
        ));
    }
    for r in tr.echoes {
        out.push((format!("echoes {} {}", r.type_name, r.live), r.reason));
    }
    for r in tr.key_aliases {
        out.push((
            format!("keyAliases {} {}", r.type_name, r.declared),
            r.reason,
        ));
    }
    for n in mf.names {
        out.push((format!("managed field {}", n.name), n.reason));
    }
    let present: PresentFile = parse("present-on-create.json", PRESENT_ON_CREATE)?;
    for e in present.present {
        let what = format!(
            "present on create {} {} ({})",
            e.type_name, e.path, e.source
        );
        out.push((what, e.reason));
    }
    let rewrites: RewritesFile = parse("aws-rewrites.json", AWS_REWRITES)?;
    for e in rewrites.rewrites {
        let what = format!("rewritten {} {} ({})", e.type_name, e.path, e.source);
        out.push((what, e.reason));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn data_files_parse_and_every_entry_has_a_reason() {
        let all = all_reasons().expect("bundled data files parse");
        assert!(!all.is_empty());
        for (what, reason) in all {
            assert!(!reason.trim().is_empty(), "{what} has no reason");
        }
        assert!(load().is_ok());
    }

    /// Every entry of every data file says where it comes from; hand-written
    /// files hold only `observed` facts (schema / docs / api-model facts are
    /// the generator's output, never hand-labelled), and an observed default
    /// says what was observed rather than a generic phrase.
    #[test]
    fn every_entry_has_a_source() {
        let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS).expect("parses");
        let tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES).expect("parses");
        let mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS).expect("parses");
        let mut missing = Vec::new();
        fn hand(missing: &mut Vec<String>, what: String, s: Option<Source>) {
            match s {
                Some(Source::Observed) => {}
                Some(other) => missing.push(format!("{what}: hand-labelled {}", other.as_str())),
                None => missing.push(format!("{what}: no source")),
            }
        }
        for e in &kd.defaults {
            hand(
                &mut missing,
                format!("known-defaults {} {}", e.type_name, e.path),
                e.source,
            );
            if e.reason.trim() == "AWS default observed on a fresh deploy"
                || e.reason.trim()
                    == "AWS default for this configuration, observed on fresh deploys"
            {
                missing.push(format!(
                    "known-defaults {} {}: says not what was observed",
                    e.type_name, e.path
                ));
            }
        }
        let mut rules: Vec<(String, Option<Source>)> = Vec::new();
        for list in [
            &tr.unordered_arrays,
            &tr.ordered_arrays,
            &tr.case_insensitive,
            &tr.latest_sentinel,
            &tr.version_prefix,
            &tr.readgap_collections,
            &tr.returned_when_set,
            &tr.descend_undeclared,
            &tr.owned_elsewhere,
        ] {
            rules.extend(
                list.iter()
                    .map(|r| (format!("{} {}", r.type_name, r.path), r.source)),
            );
        }
        rules.extend(
            tr.generated_paths
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(tr.identity_keys.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(tr.keyed_sets.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(
            tr.alt_representations
                .iter()
                .map(|r| (r.live.clone(), r.source)),
        );
        rules.extend(tr.echoes.iter().map(|r| (r.live.clone(), r.source)));
        rules.extend(tr.key_aliases.iter().map(|r| (r.live.clone(), r.source)));
        rules.extend(tr.equivalences.iter().map(|r| (r.path.clone(), r.source)));
        rules.extend(
            tr.service_attached
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(
            tr.meaningful_when_off
                .iter()
                .map(|r| (r.path.clone(), r.source)),
        );
        rules.extend(mf.names.iter().map(|n| (n.name.clone(), n.source)));
        for (what, s) in rules {
            hand(&mut missing, format!("type-rules/managed-fields {what}"), s);
        }
        let gd: GeneratedDefaultsFile =
            parse("generated/defaults.json", GENERATED_DEFAULTS).expect("parses");
        let gr: TypeRulesFile =
            parse("generated/type-rules.json", GENERATED_RULES).expect("parses");
        for e in &gd.defaults {
            if e.source == Source::Observed || e.quote.trim().is_empty() {
                missing.push(format!(
                    "generated {} {}: no mined evidence",
                    e.type_name, e.path
                ));
            }
        }
        let mined = |s: Option<Source>| {
            matches!(
                s,
                Some(Source::Schema | Source::Docs | Source::ApiModel | Source::Guide)
            )
        };
        let generated_rules = gr
            .unordered_arrays
            .iter()
            .chain(&gr.ordered_arrays)
            .chain(&gr.case_insensitive)
            .chain(&gr.readgap_collections)
            .chain(&gr.latest_sentinel)
            .map(|r| (&r.type_name, &r.path, r.source, &r.reason))
            .chain(
                gr.equivalences
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.keyed_sets
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.key_aliases
                    .iter()
                    .map(|r| (&r.type_name, &r.parent, r.source, &r.reason)),
            )
            .chain(
                gr.service_attached
                    .iter()
                    .map(|r| (&r.type_name, &r.path, r.source, &r.reason)),
            )
            .chain(
                gr.alt_representations
                    .iter()
                    .map(|r| (&r.type_name, &r.declared, r.source, &r.reason)),
            );
        for (t, path, source, reason) in generated_rules {
            if !mined(source) || reason.trim().is_empty() {
                missing.push(format!("generated rule {t} {path}: no mined source"));
            }
        }
        let baseline: Value =
            serde_json::from_str(include_str!("../../../data/baseline-tracking.json"))
                .expect("parses");
        for (list, entries) in baseline.as_object().into_iter().flatten() {
            for e in entries.as_array().into_iter().flatten() {
                if e.get("source").and_then(Value::as_str) != Some("observed") {
                    missing.push(format!("baseline-tracking {list}: {e}"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "entries without a proper source:\n{}",
            missing.join("\n")
        );
    }

    #[test]
    fn without_observed_keeps_only_general_facts() {
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        let all = load().expect("loads");
        let count = |f: &AwsFacts| -> usize {
            f.by_type.values().map(|t| t.defaults.len()).sum::<usize>()
                + f.cross_type_defaults.len()
        };
        assert!(count(&general) > 0 && count(&general) < count(&all));
        for t in general.by_type.values() {
            for (_, list) in t.defaults.by_top.iter() {
                assert!(list
                    .iter()
                    .all(|d| d.entry.source != Some(Source::Observed)));
            }
        }
        assert!(
            general.managed_names.is_empty()
                || general.managed_names.len() < all.managed_names.len()
        );
    }

    /// A hand-written (observed) compare rule the generator states the same
    /// way restates a general fact: it is removed, so the general source
    /// stands alone and `--without-observed` measures it.
    #[test]
    fn no_observed_rule_restates_a_generated_one() {
        let rule = |e: &Value| -> Value {
            let mut e = e.clone();
            if let Some(o) = e.as_object_mut() {
                for k in ["source", "reason", "quote"] {
                    o.remove(k);
                }
            }
            e
        };
        let hand: Value = serde_json::from_str(TYPE_RULES).expect("parses");
        let generated: Value = serde_json::from_str(GENERATED_RULES).expect("parses");
        let (Some(hand), Some(generated)) = (hand.as_object(), generated.as_object()) else {
            panic!("rule files are objects");
        };
        let mut restated = Vec::new();
        for (section, list) in hand {
            let Some(mined) = generated.get(section).and_then(Value::as_array) else {
                continue;
            };
            let mined: Vec<Value> = mined.iter().map(rule).collect();
            for e in list.as_array().into_iter().flatten() {
                if mined.contains(&rule(e)) {
                    restated.push(format!("{section}: {e}"));
                }
            }
        }
        assert!(restated.is_empty(), "{restated:#?}");
    }

    /// Compare rules the generator mines (not only defaults) are in use
    /// without observed facts: an api-model alias, a docs equivalence, a
    /// docs keyed-set prefix, a schema key-case rule, a documented
    /// attribute-list default.
    #[test]
    fn mined_compare_rules_load_without_observed_facts() {
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        let gd = general.for_type("AWS::GuardDuty::Filter");
        assert!(gd
            .key_aliases
            .iter()
            .any(|(_, a)| a.declared == "Gte" && a.live == "GreaterThanOrEqual"));
        let eq = |t: &str, want: Equivalence| {
            general
                .for_type(t)
                .equivalences
                .iter()
                .any(|(_, e)| *e == want)
        };
        assert!(eq("AWS::AppSync::ApiKey", Equivalence::EpochHourFloor));
        assert!(eq("AWS::ECS::Service", Equivalence::LatestSentinel));
        // Every unit conversion carries its unit and factor.
        let ecs = general.for_type("AWS::ECS::TaskDefinition");
        let units: Vec<_> = ecs
            .unit_scales
            .iter()
            .map(|(_, u)| u.unit.as_str())
            .collect();
        assert_eq!(units, ["vCPU", "GB"]);
        let unit_rules = ecs
            .equivalences
            .iter()
            .filter(|(_, e)| *e == Equivalence::UnitString)
            .count();
        assert_eq!(unit_rules, ecs.unit_scales.len());
        assert!(eq(
            "AWS::DataBrew::Recipe",
            Equivalence::CaseInsensitiveKeys
        ));
        assert!(general
            .for_type("AWS::Cognito::UserPool")
            .keyed
            .iter()
            .any(|(_, k)| k.id_prefix.as_deref() == Some("custom:")));
        let lb = &general
            .for_type("AWS::ElasticLoadBalancingV2::LoadBalancer")
            .defaults;
        assert!(lb.candidates(Some("LoadBalancerAttributes")).any(|d| {
            d.entry.path == "LoadBalancerAttributes[deletion_protection.enabled]"
                && d.entry.values == [Value::from("false")]
        }));
        let role = &general.for_type("AWS::IAM::Role").defaults;
        assert!(role
            .candidates(Some("MaxSessionDuration"))
            .any(|d| d.entry.values == [Value::from(3600)]));
    }

    /// An observed derivation (Cognito's legacy `UnusedAccountValidityDays`
    /// mirrors the password policy) supersedes the documented constant (7)
    /// only while observed facts are on; without them the constant stands.
    #[test]
    fn a_documented_constant_stands_when_the_observed_derivation_is_off() {
        let path = "AdminCreateUserConfig.UnusedAccountValidityDays";
        let at = |f: &AwsFacts| -> Vec<(bool, Vec<Value>)> {
            f.for_type("AWS::Cognito::UserPool")
                .defaults
                .candidates(Some("AdminCreateUserConfig"))
                .filter(|d| d.entry.path == path && d.entry.when.is_none())
                .map(|d| (d.entry.same_as.is_some(), d.entry.values.clone()))
                .collect()
        };
        let all = load().expect("loads");
        assert_eq!(at(&all), vec![(true, vec![])]);
        let general = load_with(Knowledge::WithoutObserved).expect("loads");
        assert_eq!(at(&general), vec![(false, vec![Value::from(7)])]);
    }

    #[test]
    fn known_default_entries_are_gated_or_explicitly_any() {
        let kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS).expect("parses");
        for e in kd.defaults {
            let kinds = [
                e.any,
                e.chosen_at_create,
                // With `chosenAtCreate`, `values` is the form of the choice.
                !e.values.is_empty() && !e.chosen_at_create,
                e.same_as.is_some(),
                e.same_as_fields.is_some(),
                e.stack_minted_key.is_some(),
            ];
            assert!(
                kinds.iter().filter(|k| **k).count() == 1,
                "{} {}: exactly one of `values` / `any` / `chosenAtCreate` / `sameAs` / `sameAsFields` / `stackMintedKey`",
                e.type_name,
                e.path
            );
        }
    }

    /// Every block said to be present on a fresh resource cites the AWS
    /// documentation that says so, and why.
    #[test]
    fn every_present_block_cites_aws_documentation() {
        let f: PresentFile = parse("present-on-create.json", PRESENT_ON_CREATE).expect("parses");
        assert!(!f.present.is_empty());
        for e in &f.present {
            assert_cites_aws(&e.type_name, &e.path, &e.source, &e.reason);
        }
    }

    /// An entry's source is an AWS documentation URL and it gives a reason.
    fn assert_cites_aws(type_name: &str, path: &str, source: &str, reason: &str) {
        assert!(
            source.starts_with("https://docs.aws.amazon.com/"),
            "{type_name} {path}: source is no AWS documentation URL"
        );
        assert!(!reason.trim().is_empty(), "{type_name} {path}: no reason");
    }

    /// Every value said to be rewritten by AWS cites the AWS documentation
    /// that shows it, and why.
    #[test]
    fn every_rewrite_cites_aws_documentation() {
        let f: RewritesFile = parse("aws-rewrites.json", AWS_REWRITES).expect("parses");
        assert!(!f.rewrites.is_empty());
        for e in &f.rewrites {
            assert_cites_aws(&e.type_name, &e.path, &e.source, &e.reason);
        }
    }
}
