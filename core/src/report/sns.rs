//! SNS notifications: a documented JSON document plus a readable subject, or
//! the AWS Chatbot custom-notification shape.
//!
//! The document (docs/json-output.md, "SNS message"): `version`, `kind`
//! (drift-detected / drift-resolved / coverage-lost), `account`, `region`,
//! `stack`, `summary`, `coverage`, `findings`, `cause`. The subject is ASCII,
//! free of control characters and under 100 characters, as SNS requires.

use super::email::{render_email_text, MAX_TEXT_FINDINGS};
use super::model::{is_confirmed_drift, StackReport};
use super::not_compared::{coverage_sentence, MAX_NAMED};
use super::sanitize::{escape_json_text, render_value, sanitize_identifier};
use super::slack::slack_escape;
use super::text::cause_parts;
use crate::baseline::sort_keys;
use crate::finding::{Finding, Tier};
use crate::ignore::display_id;
use serde_json::{json, Value};

/// The SNS document version.
pub const SNS_VERSION: u64 = 1;
/// SNS subjects must be shorter than 100 characters.
pub const MAX_SUBJECT_CHARS: usize = 99;
/// Findings are dropped from the end of the document until the whole
/// publish (every protocol's copy) fits in this many bytes: SNS allows
/// 262,144 bytes per message, all protocol keys of a MessageStructure=json
/// publish together (SNS Publish API reference), so a margin stays.
pub const MAX_MESSAGE_BYTES: usize = 240 * 1024;

/// The subscription protocols that get the JSON document in a
/// MessageStructure=json publish; `default` and `email` get the text.
pub const JSON_PROTOCOLS: &[&str] = &["email-json", "sqs", "lambda", "http", "https", "firehose"];
/// Conservative caps for Chatbot custom notifications.
pub const CHATBOT_MAX_TITLE: usize = 250;
/// Conservative cap for the Chatbot description.
pub const CHATBOT_MAX_DESCRIPTION: usize = 8000;

/// The transition a notification announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnsKind {
    /// New drift.
    DriftDetected,
    /// Drift that was reported before is gone.
    DriftResolved,
    /// A read failed or was denied: part of the stack is no longer watched.
    CoverageLost,
    /// A read or listing lost before works again.
    CoverageRegained,
}

impl SnsKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            SnsKind::DriftDetected => "drift-detected",
            SnsKind::DriftResolved => "drift-resolved",
            SnsKind::CoverageLost => "coverage-lost",
            SnsKind::CoverageRegained => "coverage-regained",
        }
    }

    /// The kind a wire name names (`None` for any other text).
    pub fn parse(s: &str) -> Option<SnsKind> {
        [
            SnsKind::DriftDetected,
            SnsKind::DriftResolved,
            SnsKind::CoverageLost,
            SnsKind::CoverageRegained,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }

    /// The subject phrase, before the stack name.
    pub fn phrase(self) -> &'static str {
        match self {
            SnsKind::DriftDetected => "drift detected in",
            SnsKind::DriftResolved => "drift resolved in",
            SnsKind::CoverageLost => "coverage lost in",
            SnsKind::CoverageRegained => "coverage regained in",
        }
    }
}

/// An SNS publish: subject and message body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnsMessage {
    /// Subject (< 100 ASCII characters).
    pub subject: String,
    /// Message body (JSON text).
    pub message: String,
    /// The readable text for people (`default` and `email`), when the
    /// publish is per protocol (see [`sns_envelope`]).
    pub text: Option<String>,
}

/// The Message of a MessageStructure=json publish: `default` and `email`
/// carry `text`, every protocol in [`JSON_PROTOCOLS`] the JSON `document`
/// as it is published without a structure, so a subscriber that parses
/// the document gets exactly what it got before.
pub fn sns_envelope(document: &str, text: &str) -> String {
    let mut m = serde_json::Map::new();
    m.insert("default".into(), json!(text));
    m.insert("email".into(), json!(text));
    for p in JSON_PROTOCOLS {
        m.insert((*p).into(), json!(document));
    }
    escape_json_text(&serde_json::to_string(&Value::Object(m)).unwrap_or_default())
}

/// An SNS-safe subject: printable ASCII only, cut below 100 characters.
pub fn sns_subject(text: &str) -> String {
    let ascii: String = text
        .chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .collect();
    let trimmed = ascii.trim();
    if trimmed.chars().count() <= MAX_SUBJECT_CHARS {
        return trimmed.to_string();
    }
    let mut s: String = trimmed.chars().take(MAX_SUBJECT_CHARS - 3).collect();
    s.push_str("...");
    s
}

fn subject_for(r: &StackReport, kind: SnsKind) -> String {
    sns_subject(&format!(
        "realdrift: {} {} ({})",
        kind.phrase(),
        r.stack,
        r.region
    ))
}

/// The first cause among the findings (the event that triggered an on-change run).
fn first_cause(findings: &[Finding]) -> Value {
    findings
        .iter()
        .find_map(|f| f.cause.as_ref())
        .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
        .unwrap_or(Value::Null)
}

/// The SNS JSON document for one stack's transition.
pub fn sns_document(r: &StackReport, kind: SnsKind) -> Value {
    transition_document(r, kind, &r.findings)
}

/// The SNS JSON document of a transition whose findings are `findings`
/// (masked with the report's policy), beside the stack's current summary
/// and coverage from `r`.
pub fn transition_document(r: &StackReport, kind: SnsKind, findings: &[Finding]) -> Value {
    let s = r.summary();
    let findings: Vec<Finding> = super::mask::mask_findings(findings, &r.masks)
        .into_iter()
        .filter(|f| !matches!(f.tier, Tier::AtDefault | Tier::Generated))
        .collect();
    let mut drift_by_tier = serde_json::Map::new();
    for (t, n) in &s.drift_by_tier {
        drift_by_tier.insert(t.as_str().into(), json!(n));
    }
    json!({
        "version": SNS_VERSION,
        "kind": kind.as_str(),
        "account": r.account_id,
        "region": r.region,
        "stack": r.stack,
        "summary": {
            "drift": s.drift,
            "driftByTier": drift_by_tier,
            "potentialDrift": s.potential,
            "status": s.verdict().as_str(),
        },
        "coverage": super::json::coverage_json(r),
        "cause": first_cause(&findings),
        "resources": super::group::resources_value(&findings, &r.stack),
        "findings": findings,
        "findingsOmitted": 0,
    })
}

/// The SNS publish for one stack's transition (our JSON document).
pub fn render_sns(r: &StackReport, kind: SnsKind) -> SnsMessage {
    render_transition(r, kind, &r.findings)
}

/// The SNS publish of a transition whose findings are `findings`, beside
/// the stack's current summary and coverage from `r`.
pub fn render_transition(r: &StackReport, kind: SnsKind, findings: &[Finding]) -> SnsMessage {
    render_storm(r, kind, findings, None)
}

/// [`render_transition`] of a storm's findings: the document gets a
/// `storm` object, the text the burst's sentence under its first line.
pub fn render_storm(
    r: &StackReport,
    kind: SnsKind,
    findings: &[Finding],
    burst: Option<&super::Burst>,
) -> SnsMessage {
    let mut doc = transition_document(r, kind, findings);
    let mut text = render_email_text(r, kind, findings, MAX_TEXT_FINDINGS);
    if let Some(b) = burst {
        doc["storm"] = b.json();
        let at = text.find("\n\n").map_or(text.len(), |i| i + 2);
        text.insert_str(at, &format!("{}\n\n", b.sentence()));
    }
    let message = fit_to_sns(&mut doc, &text, to_text);
    SnsMessage {
        subject: subject_for(r, kind),
        message,
        text: Some(text),
    }
}

/// The rendered document, findings dropped from the end of `doc` (and
/// counted in `findingsOmitted`) until the whole publish with `text` fits
/// the SNS size limit.
pub(crate) fn fit_to_sns(doc: &mut Value, text: &str, render: impl Fn(&Value) -> String) -> String {
    let mut message = render(doc);
    while sns_envelope(&message, text).len() > MAX_MESSAGE_BYTES {
        let Some(list) = doc.get_mut("findings").and_then(Value::as_array_mut) else {
            break;
        };
        if list.is_empty() {
            break;
        }
        let drop = list.len().div_ceil(4);
        list.truncate(list.len() - drop);
        let omitted = doc["findingsOmitted"].as_u64().unwrap_or(0) + drop as u64;
        doc["findingsOmitted"] = json!(omitted);
        message = render(doc);
    }
    message
}

fn to_text(doc: &Value) -> String {
    escape_json_text(&serde_json::to_string(&sort_keys(doc)).unwrap_or_default())
}

fn cap(s: &str, limit: usize) -> String {
    if s.chars().count() <= limit {
        return s.to_string();
    }
    let mut t: String = s.chars().take(limit.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// Text for Chatbot markdown: Slack-escaped, with backticks neutralized so a
/// value cannot leave its code span.
fn md_code(s: &str) -> String {
    format!("`{}`", slack_escape(&s.replace('`', "ˋ")))
}

/// The publish in the AWS Chatbot custom-notification shape (for Chatbot-subscribed topics).
pub fn render_chatbot(r: &StackReport, kind: SnsKind) -> SnsMessage {
    let s = r.summary();
    let findings: Vec<Finding> = r
        .masked_findings()
        .into_iter()
        .filter(|f| is_confirmed_drift(f) || kind != SnsKind::DriftDetected)
        .filter(|f| !matches!(f.tier, Tier::AtDefault | Tier::Generated))
        .collect();
    let stack = sanitize_identifier(&r.stack);
    let region = sanitize_identifier(&r.region);
    let title = format!(":warning: realdrift: {} {stack} ({region})", kind.phrase());
    let mut lines = vec![format!(
        "{} drift ({}), {} potential drift; {}",
        s.drift,
        if s.drift_breakdown().is_empty() {
            "none".into()
        } else {
            s.drift_breakdown()
        },
        s.potential,
        slack_escape(&coverage_sentence(
            &r.stack,
            &r.coverage,
            &r.not_compared,
            MAX_NAMED
        ))
    )];
    for f in &findings {
        let id = sanitize_identifier(display_id(f, &r.stack));
        let target = if f.path.is_empty() {
            id
        } else {
            format!("{id}.{}", sanitize_identifier(&f.path))
        };
        let show = |v: &Option<Value>| {
            v.as_ref()
                .map(render_value)
                .unwrap_or_else(|| "(absent)".into())
        };
        let change = match (&f.desired, f.tier) {
            (_, Tier::Deleted) => "resource deleted".to_string(),
            (None, _) => format!("live {}", md_code(&show(&f.actual))),
            (Some(_), _) => format!(
                "{} → {}",
                md_code(&show(&f.desired)),
                md_code(&show(&f.actual))
            ),
        };
        let mut line = format!("• {} [{}] {change}", md_code(&target), f.tier);
        if let Some(c) = f.cause.as_ref().and_then(cause_parts) {
            line.push_str(&format!(" — {}", md_code(&sanitize_identifier(&c))));
        }
        lines.push(line);
    }
    let mut related: Vec<Value> = Vec::new();
    for p in findings.iter().filter_map(|f| f.physical_id.as_deref()) {
        let v = json!(cap(&sanitize_identifier(p), 256));
        if !related.contains(&v) && related.len() < 5 {
            related.push(v);
        }
    }
    let doc = json!({
        "version": "1.0",
        "source": "custom",
        "content": {
            "textType": "client-markdown",
            "title": cap(&slack_escape(&title), CHATBOT_MAX_TITLE),
            "description": cap(&lines.join("\n"), CHATBOT_MAX_DESCRIPTION),
            "keywords": ["realdrift", kind.as_str()],
        },
        "metadata": {
            "summary": cap(&format!("realdrift {} {stack}", kind.as_str()), CHATBOT_MAX_TITLE),
            "eventType": kind.as_str(),
            "relatedResources": related,
            "additionalContext": {
                "account": r.account_id.as_deref().map(sanitize_identifier),
                "region": region,
                "stack": stack,
            },
        },
    });
    SnsMessage {
        subject: subject_for(r, kind),
        message: to_text(&doc),
        text: None,
    }
}
