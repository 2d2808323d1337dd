//! Properties: the sanitizers never emit a control character, whatever the
//! input; a Slack payload never exceeds Slack's limits and never carries an
//! unescaped `<`, `>` or `&`; the JSON report always parses back to the
//! (masked) findings; SNS subjects are always valid.

use proptest::prelude::*;
use realdrift_core::report::{
    is_unsafe_char, render_json, render_slack, render_sns, render_text, render_value,
    sanitize_identifier, Coverage, ExitFlags, MaskPolicy, SnsKind, StackReport, TextOptions,
    MAX_BLOCKS, MAX_HEADER_TEXT, MAX_IDENTIFIER_CHARS, MAX_SECTION_TEXT,
};
use realdrift_core::{Finding, Tier};
use serde_json::Value;

/// Fragments that cause trouble; a fragment index past the end means "any char".
const ATOMS: [&str; 28] = [
    "\u{1b}[2J",
    "\u{1b}]8;;http://x\u{7}",
    "\u{1b}",
    "\u{9b}",
    "\n",
    "\r",
    "\t",
    "\u{202e}",
    "\u{2066}",
    "\u{2028}",
    "\u{200b}",
    "\u{7f}",
    "<!channel>",
    "<http://evil|x>",
    "&amp;",
    "→",
    "->",
    "{{resolve:secretsmanager:x}}",
    "***",
    "Bucket",
    "Policies",
    ".",
    "/",
    " ",
    "Prod-Api",
    "arn:aws:s3:::b",
    "[id]",
    "*",
];

/// Strings rich in the characters that cause trouble (built from indices: cheap to generate).
fn nasty() -> impl Strategy<Value = String> {
    prop::collection::vec((0..ATOMS.len() + 6, any::<char>()), 0..8).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(i, c)| {
                ATOMS
                    .get(i)
                    .map(|a| a.to_string())
                    .unwrap_or_else(|| c.to_string())
            })
            .collect()
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        nasty().prop_map(Value::String),
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(nasty(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn tier() -> impl Strategy<Value = Tier> {
    prop::sample::select(Tier::ALL.to_vec())
}

fn finding() -> impl Strategy<Value = Finding> {
    (
        tier(),
        nasty(),
        nasty(),
        nasty(),
        prop::option::of(nasty()),
        prop::option::of(
            json_value().prop_filter("a top-level null reads back as absent", |v| !v.is_null()),
        ),
        prop::option::of(
            json_value().prop_filter("a top-level null reads back as absent", |v| !v.is_null()),
        ),
        prop::option::of(nasty()),
        any::<bool>(),
    )
        .prop_map(
            |(tier, id, ty, path, cp, desired, actual, note, unrecorded)| {
                let mut f = Finding::new(tier, id, ty, path);
                f.construct_path = cp;
                f.desired = desired;
                f.actual = actual;
                f.note = note;
                f.unrecorded = unrecorded;
                f
            },
        )
}

fn report() -> impl Strategy<Value = StackReport> {
    (
        nasty(),
        nasty(),
        prop::collection::vec(finding(), 0..60),
        0usize..6,
        prop::option::of(nasty()),
    )
        .prop_map(|(stack, region, findings, total, error)| StackReport {
            stack,
            account_id: Some("111111111111".into()),
            region,
            coverage: Coverage::from_findings(total, &findings, 0),
            findings,
            error,
            masks: MaskPolicy::default(),
            ..StackReport::default()
        })
}

fn texts(v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            let kind = m
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            for (k, x) in m {
                if k == "text" {
                    if let Some(s) = x.as_str() {
                        out.push((kind.clone(), s.to_string()));
                    }
                }
                texts(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        _ => {}
    }
}

fn entity_safe(s: &str) -> bool {
    if s.contains('<') || s.contains('>') {
        return false;
    }
    s.match_indices('&').all(|(i, _)| {
        let rest = &s[i..];
        rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn identifiers_never_carry_unsafe_characters(s in nasty()) {
        let out = sanitize_identifier(&s);
        prop_assert!(!out.chars().any(is_unsafe_char), "{:?}", out);
        prop_assert!(out.chars().count() <= MAX_IDENTIFIER_CHARS + 3);
    }

    #[test]
    fn values_never_carry_unsafe_characters_or_loose_arrows(v in json_value()) {
        let out = render_value(&v);
        prop_assert!(!out.chars().any(is_unsafe_char), "{:?}", out);
        let plain = !out.starts_with('"') && !matches!(v, Value::Object(_) | Value::Array(_));
        if plain {
            prop_assert!(!out.contains("->") && !out.contains('→'));
        }
    }

    #[test]
    fn text_reports_never_carry_unsafe_characters(reports in prop::collection::vec(report(), 1..3), verbose in any::<bool>()) {
        let out = render_text(&reports, TextOptions { color: false, verbose });
        prop_assert!(!out.chars().any(|c| c != '\n' && is_unsafe_char(c)));
        prop_assert_eq!(out.lines().filter(|l| l.starts_with("result: ")).count(), reports.len());
    }

    #[test]
    fn slack_payloads_stay_within_limits(reports in prop::collection::vec(report(), 1..4)) {
        let payload = render_slack(&reports);
        let blocks = payload["blocks"].as_array().unwrap();
        prop_assert!(blocks.len() <= MAX_BLOCKS);
        let mut all = Vec::new();
        texts(&payload, &mut all);
        for (kind, t) in &all {
            let limit = if kind == "header" { MAX_HEADER_TEXT } else { MAX_SECTION_TEXT };
            prop_assert!(t.chars().count() <= limit, "{} chars in {}", t.chars().count(), kind);
            prop_assert!(entity_safe(t), "unescaped text {:?}", t);
            prop_assert!(!t.chars().any(|c| c != '\n' && is_unsafe_char(c)), "{:?}", t);
        }
        for b in blocks {
            if b["type"] == "header" {
                prop_assert!(!b["text"]["text"].as_str().unwrap().contains('\n'));
            }
        }
    }

    #[test]
    fn json_reports_parse_back_to_the_findings(reports in prop::collection::vec(report(), 1..3)) {
        let out = render_json(&reports, ExitFlags::default());
        prop_assert!(!out.chars().any(|c| c != '\n' && is_unsafe_char(c)));
        let v: Value = serde_json::from_str(&out).unwrap();
        for (r, s) in reports.iter().zip(v["stacks"].as_array().unwrap()) {
            let back: Vec<Finding> = serde_json::from_value(s["findings"].clone()).unwrap();
            prop_assert_eq!(back, r.masked_findings());
        }
    }

    #[test]
    fn sns_subjects_are_short_printable_ascii(r in report()) {
        let msg = render_sns(&r, SnsKind::DriftDetected);
        prop_assert!(msg.subject.chars().count() < 100);
        prop_assert!(msg.subject.chars().all(|c| (' '..='~').contains(&c)));
        prop_assert!(serde_json::from_str::<Value>(&msg.message).is_ok());
    }
}
