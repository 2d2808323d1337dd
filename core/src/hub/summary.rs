//! The hub's scheduled summary: the Organization view of `realdrift report
//! --hub-bucket` (the same gathering and renderers), its headline published
//! to the topic and Slack, its HTML page written to the hub bucket under
//! [`SUMMARY_KEY`] — outside `org/<account>/`, so no member may write it.

use crate::baseline::{BaselineStore, Precondition, StoreError};
use crate::notify::Notice;
use crate::report::{
    escape_json_text, fit, read_statuses, render_org_headline, render_org_html, sns_subject,
    OrgView, MAX_FALLBACK_TEXT, MAX_HEADER_TEXT, MAX_SECTION_TEXT,
};
use serde_json::json;

/// Where the summary page goes in the hub bucket.
pub const SUMMARY_KEY: &str = "org/summary.html";

/// A summary made and its page written.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The view it summarizes.
    pub view: OrgView,
    /// The notice to publish.
    pub notice: Notice,
}

/// Reads every status document, writes the page and returns the notice.
/// A listing or page-write failure fails the run (the schedule's next run,
/// or Lambda's retry of the async invoke, tries again).
pub async fn summarize(store: &dyn BaselineStore, bucket: &str) -> Result<Summary, StoreError> {
    let view = OrgView::gather(read_statuses(store).await?);
    store
        .save(SUMMARY_KEY, &render_org_html(&view), Precondition::None)
        .await?;
    let notice = summary_notice(&view, bucket);
    Ok(Summary { view, notice })
}

/// The summary's notice: the view's headline as text, a small JSON document
/// (counts and where the page is) and a Slack message.
pub fn summary_notice(view: &OrgView, bucket: &str) -> Notice {
    let stacks: Vec<_> = view.stacks().collect();
    let drift: usize = stacks.iter().map(|s| s.drift).sum();
    let drifted = stacks.iter().filter(|s| s.drift > 0).count();
    let page = format!("s3://{bucket}/{SUMMARY_KEY}");
    let mut text = render_org_headline(view);
    if !view.errors.is_empty() {
        text.push_str(&format!(
            "{} status document(s) unreadable\n",
            view.errors.len()
        ));
    }
    text.push_str(&format!("\nThe whole view: {page}\n"));
    let document = json!({
        "version": 1,
        "kind": "org-summary",
        "accounts": view.accounts.len(),
        "stacks": stacks.len(),
        "drift": drift,
        "driftedStacks": drifted,
        "unreadable": view.errors.len(),
        "page": page,
    });
    let head = format!(
        "realdrift: Organization summary, {drift} drifted propert(ies) in {drifted} stack(s)"
    );
    let plain =
        |t: &str, limit| json!({"type": "plain_text", "text": fit(t, limit), "emoji": false});
    Notice {
        kind: "org-summary".into(),
        subject: sns_subject(&head),
        document: escape_json_text(&document.to_string()),
        slack: json!({
            "text": fit(&head, MAX_FALLBACK_TEXT),
            "blocks": [
                {"type": "header", "text": plain(&head, MAX_HEADER_TEXT)},
                {"type": "section", "text": plain(&text, MAX_SECTION_TEXT)},
            ]
        }),
        text: Some(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::MemoryStore;

    fn status(account: &str, stack: &str, drift: usize) -> String {
        json!({"schema": "realdrift.org-status.v1", "accountId": account, "region": "us-east-1",
               "stack": stack, "checkedAtMs": 1_796_000_000_000u64, "drift": drift, "compared": 3, "total": 3})
        .to_string()
    }

    #[test]
    fn the_summary_counts_the_view_and_writes_the_page() {
        let store = MemoryStore::default();
        futures_executor::block_on(async {
            for (k, v) in [
                (
                    "org/111111111111/us-east-1/A.json",
                    status("111111111111", "A", 2),
                ),
                (
                    "org/222222222222/us-east-1/B.json",
                    status("222222222222", "B", 0),
                ),
            ] {
                store.save(k, &v, Precondition::None).await.unwrap();
            }
            let s = summarize(&store, "hub").await.unwrap();
            assert_eq!(s.view.accounts.len(), 2);
            let doc: serde_json::Value = serde_json::from_str(&s.notice.document).unwrap();
            assert_eq!(
                (doc["drift"].as_u64(), doc["driftedStacks"].as_u64()),
                (Some(2), Some(1))
            );
            assert_eq!(doc["page"], "s3://hub/org/summary.html");
            let page = store.load(SUMMARY_KEY).await.unwrap().unwrap().text;
            assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        });
    }
}
