//! Loading: merge the generated files into the hand-written ones, admit
//! entries by source, index them by type.

use super::entries::*;
use super::files::*;
use super::index::*;
use super::FactsError;
use crate::normalize::path::Pattern;
use std::collections::{BTreeSet, HashMap};

/// Builds the registry from what `knowledge` admits, leaving out the
/// hand-written known defaults at the `excluded` positions.
pub(super) fn load_admitting(
    knowledge: Knowledge,
    excluded: &BTreeSet<usize>,
) -> Result<AwsFacts, FactsError> {
    let merged = merged_files(knowledge, excluded)?;
    let mut facts = AwsFacts {
        managed_names: merged.managed.into_iter().map(|n| n.name).collect(),
        ..AwsFacts::default()
    };
    facts.cross_type_defaults = index_defaults(&mut facts.by_type, merged.defaults);
    index_type_rules(&mut facts.by_type, merged.rules);
    index_present(&mut facts.by_type)?;
    index_rewrites(&mut facts.by_type)?;
    facts.doc_defaults = doc_defaults()?;
    Ok(facts)
}

/// Indexes the values AWS rewrites on write as equivalences. Documentation
/// facts: kept whatever `knowledge` admits.
fn index_rewrites(by: &mut HashMap<String, TypeFacts>) -> Result<(), FactsError> {
    let file: RewritesFile = parse("aws-rewrites.json", AWS_REWRITES)?;
    for e in file.rewrites {
        type_entry(by, &e.type_name)
            .equivalences
            .push((Pattern::parse(&e.path), e.rule));
    }
    Ok(())
}

/// Indexes the blocks AWS fills on a fresh resource. Documentation facts:
/// kept whatever `knowledge` admits.
fn index_present(by: &mut HashMap<String, TypeFacts>) -> Result<(), FactsError> {
    let file: PresentFile = parse("present-on-create.json", PRESENT_ON_CREATE)?;
    for e in file.present {
        type_entry(by, &e.type_name)
            .present_on_create
            .push((Pattern::parse(&e.path), e.when));
    }
    Ok(())
}

/// The bundled files once the generated facts are merged into the
/// hand-written ones and `knowledge` has filtered them.
pub(super) struct MergedFiles {
    pub(super) defaults: Vec<KnownDefaultEntry>,
    pub(super) rules: TypeRulesFile,
    pub(super) managed: Vec<ManagedName>,
}

/// Parses every bundled file but the doc defaults and merges the generated
/// facts into the hand-written ones, keeping what `knowledge` admits.
pub(super) fn merged_files(
    knowledge: Knowledge,
    excluded: &BTreeSet<usize>,
) -> Result<MergedFiles, FactsError> {
    let mut kd: KnownDefaultsFile = parse("known-defaults.json", KNOWN_DEFAULTS)?;
    kd.defaults = std::mem::take(&mut kd.defaults)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !excluded.contains(i))
        .map(|(_, e)| e)
        .collect();
    let mut tr: TypeRulesFile = parse("type-rules.json", TYPE_RULES)?;
    let mut mf: ManagedFieldsFile = parse("managed-fields.json", MANAGED_FIELDS)?;
    let gd: GeneratedDefaultsFile = parse("generated/defaults.json", GENERATED_DEFAULTS)?;
    let gr: TypeRulesFile = parse("generated/type-rules.json", GENERATED_RULES)?;
    // Hand-written entries first (they carry conditions and derivations the
    // generator cannot state), then the generated ones.
    // Admitted before the merge too: only an admitted derivation supersedes
    // a generated constant (see `extend_generated_defaults`).
    admit(&mut kd.defaults, knowledge, |e| e.source);
    extend_generated_defaults(&mut kd.defaults, gd.defaults);
    tr.extend_generated(gr);
    admit(&mut kd.defaults, knowledge, |e| e.source);
    tr.admit(knowledge);
    admit(&mut mf.names, knowledge, |n| n.source);
    Ok(MergedFiles {
        defaults: kd.defaults,
        rules: tr,
        managed: mf.names,
    })
}

/// Appends the generated defaults to the (already admitted) hand-written
/// ones. A derivation observed for a path (the value mirrors a sibling
/// setting) supersedes a constant the documentation states for it, while it
/// is admitted: with observed facts off, the constant stands.
pub(super) fn extend_generated_defaults(
    defaults: &mut Vec<KnownDefaultEntry>,
    generated: Vec<GeneratedDefault>,
) {
    let derived: std::collections::HashSet<(String, String)> = defaults
        .iter()
        .filter(|e| e.same_as.is_some() || e.same_as_fields.is_some())
        .map(|e| (e.type_name.clone(), e.path.clone()))
        .collect();
    defaults.extend(
        generated
            .into_iter()
            .filter(|g| !derived.contains(&(g.type_name.clone(), g.path.clone())))
            .map(GeneratedDefault::into_entry),
    );
}

/// The facts of type `t`, created empty on first use.
pub(super) fn type_entry<'m>(by: &'m mut HashMap<String, TypeFacts>, t: &str) -> &'m mut TypeFacts {
    by.entry(t.to_string()).or_default()
}

/// Indexes the known defaults into their types' facts and returns the
/// cross-type ones (`"type": "*"`).
pub(super) fn index_defaults(
    by: &mut HashMap<String, TypeFacts>,
    defaults: Vec<KnownDefaultEntry>,
) -> DefaultIndex {
    let mut cross = DefaultIndex::default();
    for mut e in defaults {
        // Stored canonical, so matching never re-canonicalizes data.
        e.values
            .iter_mut()
            .for_each(crate::normalize::canonicalize_in_place);
        let d = KnownDefault {
            pattern: Pattern::parse(&e.path),
            entry: e,
        };
        if d.entry.type_name == CROSS_TYPE {
            cross.insert(d);
        } else {
            type_entry(by, &d.entry.type_name.clone())
                .defaults
                .insert(d);
        }
    }
    cross
}

/// Picks the field of [`TypeFacts`] a family of plain path rules fills.
pub(super) type PatternField = fn(&mut TypeFacts) -> &mut Vec<Pattern>;

/// Indexes each type-rule family into its types' facts.
pub(super) fn index_type_rules(by: &mut HashMap<String, TypeFacts>, tr: TypeRulesFile) {
    index_equivalences(by, &tr);
    index_value_rules(by, tr.meaningful_when_off, tr.service_attached);
    for r in tr
        .ordered_arrays
        .into_iter()
        .filter(|r| !r.path.contains('*'))
    {
        type_entry(by, &r.type_name).ordered.push(r.path);
    }
    let lists: [(Vec<PathRule>, PatternField); 5] = [
        (tr.unordered_arrays, |f| &mut f.unordered),
        (tr.readgap_collections, |f| &mut f.readgap_collections),
        (tr.returned_when_set, |f| &mut f.returned_when_set),
        (tr.descend_undeclared, |f| &mut f.descend),
        (tr.owned_elsewhere, |f| &mut f.owned_elsewhere),
    ];
    for (rules, field) in lists {
        for r in rules {
            field(type_entry(by, &r.type_name)).push(Pattern::parse(&r.path));
        }
    }
    index_shape_rules(by, tr.generated_paths, tr.identity_keys, tr.keyed_sets);
    for r in tr.alt_representations {
        type_entry(by, &r.type_name.clone()).alt.push(r);
    }
    for r in tr.echoes {
        type_entry(by, &r.type_name.clone()).echoes.push(r);
    }
    for r in tr.key_aliases {
        type_entry(by, &r.type_name.clone())
            .key_aliases
            .push((Pattern::parse(&r.parent), r));
    }
}

/// Indexes the equivalence families (and the unit scales of `unitString`
/// rules), the dedicated families before the general list.
pub(super) fn index_equivalences(by: &mut HashMap<String, TypeFacts>, tr: &TypeRulesFile) {
    for (rules, eq) in [
        (&tr.case_insensitive, Equivalence::CaseInsensitive),
        (&tr.latest_sentinel, Equivalence::LatestSentinel),
        (&tr.version_prefix, Equivalence::VersionPrefix),
    ] {
        for r in rules {
            type_entry(by, &r.type_name)
                .equivalences
                .push((Pattern::parse(&r.path), eq));
        }
    }
    for r in &tr.equivalences {
        let facts = type_entry(by, &r.type_name);
        facts.equivalences.push((Pattern::parse(&r.path), r.rule));
        if let (Equivalence::UnitString, Some(unit), Some(factor)) = (r.rule, &r.unit, r.factor) {
            let scale = UnitScale {
                unit: unit.clone(),
                factor,
            };
            facts.unit_scales.push((Pattern::parse(&r.path), scale));
        }
    }
}

/// Indexes the rules that judge an undeclared value: switches whose OFF
/// state is a change, and values a service attaches on its own.
pub(super) fn index_value_rules(
    by: &mut HashMap<String, TypeFacts>,
    meaningful_when_off: Vec<OffRule>,
    service_attached: Vec<KnownDefaultEntry>,
) {
    for r in meaningful_when_off {
        type_entry(by, &r.type_name.clone())
            .meaningful_when_off
            .push((Pattern::parse(&r.path), r));
    }
    for mut e in service_attached {
        e.values
            .iter_mut()
            .for_each(crate::normalize::canonicalize_in_place);
        type_entry(by, &e.type_name.clone())
            .service_attached
            .push(KnownDefault {
                pattern: Pattern::parse(&e.path),
                entry: e,
            });
    }
}

/// Indexes the rules about generated values and array element identity.
pub(super) fn index_shape_rules(
    by: &mut HashMap<String, TypeFacts>,
    generated_paths: Vec<GeneratedRule>,
    identity_keys: Vec<IdentityRule>,
    keyed_sets: Vec<KeyedSetRule>,
) {
    for mut r in generated_paths {
        if let Some(v) = r.value.as_mut() {
            crate::normalize::canonicalize_in_place(v);
        }
        type_entry(by, &r.type_name.clone())
            .generated
            .push(Generated {
                pattern: Pattern::parse(&r.path),
                rule: r,
            });
    }
    for r in identity_keys {
        type_entry(by, &r.type_name)
            .identity
            .push((Pattern::parse(&r.path), r.keys));
    }
    for r in keyed_sets {
        type_entry(by, &r.type_name.clone())
            .keyed
            .push((Pattern::parse(&r.path), r));
    }
}

/// The defaults the registry schemas state in prose
/// (`schemas/doc-defaults.json`), indexed by type.
pub(super) fn doc_defaults() -> Result<HashMap<String, DefaultIndex>, FactsError> {
    let docs: Vec<DocDefault> = parse("schemas/doc-defaults.json", DOC_DEFAULTS)?;
    let mut by_type: HashMap<String, DefaultIndex> = HashMap::new();
    for d in docs {
        let mut value = d.value;
        crate::normalize::canonicalize_in_place(&mut value);
        by_type
            .entry(d.type_name.clone())
            .or_default()
            .insert(KnownDefault {
                pattern: Pattern::parse(&d.path),
                entry: KnownDefaultEntry {
                    type_name: d.type_name,
                    path: d.path,
                    values: vec![value],
                    any: false,
                    chosen_at_create: false,
                    when: None,
                    same_as: None,
                    same_as_fields: None,
                    stack_minted_key: None,
                    create_only: false,
                    reason: d.source,
                    source: Some(Source::Docs),
                },
            });
    }
    Ok(by_type)
}
