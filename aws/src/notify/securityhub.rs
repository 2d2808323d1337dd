//! AWS Security Hub: imports a transition's ASFF findings (one per drifted
//! property, core's `asff_findings`) into the caller's own account with
//! BatchImportFindings, so the Organization's aggregation shows them.
//!
//! Facts (docs/organization.md, "Security Hub"): with the default product
//! ARN the caller's account must be each finding's `AwsAccountId`; a finding
//! with a known `Id` is updated only when its `UpdatedAt` is later than the
//! stored one; at most 100 findings per call; the call answers 200 with
//! `FailedCount` and `FailedFindings` when some findings were refused.

use crate::errors::describe;
use aws_sdk_securityhub::types::{
    AwsSecurityFinding, Compliance, ComplianceStatus, Partition, RecordState, Resource,
    ResourceDetails, Severity, SeverityLabel,
};
use futures_util::future::{BoxFuture, FutureExt};
use realdrift_core::notify::{Notice, Notifier, NotifyError};
use realdrift_core::report::{asff_findings, asff_timestamp};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// BatchImportFindings takes at most this many findings per call.
pub const MAX_FINDINGS_PER_IMPORT: usize = 100;

/// Imports each notice's findings into Security Hub (a required channel:
/// a finding missed on detect or resolve is never imported again).
#[derive(Debug, Clone)]
pub struct SecurityHubNotifier {
    client: aws_sdk_securityhub::Client,
    partition: String,
    /// The last UpdatedAt used (ms): each import is later than the one
    /// before, even within one millisecond, or Security Hub ignores it.
    last_ms: Arc<AtomicU64>,
}

impl SecurityHubNotifier {
    /// A notifier importing into `client`'s account and Region, with
    /// product ARNs in `partition` (`aws`, `aws-cn`, ...).
    pub fn new(client: aws_sdk_securityhub::Client, partition: &str) -> Self {
        SecurityHubNotifier {
            client,
            partition: partition.to_string(),
            last_ms: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Now in ms, or one past the last import's time when that is not earlier.
    fn next_ms(&self) -> u64 {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or_default();
        let prev = self
            .last_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| {
                Some(now.max(last + 1))
            })
            .unwrap_or(now);
        now.max(prev + 1)
    }

    async fn import(&self, notice: &Notice) -> Result<(), NotifyError> {
        let err = |m: String| NotifyError::new("securityhub", m);
        let doc: Value = serde_json::from_str(&notice.document)
            .map_err(|e| err(format!("the transition document is not JSON: {e}")))?;
        let at = asff_timestamp(self.next_ms()).ok_or_else(|| err("no current time".into()))?;
        let findings: Vec<AwsSecurityFinding> = asff_findings(&doc, &self.partition, &at)
            .iter()
            .map(sdk_finding)
            .collect();
        for batch in findings.chunks(MAX_FINDINGS_PER_IMPORT) {
            let out = self
                .client
                .batch_import_findings()
                .set_findings(Some(batch.to_vec()))
                .send()
                .await
                .map_err(|e| {
                    err(format!(
                        "securityhub:BatchImportFindings: {}",
                        describe(&e, &[]).message
                    ))
                })?;
            if out.failed_count().unwrap_or(0) > 0 || !out.failed_findings().is_empty() {
                let first = out.failed_findings().first();
                return Err(err(format!(
                    "securityhub:BatchImportFindings refused {} of {} findings; first {}: {}: {}",
                    out.failed_count()
                        .unwrap_or(out.failed_findings().len() as i32),
                    batch.len(),
                    first.and_then(|f| f.id()).unwrap_or("?"),
                    first.and_then(|f| f.error_code()).unwrap_or("?"),
                    first.and_then(|f| f.error_message()).unwrap_or("")
                )));
            }
        }
        Ok(())
    }
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The SDK form of one ASFF finding as core renders it.
fn sdk_finding(f: &Value) -> AwsSecurityFinding {
    let mut b = AwsSecurityFinding::builder()
        .schema_version(text(f, "SchemaVersion"))
        .id(text(f, "Id"))
        .product_arn(text(f, "ProductArn"))
        .generator_id(text(f, "GeneratorId"))
        .aws_account_id(text(f, "AwsAccountId"))
        .region(text(f, "Region"))
        .created_at(text(f, "CreatedAt"))
        .updated_at(text(f, "UpdatedAt"))
        .title(text(f, "Title"))
        .description(text(f, "Description"))
        .severity(
            Severity::builder()
                .label(SeverityLabel::from(text(&f["Severity"], "Label")))
                .build(),
        )
        .compliance(
            Compliance::builder()
                .status(ComplianceStatus::from(text(&f["Compliance"], "Status")))
                .build(),
        )
        .record_state(RecordState::from(text(f, "RecordState")));
    for t in f["Types"].as_array().into_iter().flatten() {
        b = b.types(t.as_str().unwrap_or_default());
    }
    for r in f["Resources"].as_array().into_iter().flatten() {
        b = b.resources(sdk_resource(r));
    }
    b.build()
}

fn sdk_resource(r: &Value) -> Resource {
    let mut details = ResourceDetails::builder();
    for (k, v) in r["Details"]["Other"].as_object().into_iter().flatten() {
        details = details.other(k, v.as_str().unwrap_or_default());
    }
    Resource::builder()
        .r#type(text(r, "Type"))
        .id(text(r, "Id"))
        .partition(Partition::from(text(r, "Partition")))
        .region(text(r, "Region"))
        .details(details.build())
        .build()
}

impl Notifier for SecurityHubNotifier {
    fn channel(&self) -> &'static str {
        "securityhub"
    }

    fn send<'a>(&'a self, notice: &'a Notice) -> BoxFuture<'a, Result<(), NotifyError>> {
        self.import(notice).boxed()
    }
}
