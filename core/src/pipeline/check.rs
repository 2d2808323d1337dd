//! The one check path every entry point calls (CLI, scan, on-change):
//! discover and gather stacks, then per stack load its baseline and the
//! ignore rules from a store, apply the baseline, apply the ignore rules and
//! build the report. A stack that cannot be checked becomes an error entry
//! of the run; the other stacks go on.
//!
//! `record` shares the pieces: [`gather_selected`], [`load_ignores`],
//! [`load_stack_baseline`] and [`recordable_findings`].

use super::discovery::{discover_stacks, DiscoveryError, Unavailable, UnavailableReason};
use super::gather::{Pipeline, PipelineError};
use super::gathered::GatheredStack;
use crate::baseline::{
    apply_baseline, load_baseline, BaselineError, BaselineFile, BaselineStore, RunContext,
    StoreError,
};
use crate::finding::Finding;
use crate::ignore::{apply_accepts, apply_ignores, IgnoreConfig, IgnoreError, IgnoreScope};
use crate::report::{MaskPolicy, NotChecked, StackReport};
use std::collections::BTreeMap;

/// The store key of the ignore file (beside the baselines).
pub const IGNORE_KEY: &str = "ignore.yaml";

/// Why a check stage failed. The display is the context; the source chain
/// carries the cause (render both with [`error_chain`]).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// Stack discovery failed as a whole.
    #[error("discovering stacks")]
    Discovery(#[source] DiscoveryError),
    /// The ignore file could not be read.
    #[error("reading {file}")]
    ReadIgnores {
        /// Where the file is, as named to the user.
        file: String,
        /// The store failure.
        #[source]
        source: StoreError,
    },
    /// The ignore file is malformed (the error names the file).
    #[error(transparent)]
    Ignores(#[from] IgnoreError),
    /// The stack's identity cannot name a baseline file.
    #[error("stack {stack}: baseline file name")]
    BaselineKey {
        /// The stack.
        stack: String,
        /// Why.
        #[source]
        source: Box<BaselineError>,
    },
    /// The stack's baseline could not be loaded or parsed.
    #[error("stack {stack}: baseline {key}")]
    LoadBaseline {
        /// The stack.
        stack: String,
        /// The baseline's store key.
        key: String,
        /// Why.
        #[source]
        source: Box<BaselineError>,
    },
    /// The baseline does not fit the run (its identity guards refused it).
    #[error("stack {stack}: applying the baseline")]
    ApplyBaseline {
        /// The stack.
        stack: String,
        /// Why.
        #[source]
        source: Box<BaselineError>,
    },
}

/// An error and its causes on one line: `context: cause: cause`.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cause = e.source();
    while let Some(c) = cause {
        parts.push(c.to_string());
        cause = c.source();
    }
    join_causes(parts)
}

/// Joins an error's layers with `: `, saying nothing twice: a layer whose
/// display already quotes its cause makes that cause redundant, and a cause
/// that restates the context it is wrapped in (`baseline K` then
/// `baseline K: msg`) adds only what is new.
pub fn join_causes(parts: impl IntoIterator<Item = String>) -> String {
    let mut text = String::new();
    for part in parts {
        if part.is_empty() || text.ends_with(&part) {
            continue;
        }
        if text.is_empty() {
            text = part;
            continue;
        }
        // The longest tail of `text` (starting at a layer boundary) that
        // `part` repeats at its start.
        let overlap = std::iter::once(0)
            .chain(text.match_indices(": ").map(|(i, _)| i + 2))
            .map(|i| &text[i..])
            .find(|tail| part.starts_with(*tail) && part[tail.len()..].starts_with(": "))
            .map_or(0, str::len);
        if overlap == 0 {
            text.push_str(": ");
            text.push_str(&part);
        } else {
            text.push_str(&part[overlap..]);
        }
    }
    text
}

/// Loads the ignore rules from the store; a missing file means no rules, a
/// malformed one is an error naming the file. `location` names the store
/// in messages (a directory, an `s3://` URL).
pub async fn load_ignores(
    store: &dyn BaselineStore,
    location: &str,
) -> Result<IgnoreConfig, CheckError> {
    let file = format!("{location}/{IGNORE_KEY}");
    match store.load(IGNORE_KEY).await {
        Ok(Some(stored)) => Ok(IgnoreConfig::parse(&file, &stored.text)?),
        Ok(None) => Ok(IgnoreConfig::default()),
        Err(source) => Err(CheckError::ReadIgnores { file, source }),
    }
}

/// The identity scope ignore rules are matched against.
pub fn scope_of(ctx: &RunContext) -> IgnoreScope {
    IgnoreScope::new(
        &ctx.identity.stack_name,
        &ctx.identity.account_id,
        &ctx.identity.region,
    )
}

/// The baseline store key of a gathered stack.
pub fn baseline_key(ctx: &RunContext) -> Result<String, CheckError> {
    ctx.identity
        .file_name()
        .map_err(|source| CheckError::BaselineKey {
            stack: ctx.identity.stack_name.clone(),
            source: Box::new(source),
        })
}

/// Loads a stack's baseline file, naming the file in errors.
pub async fn load_stack_baseline(
    store: &dyn BaselineStore,
    ctx: &RunContext,
) -> Result<Option<BaselineFile>, CheckError> {
    let key = baseline_key(ctx)?;
    load_baseline(store, &key)
        .await
        .map_err(|source| CheckError::LoadBaseline {
            stack: ctx.identity.stack_name.clone(),
            key,
            source: Box::new(source),
        })
}

/// The check stages for one gathered stack: baseline (skipped when
/// `show_all`: inventory mode lists every live-only value), then ignore
/// rules, then the report model. `baseline` is the stack's file.
pub fn check_stack(
    g: &GatheredStack,
    baseline: Option<&BaselineFile>,
    ignores: &IgnoreConfig,
    show_all: bool,
) -> Result<StackReport, CheckError> {
    let ctx = g.run_context();
    let applied = apply_baseline(
        g.findings.clone(),
        if show_all { None } else { baseline },
        &ctx,
    )
    .map_err(|source| CheckError::ApplyBaseline {
        stack: g.stack.clone(),
        source: Box::new(source),
    })?;
    let scope = scope_of(&ctx);
    let mut findings = apply_ignores(applied.findings, &scope, ignores);
    let mut notes = g.notes.clone();
    notes.extend(applied.notes.iter().map(ToString::to_string));
    // Gathering's count: ignore rules change findings, never coverage; an
    // accept rule moves an unreadable type from lost to accepted.
    let mut coverage = g.coverage;
    let mut not_compared = g.not_compared.clone();
    let accepted = apply_accepts(&mut not_compared, &scope, &ignores.accepts);
    coverage.lost = coverage.lost.saturating_sub(accepted);
    coverage.accepted += accepted;
    mark_accepted(&mut findings, &not_compared);
    Ok(StackReport {
        stack: g.stack.clone(),
        account_id: g.account.clone(),
        region: g.region.clone().unwrap_or_default(),
        coverage,
        findings,
        notes,
        has_baseline: baseline.is_some(),
        error: None,
        not_checked: None,
        masks: secret_positions(g),
        not_compared,
        resource_types: g
            .resources
            .iter()
            .map(|r| (r.logical_id.clone(), r.resource_type.clone()))
            .collect(),
    })
}

/// The `skipped` finding of an accepted resource says so, with the reason.
fn mark_accepted(findings: &mut [Finding], not_compared: &[crate::report::NotCompared]) {
    for n in not_compared {
        let Some(reason) = &n.accepted else { continue };
        let skip = findings.iter_mut().find(|f| {
            f.tier == crate::finding::Tier::Skipped
                && f.path.is_empty()
                && f.logical_id == n.logical_id
        });
        if let Some(f) = skip {
            let why = f.note.take().unwrap_or_default();
            f.note = Some(format!("accepted as not compared ({reason}): {why}"));
        }
    }
}

/// The declared positions that hold secrets (NoEcho parameters, dynamic
/// references), so every rendering shows them as `***`.
pub fn secret_positions(g: &GatheredStack) -> MaskPolicy {
    g.resources.iter().fold(MaskPolicy::default(), |acc, r| {
        r.secret_paths
            .iter()
            .fold(acc, |acc, p| acc.with(&r.logical_id, p))
    })
}

/// The report entry of a stack that could not be checked.
pub fn error_report(stack: &str, region: &str, error: String) -> StackReport {
    StackReport {
        stack: stack.to_string(),
        region: region.to_string(),
        error: Some(error),
        ..StackReport::default()
    }
}

/// record's view of the findings: classify output after ignore rules
/// (ignored findings are never recorded).
pub fn recordable_findings(g: &GatheredStack, ignores: &IgnoreConfig) -> Vec<Finding> {
    apply_ignores(g.findings.clone(), &scope_of(&g.run_context()), ignores)
}

/// Why a selected stack could not be gathered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GatherFailure {
    /// An exactly named stack does not exist.
    #[error("stack {stack}: not found in this account and region")]
    NotFound {
        /// The selector.
        stack: String,
    },
    /// The stack could not be described, fetched or parsed, or is not settled.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
}

impl GatherFailure {
    /// The report entry of a stack that could not be gathered: not checked
    /// for a stack that is not settled, an error for everything else.
    pub fn report(&self, stack: &str, region: &str) -> StackReport {
        match self {
            GatherFailure::Pipeline(PipelineError::NotSettled { status, .. }) => StackReport {
                stack: stack.to_string(),
                region: region.to_string(),
                not_checked: Some(NotChecked {
                    status: status.clone(),
                }),
                ..StackReport::default()
            },
            other => error_report(stack, region, other.to_string()),
        }
    }
}

impl From<Unavailable> for GatherFailure {
    fn from(u: Unavailable) -> Self {
        match u.reason {
            UnavailableReason::NotFound => GatherFailure::NotFound { stack: u.stack },
            UnavailableReason::TemplateUnreadable(source) => {
                GatherFailure::Pipeline(PipelineError::Source {
                    stack: u.stack,
                    source,
                })
            }
        }
    }
}

/// One selected stack: what was gathered, or why nothing was.
#[derive(Debug)]
pub struct StackGather {
    /// The stack name (as selected, or as gathered).
    pub stack: String,
    /// The gathered stack, or the failure (whose text names the stack).
    pub result: Result<GatheredStack, GatherFailure>,
}

/// The stacks a run gathered, plus run-level remarks.
#[derive(Debug, Default)]
pub struct GatherRun {
    /// One entry per selected stack, nested stacks after their parents;
    /// stacks discovery could not hand over (missing, unreadable) first.
    pub stacks: Vec<StackGather>,
    /// Run-level remarks (none today: every stack-level outcome is an entry).
    pub notes: Vec<String>,
}

/// Discovers the selected stacks and gathers each one. A selected stack that
/// cannot be gathered — an exact name that does not exist, a template that
/// cannot be read, a stack that is not settled — is an entry of the run with
/// its typed failure; other stacks go on. Only a failed discovery fails the
/// whole run.
pub async fn gather_selected(
    pipeline: &Pipeline,
    selectors: &[String],
) -> Result<GatherRun, CheckError> {
    let found = discover_stacks(pipeline.stack_source().as_ref(), selectors)
        .await
        .map_err(CheckError::Discovery)?;
    let mut run = GatherRun::default();
    for u in found.unavailable {
        run.stacks.push(StackGather {
            stack: u.stack.clone(),
            result: Err(u.into()),
        });
    }
    for r in pipeline.gather_many(&found.stacks).await {
        run.stacks.push(match r {
            Ok(g) => StackGather {
                stack: g.stack.clone(),
                result: Ok(g),
            },
            Err(e) => StackGather {
                stack: e.stack().to_string(),
                result: Err(e.into()),
            },
        });
    }
    Ok(run)
}

/// How a run checks its stacks.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Inventory mode: do not apply the baseline (every live-only value is listed).
    pub show_all: bool,
    /// The region of the run, for entries of stacks whose own region is unknown.
    pub region: String,
    /// How the store is named in messages (`baselines`, `s3://bucket/prefix`).
    pub store_location: String,
}

/// One stack of a check run.
#[derive(Debug)]
pub struct CheckedStack {
    /// The report (an error entry when the stack could not be checked).
    pub report: StackReport,
    /// What was gathered, when the stack could be gathered.
    pub gathered: Option<GatheredStack>,
}

impl CheckedStack {
    /// AWS calls made gathering this stack, by `service:Operation`.
    pub fn api_calls(&self) -> BTreeMap<String, u64> {
        self.gathered
            .as_ref()
            .map(|g| g.api_calls.clone())
            .unwrap_or_default()
    }
}

/// A check run: one entry per selected stack, plus run-level remarks.
#[derive(Debug, Default)]
pub struct CheckRun {
    /// The stacks, in gather order.
    pub stacks: Vec<CheckedStack>,
    /// Run-level remarks.
    pub notes: Vec<String>,
}

impl CheckRun {
    /// The reports, in order (what renderers and exit codes read).
    pub fn reports(&self) -> Vec<StackReport> {
        self.stacks.iter().map(|s| s.report.clone()).collect()
    }
}

/// Checks one gather outcome: loads its baseline and runs [`check_stack`];
/// a stack that could not be gathered becomes its typed entry
/// ([`GatherFailure::report`]), any later failure its error entry.
pub async fn check_gathered(
    entry: &StackGather,
    store: &dyn BaselineStore,
    ignores: &IgnoreConfig,
    opts: &CheckOptions,
) -> StackReport {
    let g = match &entry.result {
        Ok(g) => g,
        Err(e) => return e.report(&entry.stack, &opts.region),
    };
    let region = g.region.as_deref().unwrap_or(&opts.region);
    let checked = match load_stack_baseline(store, &g.run_context()).await {
        Ok(b) => check_stack(g, b.as_ref(), ignores, opts.show_all),
        Err(e) => Err(e),
    };
    checked.unwrap_or_else(|e| error_report(&entry.stack, region, error_chain(&e)))
}

/// The whole check path: ignore rules from the store, discovery, gathering,
/// then per stack baseline -> ignore rules -> report. Fails as a whole only
/// when the ignore rules cannot be loaded or discovery fails.
pub async fn check_stacks(
    pipeline: &Pipeline,
    store: &dyn BaselineStore,
    selectors: &[String],
    opts: &CheckOptions,
) -> Result<CheckRun, CheckError> {
    let ignores = load_ignores(store, &opts.store_location).await?;
    let gathered = gather_selected(pipeline, selectors).await?;
    let mut run = CheckRun {
        stacks: Vec::with_capacity(gathered.stacks.len()),
        notes: gathered.notes,
    };
    for entry in gathered.stacks {
        let report = check_gathered(&entry, store, &ignores, opts).await;
        run.stacks.push(CheckedStack {
            report,
            gathered: entry.result.ok(),
        });
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_chains_join_every_cause() {
        let e = CheckError::ReadIgnores {
            file: "b/ignore.yaml".into(),
            source: StoreError::io("b/ignore.yaml", "denied"),
        };
        assert_eq!(
            error_chain(&e),
            "reading b/ignore.yaml: baseline store b/ignore.yaml: denied"
        );
    }

    #[test]
    fn joined_causes_say_nothing_twice() {
        let j = |p: &[&str]| join_causes(p.iter().map(|s| s.to_string()));
        assert_eq!(
            j(&["stack S: baseline K", "baseline K: bad json", "bad json"]),
            "stack S: baseline K: bad json"
        );
        assert_eq!(
            j(&["discovering stacks", "listing stacks: refused", "refused"]),
            "discovering stacks: listing stacks: refused"
        );
        assert_eq!(j(&["a", "b", "c"]), "a: b: c");
        assert_eq!(j(&["a: b", "b"]), "a: b");
    }
}
