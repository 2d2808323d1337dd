//! `realdrift report --hub-bucket`: the members' status documents gathered
//! into one view (drift per account, region and stack; coverage; the oldest
//! unresolved drift; who changed what most), and its JSON document.

use super::org_status::StackStatus;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The `schema` of `realdrift report --hub-bucket --json`.
pub const ORG_REPORT_SCHEMA: &str = "realdrift.org-report.v1";

/// How many actors the view lists (most drifted properties first).
pub const MAX_ACTORS: usize = 10;

/// One status document as read: the stack's status, or why it was not read.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusEntry {
    /// The bucket key.
    pub key: String,
    /// The status, or the error naming what went wrong.
    pub status: Result<StackStatus, String>,
}

/// The aggregated view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OrgView {
    /// Stacks by account, then region, sorted.
    pub accounts: BTreeMap<String, BTreeMap<String, Vec<StackStatus>>>,
    /// Unreadable documents: key and error.
    pub errors: Vec<(String, String)>,
    /// Actors by drifted properties, most first (ties by name).
    pub actors: Vec<(String, usize)>,
}

/// The oldest unresolved drift: where, and since when.
#[derive(Debug, Clone, PartialEq)]
pub struct OldestDrift {
    /// Account id.
    pub account: String,
    /// Region.
    pub region: String,
    /// Stack name.
    pub stack: String,
    /// First seen (milliseconds since the Unix epoch).
    pub since_ms: u64,
}

impl OrgView {
    /// Gathers the entries (an unreadable one is an error entry, the others go on).
    pub fn gather(entries: Vec<StatusEntry>) -> OrgView {
        let mut view = OrgView::default();
        let mut actors: BTreeMap<String, usize> = BTreeMap::new();
        for e in entries {
            match e.status {
                Ok(s) => {
                    for (who, n) in &s.actors {
                        *actors.entry(who.clone()).or_default() += n;
                    }
                    view.accounts
                        .entry(s.account_id.clone())
                        .or_default()
                        .entry(s.region.clone())
                        .or_default()
                        .push(s);
                }
                Err(msg) => view.errors.push((e.key, msg)),
            }
        }
        for regions in view.accounts.values_mut() {
            for stacks in regions.values_mut() {
                stacks.sort_by(|a, b| a.stack.cmp(&b.stack));
            }
        }
        let mut ranked: Vec<(String, usize)> = actors.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        ranked.truncate(MAX_ACTORS);
        view.actors = ranked;
        view
    }

    /// Every stack's status, in account, region, stack order.
    pub fn stacks(&self) -> impl Iterator<Item = &StackStatus> {
        self.accounts.values().flat_map(|r| r.values().flatten())
    }

    /// Unresolved drifted properties of one account (all regions).
    pub fn account_drift(&self, account: &str) -> usize {
        self.accounts
            .get(account)
            .map_or(0, |r| r.values().flatten().map(|s| s.drift).sum())
    }

    /// The oldest unresolved drift across the Organization.
    pub fn oldest_drift(&self) -> Option<OldestDrift> {
        self.stacks()
            .filter_map(|s| s.oldest_drift_ms().map(|t| (t, s)))
            .min_by_key(|(t, _)| *t)
            .map(|(since_ms, s)| OldestDrift {
                account: s.account_id.clone(),
                region: s.region.clone(),
                stack: s.stack.clone(),
                since_ms,
            })
    }

    /// The JSON document (`realdrift.org-report.v1`, docs/json-output.md).
    pub fn json(&self) -> Value {
        let stacks: Vec<&StackStatus> = self.stacks().collect();
        let accounts: Vec<Value> = self
            .accounts
            .iter()
            .map(|(account, regions)| {
                let regions: Vec<Value> = regions
                    .iter()
                    .map(|(region, stacks)| {
                        json!({
                            "region": region,
                            "drift": stacks.iter().map(|s| s.drift).sum::<usize>(),
                            "stacks": stacks.iter().map(stack_json).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                json!({
                    "accountId": account,
                    "drift": self.account_drift(account),
                    "regions": regions,
                })
            })
            .collect();
        json!({
            "schema": ORG_REPORT_SCHEMA,
            "summary": {
                "accounts": self.accounts.len(),
                "stacks": stacks.len(),
                "driftedStacks": stacks.iter().filter(|s| s.drift > 0).count(),
                "drift": stacks.iter().map(|s| s.drift).sum::<usize>(),
                "compared": stacks.iter().map(|s| s.compared).sum::<usize>(),
                "total": stacks.iter().map(|s| s.total).sum::<usize>(),
                "errors": self.errors.len(),
            },
            "oldestDrift": self.oldest_drift().map(|o| json!({
                "accountId": o.account,
                "region": o.region,
                "stack": o.stack,
                "since": iso_time(o.since_ms),
            })),
            "actors": self.actors.iter().map(|(a, n)| json!({"actor": a, "drift": n})).collect::<Vec<_>>(),
            "accounts": accounts,
            "errors": self.errors.iter().map(|(k, e)| json!({"key": k, "error": e})).collect::<Vec<_>>(),
        })
    }
}

fn stack_json(s: &StackStatus) -> Value {
    json!({
        "stack": s.stack,
        "drift": s.drift,
        "compared": s.compared,
        "total": s.total,
        "notCompared": s.not_compared.iter().map(|n| json!({
            "logicalId": n.logical_id,
            "resourceType": n.resource_type,
            "reason": n.reason,
        })).collect::<Vec<_>>(),
        "oldestDriftSince": s.oldest_drift_ms().map(iso_time),
        "checkedAt": iso_time(s.checked_at_ms),
    })
}

/// Milliseconds since the Unix epoch as RFC 3339 UTC (`2026-12-07T01:02:03Z`);
/// out of range prints the number (never a made-up date).
pub fn iso_time(ms: u64) -> String {
    i64::try_from(ms)
        .ok()
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| format!("{ms} ms"))
}
