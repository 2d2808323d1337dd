//! The hub's alert for a member's transition: the member's SNS document
//! (the `detail` of its findings-bus event) with the account's name beside
//! it, rendered for SNS (subject, per-protocol text and document) and
//! Slack. The document comes from a member account and the name from
//! Organizations or the operator: both are untrusted text, sanitized and
//! escaped as a member's own alerts are.

use super::email::{finding_lines, heading, revert_hint, MAX_TEXT_FINDINGS};
use super::sanitize::{escape_json_text, sanitize_identifier};
use super::slack::{finding_text, fit, plain};
use super::sns::{fit_to_sns, sns_subject, SnsKind};
use super::{MAX_BLOCKS, MAX_FALLBACK_TEXT, MAX_HEADER_TEXT, MAX_SECTION_TEXT};
use crate::baseline::sort_keys;
use crate::finding::{Finding, Tier};
use crate::notify::Notice;
use serde_json::{json, Value};

/// A member's transition as the hub reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct HubTransition {
    /// What it announces.
    pub kind: SnsKind,
    /// The account that put the event (EventBridge sets it; a member cannot forge it).
    pub account: String,
    /// The member's Region.
    pub region: String,
    /// The stack.
    pub stack: String,
    /// The stack's drift count now.
    pub drift: u64,
    /// The stack's potential drift count now.
    pub potential: u64,
    /// The transition's findings (masked by the member).
    pub findings: Vec<Finding>,
    /// The member's document, as it came.
    pub document: Value,
}

/// Why an event is not a transition the hub can deliver.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a realdrift transition: {0}")]
pub struct NotATransition(pub String);

/// Reads a findings-bus event (`account` stamped by EventBridge, `detail` =
/// the member's SNS document). Findings that do not parse are left out of
/// the text and Slack forms; the document is delivered whole.
pub fn parse_transition(event: &Value) -> Result<HubTransition, NotATransition> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let account = text(event, "account")
        .filter(|a| a.len() == 12 && a.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| NotATransition("no 12-digit account".into()))?;
    let doc = event
        .get("detail")
        .filter(|d| d.is_object())
        .ok_or_else(|| NotATransition("no detail object".into()))?;
    let kind = text(doc, "kind")
        .and_then(|k| SnsKind::parse(&k))
        .ok_or_else(|| NotATransition("unknown kind".into()))?;
    let count = |k: &str| doc["summary"].get(k).and_then(Value::as_u64).unwrap_or(0);
    let findings = doc
        .get("findings")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|f| serde_json::from_value::<Finding>(f.clone()).ok())
                .collect()
        })
        .unwrap_or_default();
    Ok(HubTransition {
        kind,
        account,
        region: text(doc, "region").unwrap_or_else(|| "unknown".into()),
        stack: text(doc, "stack").unwrap_or_else(|| "unknown".into()),
        drift: count("drift"),
        potential: count("potentialDrift"),
        findings,
        document: doc.clone(),
    })
}

/// `name (id)`, or the id alone when no name is known.
fn account_label(account: &str, name: Option<&str>) -> String {
    match name
        .map(sanitize_identifier)
        .filter(|n| !n.trim().is_empty())
    {
        Some(n) => format!("{n} ({account})"),
        None => account.to_string(),
    }
}

/// The hub's notice for `t`: SNS gets `{"accountName", "document"}` (the
/// name empty when unknown) per protocol beside a readable text, Slack a
/// Block Kit message; both name the account.
pub fn hub_notice(t: &HubTransition, name: Option<&str>) -> Notice {
    let label = account_label(&t.account, name);
    let stack = sanitize_identifier(&t.stack);
    let region = sanitize_identifier(&t.region);
    let text = hub_text(t, &label);
    Notice {
        kind: t.kind.as_str().to_string(),
        subject: sns_subject(&format!(
            "realdrift: {} {stack} ({label} / {region})",
            t.kind.phrase()
        )),
        document: hub_document(t, name.unwrap_or_default(), &text),
        text: Some(text),
        slack: hub_slack(t, &label),
    }
}

/// The shown findings: what the member's own alert lists.
fn shown(t: &HubTransition) -> Vec<&Finding> {
    t.findings
        .iter()
        .filter(|f| !matches!(f.tier, Tier::AtDefault | Tier::Generated))
        .collect()
}

/// The readable text (`default` and `email`).
fn hub_text(t: &HubTransition, label: &str) -> String {
    let stack = sanitize_identifier(&t.stack);
    let region = sanitize_identifier(&t.region);
    let mut out = format!(
        "realdrift: {} {stack} ({region}, account {label})\n\n{}\n",
        t.kind.phrase(),
        heading(t.kind)
    );
    let shown = shown(t);
    for f in shown.iter().take(MAX_TEXT_FINDINGS) {
        out.push_str(&finding_lines(f, &t.stack));
    }
    if shown.len() > MAX_TEXT_FINDINGS {
        out.push_str(&format!(
            "… and {} more (the JSON document lists every one)\n",
            shown.len() - MAX_TEXT_FINDINGS
        ));
    }
    out.push_str(&format!(
        "\nNow: {} drift, {} potential drift.\n",
        t.drift, t.potential
    ));
    if t.kind == SnsKind::DriftDetected {
        out.push_str("\nIn the member account:");
        out.push_str(&revert_hint(&stack, &t.region));
    }
    out
}

/// The JSON document, findings dropped from the end (and counted in the
/// inner `findingsOmitted`) until the whole publish fits SNS's limit.
fn hub_document(t: &HubTransition, name: &str, text: &str) -> String {
    let mut doc = t.document.clone();
    let render = |doc: &Value| {
        let outer = json!({"accountName": sanitize_identifier(name), "document": doc});
        escape_json_text(&serde_json::to_string(&sort_keys(&outer)).unwrap_or_default())
    };
    fit_to_sns(&mut doc, text, render)
}

/// The Slack Block Kit message: a header naming the transition, stack and
/// account, the counts, one section per finding within Slack's block limit.
fn hub_slack(t: &HubTransition, label: &str) -> Value {
    let head = format!(
        "realdrift: {} {} ({label} / {})",
        t.kind.phrase(),
        sanitize_identifier(&t.stack),
        sanitize_identifier(&t.region)
    );
    let facts = format!(
        "account {label} · now: {} drift, {} potential drift",
        t.drift, t.potential
    );
    let mut blocks = vec![
        json!({"type": "header", "text": plain(&head, MAX_HEADER_TEXT)}),
        json!({"type": "context", "elements": [plain(&facts, MAX_SECTION_TEXT)]}),
    ];
    let shown = shown(t);
    let lines = shown.iter().map(|f| finding_text(f, &t.stack));
    push_capped(&mut blocks, lines, "in the JSON document");
    let fallback = format!(
        "realdrift: {} {} in account {label} ({} findings)",
        t.kind.phrase(),
        sanitize_identifier(&t.stack),
        shown.len()
    );
    sort_keys(&json!({"text": fit(&fallback, MAX_FALLBACK_TEXT), "blocks": blocks}))
}

/// Appends a section block per line while Slack's block limit leaves room,
/// and a last block counting the lines left out ("…and N more {where_more}").
fn push_capped(
    blocks: &mut Vec<Value>,
    lines: impl ExactSizeIterator<Item = String>,
    where_more: &str,
) {
    let total = lines.len();
    let room = MAX_BLOCKS.saturating_sub(blocks.len() + 1);
    let take = if total > room + 1 { room } else { total };
    for line in lines.take(take) {
        blocks.push(json!({"type": "section", "text": plain(&line, MAX_SECTION_TEXT)}));
    }
    if take < total {
        let tail = format!("…and {} more {where_more}", total - take);
        blocks.push(json!({"type": "context", "elements": [plain(&tail, MAX_SECTION_TEXT)]}));
    }
}

/// One Slack message for several alerts of one hub batch: a line each (the
/// alert's own Slack fallback line, already escaped and fitted), capped with
/// a count. Slack takes about one message a second per webhook, so a burst
/// posted alert by alert would hold the hub back; the topic keeps each
/// alert's details. `None` for no alerts.
pub fn hub_slack_digest(notices: &[Notice]) -> Option<Notice> {
    if notices.is_empty() {
        return None;
    }
    let head = format!("realdrift: {} alerts", notices.len());
    let mut blocks = vec![json!({"type": "header", "text": plain(&head, MAX_HEADER_TEXT)})];
    let lines = notices.iter().map(|n| {
        n.slack["text"]
            .as_str()
            .unwrap_or(n.subject.as_str())
            .to_string()
    });
    push_capped(&mut blocks, lines, "on the alert topic");
    let fallback = format!("{head} (each on the alert topic)");
    Some(Notice {
        kind: "digest".into(),
        subject: sns_subject(&head),
        document: String::new(),
        text: None,
        slack: sort_keys(&json!({"text": fit(&fallback, MAX_FALLBACK_TEXT), "blocks": blocks})),
    })
}

#[cfg(test)]
mod tests {
    use super::super::sns::{sns_envelope, MAX_MESSAGE_BYTES};
    use super::*;

    fn event(account: &str) -> Value {
        json!({
            "account": account, "source": "realdrift", "detail-type": "realdrift drift transition",
            "detail": {
                "version": 1, "kind": "drift-detected", "account": account, "region": "eu-west-1",
                "stack": "Payments", "summary": {"drift": 1, "potentialDrift": 0, "status": "drift"},
                "findings": [{"tier": "declared", "logicalId": "Bucket", "resourceType": "AWS::S3::Bucket",
                              "path": "VersioningConfiguration.Status", "desired": "Enabled", "actual": "Suspended"}],
                "findingsOmitted": 0
            }
        })
    }

    #[test]
    fn the_notice_names_the_account_in_every_form() {
        let t = parse_transition(&event("111111111111")).unwrap();
        let n = hub_notice(&t, Some("payments-prod"));
        assert_eq!(n.kind, "drift-detected");
        assert_eq!(
            n.subject,
            "realdrift: drift detected in Payments (payments-prod (111111111111) / eu-west-1)"
        );
        let doc: Value = serde_json::from_str(&n.document).unwrap();
        assert_eq!(doc["accountName"], "payments-prod");
        assert_eq!(doc["document"]["stack"], "Payments");
        let text = n.text.unwrap();
        assert!(
            text.contains("account payments-prod (111111111111)"),
            "{text}"
        );
        assert!(text.contains("VersioningConfiguration.Status"), "{text}");
        assert!(n.slack.to_string().contains("payments-prod (111111111111)"));
    }

    #[test]
    fn an_unknown_name_leaves_the_id_alone() {
        let t = parse_transition(&event("222222222222")).unwrap();
        let n = hub_notice(&t, None);
        let doc: Value = serde_json::from_str(&n.document).unwrap();
        assert_eq!(doc["accountName"], "");
        assert!(
            n.subject.contains("(222222222222 / eu-west-1)"),
            "{}",
            n.subject
        );
    }

    #[test]
    fn a_hostile_name_cannot_mention_or_link_in_slack() {
        let t = parse_transition(&event("111111111111")).unwrap();
        let n = hub_notice(&t, Some("<!channel> <https://evil.example|click>"));
        let slack = n.slack.to_string();
        assert!(!slack.contains("<!channel>"), "{slack}");
        assert!(!slack.contains("<https://"), "{slack}");
        assert!(slack.contains("&lt;!channel&gt;"), "{slack}");
    }

    #[test]
    fn a_document_too_big_for_sns_drops_findings_and_counts_them() {
        let mut e = event("111111111111");
        let big = "x".repeat(2_000);
        let many: Vec<Value> = (0..200)
            .map(|i| json!({"tier": "declared", "logicalId": format!("R{i}"), "resourceType": "AWS::S3::Bucket",
                            "path": "Tags", "desired": big, "actual": "y"}))
            .collect();
        e["detail"]["findings"] = json!(many);
        let n = hub_notice(&parse_transition(&e).unwrap(), Some("payments-prod"));
        let envelope = sns_envelope(&n.document, n.text.as_deref().unwrap());
        assert!(envelope.len() <= MAX_MESSAGE_BYTES, "{}", envelope.len());
        let doc: Value = serde_json::from_str(&n.document).unwrap();
        let kept = doc["document"]["findings"].as_array().unwrap().len() as u64;
        assert_eq!(
            kept + doc["document"]["findingsOmitted"].as_u64().unwrap(),
            200
        );
    }

    #[test]
    fn an_event_without_account_or_kind_is_refused() {
        let mut e = event("111111111111");
        e["account"] = json!("not-an-account");
        assert!(parse_transition(&e).is_err());
        let mut e = event("111111111111");
        e["detail"]["kind"] = json!("drift-exploded");
        assert!(parse_transition(&e).is_err());
    }

    #[test]
    fn a_batch_of_alerts_is_one_slack_message_with_a_line_each_capped() {
        let notices: Vec<Notice> = (0..60)
            .map(|i| {
                let t =
                    parse_transition(&event(&format!("{:012}", 100_000_000_000u64 + i))).unwrap();
                hub_notice(&t, Some("payments-prod"))
            })
            .collect();
        assert_eq!(hub_slack_digest(&[]), None);
        let three = hub_slack_digest(&notices[..3]).unwrap();
        let blocks = three.slack["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), 4, "a header and a line each");
        assert_eq!(blocks[0]["text"]["text"], "realdrift: 3 alerts");
        assert_eq!(blocks[2]["text"]["text"], notices[1].slack["text"]);
        let all = hub_slack_digest(&notices).unwrap();
        let blocks = all.slack["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), MAX_BLOCKS, "Slack's block limit");
        let last = blocks.last().unwrap().to_string();
        assert!(last.contains("…and 12 more on the alert topic"), "{last}");
        assert!(all.slack["text"]
            .as_str()
            .unwrap()
            .starts_with("realdrift: 60 alerts"));
    }
}
