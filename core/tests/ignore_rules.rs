//! Ignore rules: the file format, strict validation with line and column,
//! the three match targets, parent paths, scopes, re-tagging, and appending
//! that keeps the user's comments and order.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::ignore::{
    add_ignore_rules, apply_ignores, parse_rules, rule_for_finding, IgnoreConfig, IgnoreError,
    IgnoreRule, IgnoreScope, NEW_FILE_HEADER,
};
use realdrift_core::{Finding, Tier};
use support::*;

const SEED_EXAMPLE: &str = "\
# realdrift ignore rules — properties realdrift should stop reporting as drift.
ignore:
  # DesiredCount is managed by Application Auto Scaling
  - path: '*.DesiredCount' # unscoped — any stack/account/region/logical id
  - path: Fn*.ReservedConcurrentExecutions # stack + account + region scoped
    stack: Prod*
    account: '111111111111'
    region: ap-northeast-1
  - path: '*.DesiredCount' # region-scoped (independent axis)
    region: us-*
";

const MATRIX: &str = "AWS__Lambda__Function.MatrixFn0598BE1E.drifted";
const HANDLER: &str = "AWS__Lambda__Function.Handler.drifted";
const ATHENA: &str = "AWS__Athena__WorkGroup.WgDescend.drifted";
const POLICY: &str = "AWS__IAM__ManagedPolicy.SharedUnionInventory";

fn scope(stack: &str) -> IgnoreScope {
    IgnoreScope::new(stack, ACCOUNT, REGION)
}

fn ignored_paths(fs: &[Finding]) -> Vec<String> {
    fs.iter()
        .filter(|f| f.tier == Tier::Ignored)
        .map(|f| format!("{}.{}", f.logical_id, f.path))
        .collect()
}

fn cfg(text: &str) -> IgnoreConfig {
    IgnoreConfig::parse("baselines/ignore.yaml", text).unwrap()
}

#[test]
fn the_documented_example_parses() {
    let rules = parse_rules("ignore.yaml", SEED_EXAMPLE).unwrap();
    assert_eq!(rules.len(), 3);
    assert_eq!(rules[0], IgnoreRule::new("*.DesiredCount"));
    assert_eq!(rules[1].stack.as_deref(), Some("Prod*"));
    assert_eq!(rules[1].account.as_deref(), Some("111111111111"));
    assert_eq!(rules[2].region.as_deref(), Some("us-*"));
}

#[test]
fn an_unquoted_account_keeps_its_leading_zero() {
    let rules = parse_rules("f", "ignore:\n- path: X.Y\n  account: 012345678901\n").unwrap();
    assert_eq!(rules[0].account.as_deref(), Some("012345678901"));
}

#[test]
fn empty_and_comment_only_files_have_no_rules() {
    for text in [
        "",
        "# nothing yet\n",
        "ignore:\n",
        "ignore: []\n",
        "ignore: ~\n",
    ] {
        assert!(parse_rules("f", text).unwrap().is_empty(), "{text:?}");
    }
}

fn err_at(text: &str) -> (usize, usize, String) {
    match parse_rules("baselines/ignore.yaml", text).unwrap_err() {
        IgnoreError::Syntax {
            line,
            column,
            message,
            ..
        }
        | IgnoreError::Invalid {
            line,
            column,
            message,
            ..
        } => (line, column, message),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn malformed_files_are_errors_with_line_and_column() {
    // A typo must not silently disable every rule.
    let (l, c, m) = err_at("# rules\nignroe:\n  - path: x\n");
    assert_eq!((l, c), (2, 1));
    assert!(m.contains("ignroe"), "{m}");
    let (l, c, _) = err_at("ignore:\n  - path: [unclosed\n");
    assert!(l >= 2 && c >= 1);
    let (l, c, m) = err_at("ignore:\n  - path: a\n    regoin: us-*\n");
    assert_eq!((l, c), (3, 5));
    assert!(m.contains("regoin"));
    let (l, _, m) = err_at("ignore: '*.DesiredCount'\n");
    assert_eq!(l, 1);
    assert!(m.contains("must be a list"), "{m}");
    let (l, _, m) = err_at("ignore:\n  - '*.DesiredCount'\n");
    assert_eq!(l, 2);
    assert!(m.contains("mapping"), "{m}");
    let (_, _, m) = err_at("ignore:\n  - stack: Prod\n");
    assert!(m.contains("path"), "{m}");
    let (_, _, m) = err_at("ignore:\n  - path:\n      nested: x\n");
    assert!(m.contains("text value"), "{m}");
    let e = parse_rules("baselines/ignore.yaml", "ignroe: []\n").unwrap_err();
    assert!(
        e.to_string().starts_with("baselines/ignore.yaml:1:1:"),
        "{e}"
    );
}

#[test]
fn rules_match_logical_id_construct_path_and_full_path() {
    let findings = findings_of(&[MATRIX]);
    let stack = "CdkrdIntegHarvest3";
    for rule in [
        "MatrixFn0598BE1E.MemorySize",
        "MatrixFn.MemorySize",
        "CdkrdIntegHarvest3/MatrixFn.MemorySize",
        "*.MemorySize",
        "Matrix??.MemorySize",
    ] {
        let out = apply_ignores(
            findings.clone(),
            &scope(stack),
            &cfg(&format!("ignore:\n  - path: '{rule}'\n")),
        );
        assert_eq!(
            ignored_paths(&out),
            vec!["MatrixFn0598BE1E.MemorySize"],
            "rule {rule}"
        );
        let f = out.iter().find(|f| f.tier == Tier::Ignored).unwrap();
        assert!(f
            .note
            .as_deref()
            .unwrap()
            .contains("declared finding ignored by rule"));
    }
    for miss in [
        "MatrixFn",
        "Matrix.MemorySize",
        "MatrixFn.Memory",
        "Other/MatrixFn.MemorySize",
    ] {
        let out = apply_ignores(
            findings.clone(),
            &scope(stack),
            &cfg(&format!("ignore:\n  - path: '{miss}'\n")),
        );
        assert!(ignored_paths(&out).is_empty(), "rule {miss} must not match");
    }
}

#[test]
fn a_parent_path_covers_its_children() {
    let findings = findings_of(&[ATHENA]);
    let out = apply_ignores(
        findings,
        &scope("S"),
        &cfg("ignore:\n  - path: WgDescend.WorkGroupConfiguration\n"),
    );
    assert_eq!(
        ignored_paths(&out),
        vec!["WgDescend.WorkGroupConfiguration.BytesScannedCutoffPerQuery"]
    );
}

#[test]
fn identity_keyed_paths_match_literally() {
    let findings = findings_of(&[POLICY]);
    let out = apply_ignores(
        findings.clone(),
        &scope("IntegStack"),
        &cfg("ignore:\n  - path: 'Shared.Roles[RoleFromElsewhere]'\n"),
    );
    assert_eq!(
        ignored_paths(&out),
        vec!["SharedABCD1234.Roles[RoleFromElsewhere]"]
    );
    let out = apply_ignores(
        findings,
        &scope("IntegStack"),
        &cfg("ignore:\n  - path: Shared.Roles\n"),
    );
    assert_eq!(
        ignored_paths(&out).len(),
        1,
        "parent covers an identity-keyed child"
    );
}

#[test]
fn scopes_restrict_by_stack_account_and_region() {
    let findings = findings_of(&[HANDLER]);
    let rule = "ignore:\n  - path: '*.ReservedConcurrentExecutions'\n    stack: Prod*\n    account: '111111111111'\n    region: us-*\n";
    let hit = apply_ignores(
        findings.clone(),
        &IgnoreScope::new("ProdApi", ACCOUNT, "us-east-1"),
        &cfg(rule),
    );
    assert_eq!(ignored_paths(&hit).len(), 1);
    for s in [
        IgnoreScope::new("DevApi", ACCOUNT, "us-east-1"),
        IgnoreScope::new("ProdApi", "222222222222", "us-east-1"),
        IgnoreScope::new("ProdApi", ACCOUNT, "eu-west-1"),
    ] {
        assert!(
            ignored_paths(&apply_ignores(findings.clone(), &s, &cfg(rule))).is_empty(),
            "{s:?}"
        );
    }
}

#[test]
fn deleted_and_informational_findings_are_never_retagged() {
    let mut findings = findings_of(&[HANDLER]);
    findings.push(Finding::new(
        Tier::Deleted,
        "Handler",
        "AWS::Lambda::Function",
        "",
    ));
    let out = apply_ignores(
        findings.clone(),
        &scope("S"),
        &cfg("ignore:\n  - path: '*'\n  - path: 'Handler*'\n"),
    );
    let tiers: Vec<Tier> = out.iter().map(|f| f.tier).collect();
    assert!(tiers.contains(&Tier::Deleted));
    assert!(tiers.contains(&Tier::Unresolved));
    assert!(tiers.contains(&Tier::AtDefault));
    assert_eq!(
        ignored_paths(&out),
        vec!["Handler.ReservedConcurrentExecutions"]
    );
}

#[test]
fn an_unrecorded_value_can_be_ignored() {
    let mut findings = findings_of(&[HANDLER]);
    for f in &mut findings {
        if f.tier == Tier::Undeclared {
            f.unrecorded = true;
        }
    }
    let out = apply_ignores(
        findings,
        &scope("S"),
        &cfg("ignore:\n  - path: Handler.ReservedConcurrentExecutions\n"),
    );
    let f = out.iter().find(|f| f.tier == Tier::Ignored).unwrap();
    assert!(!f.unrecorded);
}

#[test]
fn appending_keeps_comments_order_and_dedupes() {
    let new = vec![
        IgnoreRule::new("*.DesiredCount"), // already there
        IgnoreRule {
            path: "MatrixFn.MemorySize".into(),
            stack: Some("CdkrdIntegHarvest3".into()),
            account: Some(ACCOUNT.into()),
            region: Some(REGION.into()),
        },
        IgnoreRule::new("MatrixFn.MemorySize"),
        IgnoreRule::new("MatrixFn.MemorySize"), // twice in one call
    ];
    let out = add_ignore_rules("baselines/ignore.yaml", Some(SEED_EXAMPLE), &new).unwrap();
    assert!(
        out.text.starts_with(SEED_EXAMPLE),
        "existing text untouched:\n{}",
        out.text
    );
    assert_eq!(out.added.len(), 2);
    assert_eq!(out.duplicates.len(), 2);
    let rules = parse_rules("f", &out.text).unwrap();
    assert_eq!(rules.len(), 5);
    assert_eq!(rules[3].path, "MatrixFn.MemorySize");
    assert_eq!(rules[3].stack.as_deref(), Some("CdkrdIntegHarvest3"));
    assert!(
        out.text.ends_with("  - path: 'MatrixFn.MemorySize'\n"),
        "{}",
        out.text
    );
    // Idempotent.
    let again = add_ignore_rules("f", Some(&out.text), &new).unwrap();
    assert_eq!(again.text, out.text);
    assert!(again.added.is_empty());
}

#[test]
fn appending_to_missing_empty_flow_and_indentless_files() {
    let r = vec![IgnoreRule::new("*.DesiredCount")];
    let fresh = add_ignore_rules("f", None, &r).unwrap();
    assert!(fresh.text.starts_with(NEW_FILE_HEADER));
    assert_eq!(parse_rules("f", &fresh.text).unwrap(), r);
    for text in [
        "ignore:\n",
        "ignore: []\n",
        "ignore: ~\n",
        "# only a comment",
        "ignore: [{path: a}, {path: b, region: us-*}]\n",
    ] {
        let out = add_ignore_rules("f", Some(text), &r).unwrap();
        let rules = parse_rules("f", &out.text).unwrap();
        assert_eq!(rules.last(), Some(&r[0]), "{text:?} -> {}", out.text);
    }
    let flow = add_ignore_rules(
        "f",
        Some("ignore: [{path: a}, {path: b, region: us-*}]\n"),
        &r,
    )
    .unwrap();
    assert_eq!(parse_rules("f", &flow.text).unwrap().len(), 3);
    let indentless = "ignore:\n# keep me\n- path: a\n";
    let out = add_ignore_rules("f", Some(indentless), &r).unwrap();
    assert_eq!(
        out.text,
        "ignore:\n# keep me\n- path: a\n- path: '*.DesiredCount'\n"
    );
}

#[test]
fn appended_rules_round_trip_awkward_text() {
    let r = vec![
        IgnoreRule::new("it's \"odd\" #not-a-comment: [x]"),
        IgnoreRule::new("tab\there"),
    ];
    let out = add_ignore_rules("f", Some(SEED_EXAMPLE), &r).unwrap();
    assert_eq!(&parse_rules("f", &out.text).unwrap()[3..], &r[..]);
}

#[test]
fn appending_to_a_malformed_file_is_an_error_and_writes_nothing() {
    let r = vec![IgnoreRule::new("x")];
    assert!(add_ignore_rules("f", Some("ignroe: []\n"), &r).is_err());
    assert!(add_ignore_rules("f", Some("ignore: [\n"), &r).is_err());
}

#[test]
fn the_rule_for_a_finding_is_what_the_report_prints() {
    let f = findings_of(&[MATRIX])
        .into_iter()
        .find(|f| f.tier == Tier::Declared)
        .unwrap();
    let s = scope("CdkrdIntegHarvest3");
    let unscoped = rule_for_finding(&f, &s, false);
    assert_eq!(unscoped, IgnoreRule::new("MatrixFn.MemorySize"));
    let scoped = rule_for_finding(&f, &s, true);
    assert_eq!(scoped.stack.as_deref(), Some("CdkrdIntegHarvest3"));
    assert_eq!(scoped.account.as_deref(), Some(ACCOUNT));
    // Glob characters in a path are escaped, so the rule matches only itself.
    let mut odd = f.clone();
    odd.path = "Tags[a*b]".into();
    let rule = rule_for_finding(&odd, &s, false);
    assert_eq!(rule.path, "MatrixFn.Tags[a\\*b]");
    let config = IgnoreConfig::from_rules(vec![rule]).unwrap();
    assert!(config.rule_for(&odd, &s).is_some());
    let mut other = odd.clone();
    other.path = "Tags[aXXb]".into();
    assert!(config.rule_for(&other, &s).is_none());
}

#[test]
fn blank_paths_and_scopes_are_refused() {
    for text in [
        "ignore:\n  - path: '   '\n",
        "ignore:\n  - path: 'a'\n    account: ''\n",
        "ignore:\n  - path: 'a'\n    region: ' '\n",
    ] {
        let (line, _, msg) = err_at(text);
        assert_eq!(line, 2, "{text}");
        assert!(msg.contains("empty") || msg.contains("non-empty"), "{msg}");
    }
    let unscoped = IgnoreRule {
        account: Some(String::new()),
        ..IgnoreRule::new("a")
    };
    assert!(IgnoreConfig::from_rules(vec![unscoped]).is_err());
}

#[test]
fn size_and_rule_count_are_limited() {
    use realdrift_core::ignore::{MAX_IGNORE_FILE_BYTES, MAX_IGNORE_RULES};
    let mut many = String::from("ignore:\n");
    for i in 0..=MAX_IGNORE_RULES {
        many.push_str(&format!("- path: R{i}\n"));
    }
    assert!(many.len() < MAX_IGNORE_FILE_BYTES);
    let err = parse_rules("b/ignore.yaml", &many).unwrap_err();
    assert!(
        matches!(err, IgnoreError::TooLarge { .. }) && err.to_string().contains("b/ignore.yaml"),
        "{err}"
    );
    let huge = format!("# {}\nignore: []\n", "x".repeat(MAX_IGNORE_FILE_BYTES));
    let err = parse_rules("b/ignore.yaml", &huge).unwrap_err();
    assert!(matches!(err, IgnoreError::TooLarge { .. }), "{err}");
}

#[test]
fn the_largest_allowed_file_loads_and_matches_quickly() {
    use realdrift_core::ignore::MAX_IGNORE_RULES;
    // 10,000 rules that never match: every finding is tried against all of them.
    let mut text = String::from("ignore:\n");
    for i in 0..MAX_IGNORE_RULES {
        text.push_str(&format!("- path: '*.NeverSeen{i}*'\n  stack: 'Prod*'\n"));
    }
    let config = cfg(&text);
    assert_eq!(config.rules.len(), MAX_IGNORE_RULES);
    let findings: Vec<Finding> = (0..200)
        .map(|i| {
            Finding::new(
                Tier::Undeclared,
                "Fn",
                "AWS::Lambda::Function",
                format!("Tags[k{i}].Value"),
            )
        })
        .collect();
    let out = apply_ignores(
        findings,
        &IgnoreScope::new("Prod-App", ACCOUNT, REGION),
        &config,
    );
    assert!(ignored_paths(&out).is_empty());
}

#[test]
fn deeply_nested_yaml_is_an_error_not_a_crash() {
    for depth in [100, 100_000] {
        let deep = format!("ignore: {}{}\n", "[".repeat(depth), "]".repeat(depth));
        let err = parse_rules("ignore.yaml", &deep).unwrap_err().to_string();
        assert!(
            err.contains("nested deeper") || err.contains("recursion limit"),
            "{err}"
        );
    }
}

#[test]
fn a_printed_path_pasted_into_a_rule_matches_that_path() {
    use realdrift_core::report::escape_identifier;
    let hostile = "Tags[a\u{1b}[31m\\b\u{202e}c].Value";
    let f = Finding::new(Tier::Undeclared, "Bucket", "AWS::S3::Bucket", hostile);
    // What the text report prints for the finding, pasted as the rule's path.
    let printed = format!(
        "{}.{}",
        escape_identifier("Bucket"),
        escape_identifier(hostile)
    );
    assert!(!printed.contains('\u{1b}') && !printed.contains('\u{202e}'));
    let config = IgnoreConfig::from_rules(vec![IgnoreRule::new(&printed)]).unwrap();
    let out = apply_ignores(vec![f], &scope("App"), &config);
    assert_eq!(ignored_paths(&out), vec![format!("Bucket.{hostile}")]);
}

#[test]
fn accept_rules_need_a_type_and_a_reason_and_keep_appending_safe() {
    let text = "# types we know realdrift cannot read\naccept:\n  - type: AWS::DAX::*\n    reason: no read API; checked by the DAX team's own audit\n    region: eu-*\nignore:\n  - path: '*.DesiredCount'\n";
    let c = IgnoreConfig::parse("baselines/ignore.yaml", text).unwrap();
    assert_eq!(c.accepts.len(), 1);
    assert_eq!(c.rules.len(), 1);
    let scope = IgnoreScope::new("App", "111111111111", "eu-west-1");
    assert!(c.accepts[0].accepts("AWS::DAX::Cluster", &scope));
    assert!(!c.accepts[0].accepts(
        "AWS::DAX::Cluster",
        &IgnoreScope::new("App", "1", "us-east-1")
    ));
    for (bad, says) in [
        (
            "accept:\n  - type: AWS::X::Y\n",
            "needs a 'type' and a 'reason'",
        ),
        (
            "accept:\n  - type: AWS::X::Y\n    reason: ''\n",
            "non-empty",
        ),
        (
            "accept:\n  - type: AWS::X::Y\n    reason: r\n    why: x\n",
            "unknown accept key",
        ),
        ("accept: {}\n", "must be a list"),
    ] {
        let e = IgnoreConfig::parse("f", bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?}: {e}");
    }
    // Appending writes at the end: an accept list after the ignore list is
    // refused by name, one above it is kept as written.
    let after = "ignore:\n  - path: A.B\naccept:\n  - type: AWS::X::Y\n    reason: r\n";
    let e = add_ignore_rules("f", Some(after), &[IgnoreRule::new("C.D")]).unwrap_err();
    assert!(e.to_string().contains("move the 'accept' list"), "{e}");
    let out = add_ignore_rules("f", Some(text), &[IgnoreRule::new("C.D")]).unwrap();
    assert!(out.text.starts_with(text), "{}", out.text);
    assert_eq!(
        IgnoreConfig::parse("f", &out.text).unwrap().accepts.len(),
        1
    );
}
