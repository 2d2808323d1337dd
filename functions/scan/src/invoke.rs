//! A direct invoke `{"stacks": ["name or glob", ...]}`: scans those stacks
//! as the queue would (state advanced, transitions announced) and returns
//! the findings in the `realdrift check --json` shape, plus what was
//! announced per stack.

use super::deadline::Invocation;
use super::scanner::Scanner;
use super::stack::scan_stack;
use anyhow::Context as _;
use realdrift_core::pipeline::{discover_stacks, load_ignores, GatherFailure};
use realdrift_core::report::{json_value, ExitFlags};
use serde::Deserialize;
use serde_json::{json, Value};

/// The direct invoke's payload.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectInvoke {
    /// Stack names or globs (at least one).
    pub stacks: Vec<String>,
}

/// Scans the selected stacks and returns their findings.
pub async fn invoke(s: &Scanner, req: &DirectInvoke, inv: &Invocation) -> anyhow::Result<Value> {
    anyhow::ensure!(!req.stacks.is_empty(), "direct invoke: \"stacks\" is empty");
    let ignores = load_ignores(s.baselines.as_ref(), &s.baselines_location)
        .await
        .context("ignore rules")?;
    let found = discover_stacks(s.pipeline.stack_source().as_ref(), &req.stacks)
        .await
        .context("discovering stacks")?;
    let mut reports = Vec::new();
    let mut announced = serde_json::Map::new();
    for u in &found.unavailable {
        reports.push(GatherFailure::from(u.clone()).report(&u.stack, &s.region));
    }
    for stack in &found.stacks {
        let outcome = scan_stack(s, stack, &ignores, inv).await;
        for (r, u) in outcome.reports.iter().zip(&outcome.updates) {
            let kinds: Vec<&str> = u
                .iter()
                .flat_map(|u| u.delivered.iter().map(|n| n.kind.as_str()))
                .collect();
            announced.insert(r.stack.clone(), json!(kinds));
        }
        reports.extend(outcome.reports);
    }
    let mut doc = json_value(&reports, ExitFlags::default());
    doc["announced"] = Value::Object(announced);
    Ok(doc)
}
