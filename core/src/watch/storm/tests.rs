use super::*;
use crate::baseline::StackIdentity;
use crate::finding::Tier;
use crate::report::{StackReport, MAX_TEXT_FINDINGS};
use crate::watch::{notices, StackState};
use serde_json::json;

const SEC: u64 = 1_000;
const T0: u64 = 1_800_000_000_000;

/// A one-minute window, so the tests' timings read in seconds.
fn policy() -> StormPolicy {
    StormPolicy {
        window_ms: 60 * SEC,
        threshold: 10,
    }
}

fn finding(id: usize, actual: &str) -> Finding {
    let mut f = Finding::new(
        Tier::Declared,
        format!("Queue{id}"),
        "AWS::SQS::Queue",
        "DelaySeconds",
    );
    f.desired = Some(json!("0"));
    f.actual = Some(json!(actual));
    f
}

/// The drift set after the checks: every key in `findings`.
fn drifting(findings: &[Finding]) -> BTreeMap<DriftKey, Finding> {
    findings.iter().map(|f| (key_of(f), f.clone())).collect()
}

fn detected(fs: Vec<Finding>) -> Transitions {
    Transitions {
        detected: fs,
        ..Transitions::default()
    }
}

/// Runs re-checks in order (each `(at, transitions)`), threading the watch;
/// returns the announced transitions of each and the watch left.
fn run(
    mut storm: Option<Storm>,
    checks: Vec<(u64, Transitions)>,
    drift: &BTreeMap<DriftKey, Finding>,
) -> (Vec<Transitions>, Option<Storm>) {
    let mut out = Vec::new();
    for (at, t) in checks {
        let (announced, next) = hold_storms(storm.as_ref(), t, drift, at, policy(), true);
        out.push(announced);
        storm = next;
    }
    (out, storm)
}

fn report() -> StackReport {
    StackReport {
        stack: "App".into(),
        region: "eu-west-1".into(),
        ..StackReport::default()
    }
}

#[test]
fn two_hundred_changes_in_bursts_over_several_checks_give_one_alert_listing_them_capped() {
    let all: Vec<Finding> = (0..200).map(|i| finding(i, "5")).collect();
    let drift = drifting(&all);
    // Four re-checks of 50 changes each, 20 s apart: a console session.
    let checks = all
        .chunks(50)
        .enumerate()
        .map(|(i, c)| (T0 + i as u64 * 20 * SEC, detected(c.to_vec())))
        .collect();
    let (announced, storm) = run(None, checks, &drift);
    assert!(announced.iter().all(Transitions::is_empty), "all held");
    let open = storm.as_ref().and_then(|s| s.open.as_ref()).expect("open");
    assert_eq!((open.changes, open.held.len()), (200, 200));
    // Still coming in: a check 59 s after the last one does not flush.
    let last = T0 + 60 * SEC;
    let (t, storm) = hold_storms(
        storm.as_ref(),
        Transitions::default(),
        &drift,
        last + 59 * SEC,
        policy(),
        true,
    );
    assert!(t.is_empty());
    // Quiet for a window: one flush, one notice listing them capped.
    let (t, storm) = hold_storms(
        storm.as_ref(),
        Transitions::default(),
        &drift,
        last + 60 * SEC,
        policy(),
        true,
    );
    assert_eq!(storm, None, "closed and forgotten");
    assert_eq!(t.detected.len(), 200);
    let burst = t.storm.expect("burst facts");
    assert_eq!(
        (
            burst.changes,
            burst.resources,
            burst.first_ms,
            burst.last_ms
        ),
        (200, 200, T0, last)
    );
    let n = notices(&t, &report());
    assert_eq!(n.len(), 1, "one alert for the stack");
    let text = n[0].text.as_deref().unwrap_or_default();
    assert!(
        text.contains("Storm: 200 changes to 200 resources within 1 min"),
        "{text}"
    );
    let more = format!("… and {} more", 200 - MAX_TEXT_FINDINGS);
    assert!(text.contains(&more), "{text}");
    let doc: serde_json::Value = serde_json::from_str(&n[0].document).unwrap();
    assert_eq!(doc["storm"]["changes"], 200);
    assert_eq!(doc["storm"]["from"], "2027-01-15T08:00:00Z");
}

#[test]
fn fifty_changes_ten_seconds_apart_give_fifty_alerts() {
    let all: Vec<Finding> = (0..50).map(|i| finding(i % 7, &format!("{i}"))).collect();
    let drift = drifting(&all);
    let checks = all
        .iter()
        .enumerate()
        .map(|(i, f)| (T0 + i as u64 * 10 * SEC, detected(vec![f.clone()])))
        .collect();
    let (announced, storm) = run(None, checks, &drift);
    assert_eq!(
        announced.iter().filter(|t| t.detected.len() == 1).count(),
        50
    );
    assert!(storm.is_some_and(|s| s.open.is_none()), "never a storm");
}

#[test]
fn one_check_that_finds_the_threshold_at_once_is_held() {
    let ten: Vec<Finding> = (0..10).map(|i| finding(i, "5")).collect();
    let nine = ten[..9].to_vec();
    let (t, s) = hold_storms(
        None,
        detected(nine.clone()),
        &drifting(&nine),
        T0,
        policy(),
        true,
    );
    assert_eq!(t.detected.len(), 9, "below the threshold: as today");
    assert!(s.is_some_and(|s| s.open.is_none()));
    let (t, s) = hold_storms(
        None,
        detected(ten.clone()),
        &drifting(&ten),
        T0,
        policy(),
        true,
    );
    assert!(t.is_empty());
    assert!(s.and_then(|s| s.open).is_some());
}

#[test]
fn a_whole_stack_check_never_opens_a_storm_but_joins_and_closes_one() {
    let many: Vec<Finding> = (0..30).map(|i| finding(i, "5")).collect();
    let drift = drifting(&many);
    let (t, s) = hold_storms(None, detected(many.clone()), &drift, T0, policy(), false);
    assert_eq!(
        t.detected.len(),
        30,
        "a scan announces its one notice per kind"
    );
    assert_eq!(s, None);
    let (_, s) = hold_storms(
        None,
        detected(many[..20].to_vec()),
        &drift,
        T0,
        policy(),
        true,
    );
    let (t, s) = hold_storms(
        s.as_ref(),
        detected(many[20..].to_vec()),
        &drift,
        T0 + 30 * SEC,
        policy(),
        false,
    );
    assert!(t.is_empty(), "joins the open storm");
    let (t, s) = hold_storms(
        s.as_ref(),
        Transitions::default(),
        &drift,
        T0 + 90 * SEC,
        policy(),
        false,
    );
    assert_eq!((t.detected.len(), s), (30, None));
}

#[test]
fn held_transitions_survive_a_state_round_trip() {
    let many: Vec<Finding> = (0..12).map(|i| finding(i, "5")).collect();
    let (_, storm) = hold_storms(
        None,
        detected(many.clone()),
        &drifting(&many),
        T0,
        policy(),
        true,
    );
    let mut state = StackState::empty(&StackIdentity::new("App", "123456789012", "eu-west-1"), "h");
    state.storm = storm.clone();
    let text = state.to_text();
    let back = StackState::parse("state/App.123456789012.eu-west-1.json", &text).unwrap();
    assert_eq!(back.storm, storm);
    assert_eq!(back.to_text(), text);
    // A state without a storm writes no `storm` key: older files read the same.
    state.storm = None;
    assert!(!state.to_text().contains("storm"));
}

#[test]
fn resolution_inside_a_storm() {
    // Queue0 drifted before the storm (announced); Queue1..11 drift in it;
    // inside it Queue0 is fixed and Queue1 changed back.
    let before = finding(0, "5");
    let storm_changes: Vec<Finding> = (1..12).map(|i| finding(i, "5")).collect();
    let mut drift = drifting(&storm_changes);
    drift.insert(key_of(&before), before.clone());
    let (_, s) = hold_storms(
        None,
        detected(storm_changes.clone()),
        &drift,
        T0,
        policy(),
        true,
    );
    drift.remove(&key_of(&before));
    drift.remove(&key_of(&storm_changes[0]));
    let fixes = Transitions {
        resolved: vec![before.clone(), storm_changes[0].clone()],
        ..Transitions::default()
    };
    let (t, s) = hold_storms(s.as_ref(), fixes, &drift, T0 + 10 * SEC, policy(), true);
    assert!(t.is_empty(), "held too");
    let (t, s) = hold_storms(
        s.as_ref(),
        Transitions::default(),
        &drift,
        T0 + 70 * SEC,
        policy(),
        true,
    );
    assert_eq!(s, None);
    assert_eq!(t.detected.len(), 10, "what still drifts");
    assert_eq!(
        t.resolved,
        vec![before],
        "the drift announced before the storm"
    );
    let burst = t.storm.unwrap();
    assert_eq!(
        (burst.changes, burst.resources, burst.back_as_desired),
        (13, 12, 1)
    );
}

#[test]
fn a_storm_whose_changes_all_came_back_is_still_announced() {
    let many: Vec<Finding> = (0..10).map(|i| finding(i, "5")).collect();
    let (_, s) = hold_storms(
        None,
        detected(many.clone()),
        &drifting(&many),
        T0,
        policy(),
        true,
    );
    let back = Transitions {
        resolved: many.clone(),
        ..Transitions::default()
    };
    let none = BTreeMap::new();
    let (_, s) = hold_storms(s.as_ref(), back, &none, T0 + SEC, policy(), true);
    let (t, _) = hold_storms(
        s.as_ref(),
        Transitions::default(),
        &none,
        T0 + 61 * SEC,
        policy(),
        true,
    );
    assert!(t.detected.is_empty() && t.resolved.is_empty());
    let n = notices(&t, &report());
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].kind, "drift-resolved");
    assert!(n[0]
        .text
        .as_deref()
        .unwrap_or_default()
        .contains("10 were back as desired"));
}

#[test]
fn turning_storms_off_releases_what_is_held() {
    let many: Vec<Finding> = (0..10).map(|i| finding(i, "5")).collect();
    let drift = drifting(&many);
    let (_, s) = hold_storms(None, detected(many.clone()), &drift, T0, policy(), true);
    let off = StormPolicy {
        window_ms: 0,
        threshold: 10,
    };
    let (t, s) = hold_storms(
        s.as_ref(),
        Transitions::default(),
        &drift,
        T0 + SEC,
        off,
        true,
    );
    assert_eq!((t.detected.len(), s), (10, None));
}

/// Re-checks one finding each, `gap_s` apart, at the default knobs.
fn one_by_one(all: &[Finding], gap_s: u64) -> (Vec<Transitions>, Option<Storm>) {
    let drift = drifting(all);
    let mut storm = None;
    let mut out = Vec::new();
    for (i, f) in all.iter().enumerate() {
        let at = T0 + i as u64 * gap_s * SEC;
        let (t, next) = hold_storms(
            storm.as_ref(),
            detected(vec![f.clone()]),
            &drift,
            at,
            StormPolicy::default(),
            true,
        );
        out.push(t);
        storm = next;
    }
    (out, storm)
}

#[test]
fn a_person_editing_a_resource_every_half_minute_opens_a_storm_at_the_default_knobs() {
    let all: Vec<Finding> = (0..200).map(|i| finding(i, "5")).collect();
    let (announced, storm) = one_by_one(&all, 30);
    let alone = announced.iter().filter(|t| !t.is_empty()).count();
    assert_eq!(
        alone, 9,
        "the first nine, before ten different ones make a storm"
    );
    let open = storm.as_ref().and_then(|s| s.open.as_ref()).expect("open");
    assert_eq!(open.held.len(), 191);
    let quiet = T0 + 199 * 30 * SEC + StormPolicy::default().window_ms;
    let (t, storm) = hold_storms(
        storm.as_ref(),
        Transitions::default(),
        &drifting(&all),
        quiet,
        StormPolicy::default(),
        true,
    );
    assert_eq!(
        (t.detected.len(), storm),
        (191, None),
        "one alert for the rest"
    );
}

#[test]
fn one_resource_changed_again_and_again_is_not_a_storm() {
    // Forty new values of one queue, five seconds apart: the flap watch's
    // business (each value is news), never held as a storm.
    let all: Vec<Finding> = (0..40).map(|i| finding(0, &format!("{i}"))).collect();
    let (announced, storm) = one_by_one(&all, 5);
    assert!(announced.iter().all(|t| t.detected.len() == 1));
    assert!(storm.is_some_and(|s| s.open.is_none()));
}

#[test]
fn a_state_written_before_ids_were_kept_counts_its_ticks() {
    // An older state's tick has only its count: nine resources, then a tenth.
    let old: Storm =
        serde_json::from_value(json!({"recent": [{"atMs": T0, "changes": 9}]})).unwrap();
    let tenth = vec![finding(9, "5")];
    let (t, s) = hold_storms(
        Some(&old),
        detected(tenth.clone()),
        &drifting(&tenth),
        T0 + SEC,
        policy(),
        true,
    );
    assert!(t.is_empty(), "the tenth opens the storm");
    assert!(s.and_then(|s| s.open).is_some());
}
