//! Policy and list changes in alerts, said as what was added and removed,
//! on real shapes from the corpus: a trust policy that gained an account
//! principal, a security group rule removed, an inline policy added out of
//! band. Slack and email (the SNS text) both say it; snapshots hold both.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::corpus::replay_case;
use realdrift_core::report::{
    change_lines, render_email_text, render_slack_transition, Coverage, SnsKind, StackReport,
    MAX_TEXT_FINDINGS,
};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use support::*;

/// The corpus's Lambda service role, with an account principal added to
/// its trust policy out of band (what a console "edit trust policy" does).
fn trust_policy_opened() -> Vec<Finding> {
    let mut c = case("AWS__IAM__Role.WorkerServiceRole8543584E");
    c.live_raw["AssumeRolePolicyDocument"]["Statement"]
        .as_array_mut()
        .unwrap()
        .push(json!({"Effect": "Allow", "Action": "sts:AssumeRole",
                     "Principal": {"AWS": "arn:aws:iam::193672423079:root"}}));
    replay_case(&c)
        .into_iter()
        .filter(|f| f.tier.is_drift())
        .collect()
}

fn report(stack: &str, findings: Vec<Finding>) -> StackReport {
    StackReport {
        stack: stack.into(),
        account_id: Some(ACCOUNT.into()),
        region: REGION.into(),
        coverage: Coverage {
            total: 1,
            checked: 1,
            ..Coverage::default()
        },
        findings,
        ..StackReport::default()
    }
}

fn slack_sections(v: &Value) -> String {
    v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "section")
        .map(|b| b["text"]["text"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n---\n")
}

#[test]
fn a_principal_added_to_a_trust_policy_is_one_line_not_two_documents() {
    let findings = trust_policy_opened();
    assert!(!findings.is_empty(), "the change is drift");
    let r = report("CdkrdIntegHarvest2", findings.clone());
    let email = render_email_text(&r, SnsKind::DriftDetected, &findings, MAX_TEXT_FINDINGS);
    assert!(
        email.contains("+ principal account 193672423079 may assume Worker/ServiceRole"),
        "{email}"
    );
    assert!(!email.contains("\"Statement\""), "no JSON blob: {email}");
    let slack = slack_sections(&render_slack_transition(
        &r,
        SnsKind::DriftDetected,
        &findings,
    ));
    assert!(slack.contains("may assume Worker/ServiceRole"), "{slack}");
    insta::assert_snapshot!("trust_policy_email", email);
    insta::assert_snapshot!("trust_policy_slack", slack);
}

#[test]
fn a_removed_ingress_rule_and_an_added_inline_policy_read_as_members() {
    let sg = expected("AWS__EC2__SecurityGroup.SgIngressRemoved");
    let role = expected("AWS__IAM__Role.ServiceRole");
    let rule = sg
        .iter()
        .find(|f| f.path == "SecurityGroupIngress")
        .unwrap();
    assert_eq!(
        change_lines(
            "Sg",
            &rule.path,
            rule.desired.as_ref(),
            rule.actual.as_ref()
        ),
        Some(vec!["- 10.0.0.0/16 ingress tcp 22".to_string()])
    );
    let policies = role.iter().find(|f| f.path == "Policies").unwrap();
    assert_eq!(
        change_lines(
            "ServiceRole",
            &policies.path,
            policies.desired.as_ref(),
            policies.actual.as_ref()
        ),
        Some(vec!["+ policy ttttt: Allow s3:GetObject on *".to_string()])
    );
    let mut all = sg.clone();
    all.extend(role.iter().filter(|f| f.tier == Tier::Undeclared).cloned());
    let r = report("App", all.clone());
    let email = render_email_text(&r, SnsKind::DriftDetected, &all, MAX_TEXT_FINDINGS);
    insta::assert_snapshot!("members_email", email);
}

#[test]
fn untrusted_text_in_a_policy_cannot_format_or_mention_in_slack() {
    let f = {
        let mut f = Finding::new(
            Tier::Declared,
            "Role",
            "AWS::IAM::Role",
            "AssumeRolePolicyDocument",
        );
        f.desired = Some(json!({"Statement": []}));
        f.actual = Some(
            json!({"Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
            "Principal": {"AWS": "<!channel> \u{1b}[31m&evil"}}]}),
        );
        f
    };
    let r = report("App", vec![f.clone()]);
    let slack = slack_sections(&render_slack_transition(&r, SnsKind::DriftDetected, &[f]));
    assert!(slack.contains("&lt;!channel&gt;"), "{slack}");
    assert!(
        !slack.contains('\u{1b}') && !slack.contains("<!channel>"),
        "{slack}"
    );
}
