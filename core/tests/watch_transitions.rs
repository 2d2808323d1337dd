//! The transition table of continuous detection: first check, unchanged,
//! new drift, resolved, changed since last observed, a deploy re-observing,
//! coverage lost / regained, partial (on-change) updates, plus the state
//! file's format rules.

use realdrift_core::baseline::StackIdentity;
use realdrift_core::watch::{
    advance, ListStatus, Observation, ReadStatus, SeenResource, StackState, StateError, Step,
};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const H1: &str = "hash-1";
const H2: &str = "hash-2";

fn identity() -> StackIdentity {
    StackIdentity::new("App", "111111111111", "eu-west-1")
}

fn finding(
    tier: Tier,
    id: &str,
    path: &str,
    desired: Option<Value>,
    actual: Option<Value>,
) -> Finding {
    let mut f = Finding::new(tier, id, "AWS::S3::Bucket", path);
    f.physical_id = Some(format!("{}-phys", id.to_lowercase()));
    f.desired = desired;
    f.actual = actual;
    f
}

/// A potential-drift value (undeclared, no baseline entry).
fn potential(id: &str, path: &str, v: Value) -> Finding {
    let mut f = finding(Tier::Undeclared, id, path, None, Some(v));
    f.unrecorded = true;
    f
}

fn declared(id: &str, path: &str, want: Value, got: Value) -> Finding {
    finding(Tier::Declared, id, path, Some(want), Some(got))
}

fn seen(read: ReadStatus) -> SeenResource {
    SeenResource {
        resource_type: "AWS::S3::Bucket".into(),
        physical_id: None,
        read,
        children: ListStatus::None,
        unreadable: false,
    }
}

/// A whole-stack observation of resources `Data` and `Logs`, both read.
fn obs(hash: &str, findings: Vec<Finding>) -> Observation {
    let raw_values = findings
        .iter()
        .filter(|f| matches!(f.tier, Tier::Undeclared | Tier::Added))
        .map(|f| (f.logical_id.clone(), f.path.clone()))
        .collect();
    Observation {
        identity: identity(),
        template_hash: hash.into(),
        findings,
        raw_values,
        resources: [
            ("Data", seen(ReadStatus::Read)),
            ("Logs", seen(ReadStatus::Read)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        added_parents: BTreeMap::new(),
        ..Observation::default()
    }
}

/// `(tier, logicalId, path)` of each finding.
fn keys(findings: &[Finding]) -> Vec<(Tier, String, String)> {
    findings
        .iter()
        .map(|f| (f.tier, f.logical_id.clone(), f.path.clone()))
        .collect()
}

fn key(tier: Tier, id: &str, path: &str) -> (Tier, String, String) {
    (tier, id.into(), path.into())
}

/// Runs a sequence of observations, returning each step.
fn run(observations: Vec<Observation>) -> Vec<Step> {
    let mut state: Option<StackState> = None;
    let mut steps = Vec::new();
    for o in observations {
        let step = advance(state.as_ref(), &o);
        state = Some(step.state.clone());
        steps.push(step);
    }
    steps
}

#[test]
fn first_check_takes_inventory_and_alerts_confirmed_drift_once() {
    let o = obs(
        H1,
        vec![
            potential(
                "Data",
                "AccelerateConfiguration.AccelerationStatus",
                json!("Enabled"),
            ),
            declared(
                "Logs",
                "VersioningConfiguration.Status",
                json!("Enabled"),
                json!("Suspended"),
            ),
        ],
    );
    let steps = run(vec![o.clone(), o]);
    assert!(steps[0].first);
    assert_eq!(
        keys(&steps[0].transitions.detected),
        vec![key(
            Tier::Declared,
            "Logs",
            "VersioningConfiguration.Status"
        )],
        "potential drift on a first check is inventory"
    );
    assert_eq!(steps[0].state.observations.len(), 1);
    assert_eq!(steps[0].state.observations[0].value, json!("Enabled"));
    assert!(
        steps[1].transitions.is_empty(),
        "{:?}",
        steps[1].transitions
    );
    assert_eq!(steps[0].state.to_text(), steps[1].state.to_text());
}

#[test]
fn new_drift_then_a_changed_value_then_resolved() {
    let path = "VersioningConfiguration.Status";
    let steps = run(vec![
        obs(H1, vec![]),
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Suspended"))],
        ),
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Suspended"))],
        ),
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Off"))],
        ),
        obs(H1, vec![]),
    ]);
    assert!(steps[0].transitions.is_empty());
    assert_eq!(
        keys(&steps[1].transitions.detected),
        vec![key(Tier::Declared, "Data", path)]
    );
    assert!(
        steps[2].transitions.is_empty(),
        "unchanged drift is not announced again"
    );
    assert_eq!(steps[3].transitions.detected[0].actual, Some(json!("Off")));
    assert_eq!(
        keys(&steps[4].transitions.resolved),
        vec![key(Tier::Declared, "Data", path)]
    );
    assert_eq!(
        steps[4].transitions.resolved[0].actual,
        Some(json!("Off")),
        "a resolved notice shows the drift as last reported"
    );
    assert!(steps[4].state.drift.is_empty());
}

#[test]
fn an_undeclared_value_changed_since_last_observed_is_drift_until_it_goes_back() {
    let path = "AccelerateConfiguration.AccelerationStatus";
    let steps = run(vec![
        obs(H1, vec![potential("Data", path, json!("Suspended"))]),
        obs(H1, vec![potential("Data", path, json!("Enabled"))]),
        obs(H1, vec![potential("Data", path, json!("Enabled"))]),
        obs(H1, vec![potential("Data", path, json!("Suspended"))]),
    ]);
    assert!(
        steps[0].transitions.is_empty(),
        "first observation is inventory"
    );
    let d = &steps[1].transitions.detected;
    assert_eq!(keys(d), vec![key(Tier::Undeclared, "Data", path)]);
    assert_eq!(
        (d[0].desired.clone(), d[0].actual.clone()),
        (Some(json!("Suspended")), Some(json!("Enabled")))
    );
    assert!(!d[0].unrecorded, "counted as drift in notices");
    assert!(d[0]
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("changed since last observed"));
    assert!(steps[1].state.drift[0].observed_change);
    assert_eq!(
        steps[1].state.observations[0].value,
        json!("Suspended"),
        "the reference stays the first value observed"
    );
    assert!(steps[2].transitions.is_empty());
    assert_eq!(
        keys(&steps[3].transitions.resolved),
        vec![key(Tier::Undeclared, "Data", path)]
    );
}

#[test]
fn a_value_gone_from_a_read_resource_changed_but_an_unread_one_is_unknown() {
    let path = "Tags.team";
    let mut unread = obs(H1, vec![]);
    unread
        .resources
        .insert("Data".into(), seen(ReadStatus::NotRead));
    let steps = run(vec![
        obs(H1, vec![potential("Data", path, json!("core"))]),
        unread,
        obs(H1, vec![]),
    ]);
    assert!(
        steps[1].transitions.detected.is_empty(),
        "not read: nothing is known to have changed"
    );
    assert_eq!(
        steps[1].state.observations.len(),
        1,
        "the reference is kept"
    );
    let d = &steps[2].transitions.detected;
    assert_eq!(keys(d), vec![key(Tier::Undeclared, "Data", path)]);
    assert_eq!(d[0].actual, None);
    assert!(d[0]
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("now gone"));
}

#[test]
fn drift_of_a_resource_not_read_is_kept_not_resolved_and_coverage_is_lost_once() {
    let path = "VersioningConfiguration.Status";
    let drifted = obs(
        H1,
        vec![declared("Data", path, json!("Enabled"), json!("Suspended"))],
    );
    let mut unread = obs(H1, vec![finding(Tier::Skipped, "Data", "", None, None)]);
    unread.findings[0].note = Some("AccessDenied: s3:GetBucketVersioning".into());
    unread
        .resources
        .insert("Data".into(), seen(ReadStatus::NotRead));
    let steps = run(vec![
        drifted.clone(),
        unread.clone(),
        unread.clone(),
        unread,
        drifted,
    ]);
    let t = &steps[1].transitions;
    assert!(
        t.is_empty(),
        "one failed read (throttling after retries) is not yet a loss: {t:?}"
    );
    assert_eq!(steps[1].state.drift.len(), 1, "the drift entry is carried");
    let t = &steps[2].transitions;
    assert!(t.resolved.is_empty() && t.detected.is_empty(), "{t:?}");
    assert_eq!(keys(&t.coverage_lost), vec![key(Tier::Skipped, "Data", "")]);
    assert_eq!(
        t.coverage_lost[0].note.as_deref(),
        Some("AccessDenied: s3:GetBucketVersioning")
    );
    assert_eq!(steps[2].state.drift.len(), 1, "the drift entry is carried");
    assert!(steps[3].transitions.is_empty(), "a loss is announced once");
    let t = &steps[4].transitions;
    assert_eq!(
        keys(&t.coverage_regained),
        vec![key(Tier::Skipped, "Data", "")]
    );
    assert!(t.detected.is_empty() && t.resolved.is_empty(), "{t:?}");
}

#[test]
fn a_read_failing_once_between_two_reads_is_silent_and_the_threshold_is_configurable() {
    let mut unread = obs(H1, vec![]);
    unread
        .resources
        .insert("Data".into(), seen(ReadStatus::NotRead));
    let ok = obs(H1, vec![]);
    let steps = run(vec![ok.clone(), unread.clone(), ok.clone(), unread.clone()]);
    assert!(
        steps.iter().all(|s| s.transitions.is_empty()),
        "a streak is broken by a good read"
    );
    let once = unread.clone().losing_coverage_after(1);
    let steps = run(vec![ok.clone(), once]);
    assert_eq!(steps[1].transitions.coverage_lost.len(), 1);
    let three = unread.losing_coverage_after(3);
    let steps = run(vec![ok, three.clone(), three.clone(), three]);
    let lost: Vec<usize> = steps
        .iter()
        .map(|s| s.transitions.coverage_lost.len())
        .collect();
    assert_eq!(lost, vec![0, 0, 0, 1]);
}

#[test]
fn a_resource_never_read_is_not_a_loss() {
    let mut denied = obs(H1, vec![]);
    denied
        .resources
        .insert("Data".into(), seen(ReadStatus::NotRead));
    let steps = run(vec![denied.clone(), denied, obs(H1, vec![])]);
    assert!(steps.iter().all(|s| s.transitions.is_empty()));
}

#[test]
fn a_type_no_reader_reads_is_lost_from_the_first_scan_once_and_regained_when_accepted() {
    let mut build = obs(H1, vec![]);
    let mut skip = Finding::new(Tier::Skipped, "Build", "AWS::CodeBuild::Project", "");
    skip.note = Some("Cloud Control cannot read AWS::CodeBuild::Project".into());
    build.findings.push(skip);
    build.resources.insert(
        "Build".into(),
        SeenResource {
            resource_type: "AWS::CodeBuild::Project".into(),
            unreadable: true,
            ..seen(ReadStatus::NotRead)
        },
    );
    let mut accepted = build.clone();
    accepted.resources.get_mut("Build").unwrap().unreadable = false;
    let steps = run(vec![build.clone(), build, accepted.clone(), accepted]);
    let lost: Vec<Vec<(Tier, String, String)>> = steps
        .iter()
        .map(|s| keys(&s.transitions.coverage_lost))
        .collect();
    assert_eq!(
        lost,
        vec![
            vec![key(Tier::Skipped, "Build", "")],
            vec![],
            vec![],
            vec![]
        ]
    );
    assert_eq!(
        steps[0].transitions.coverage_lost[0].note.as_deref(),
        Some("Cloud Control cannot read AWS::CodeBuild::Project")
    );
    let regained: Vec<usize> = steps
        .iter()
        .map(|s| s.transitions.coverage_regained.len())
        .collect();
    assert_eq!(regained, vec![0, 0, 1, 0]);
}

#[test]
fn a_failed_child_listing_is_lost_and_regained_and_keeps_added_drift() {
    let mut listed = obs(H1, vec![]);
    if let Some(r) = listed.resources.get_mut("Data") {
        r.children = ListStatus::Complete;
    }
    let mut added = finding(
        Tier::Added,
        "DataPolicyAdded",
        "",
        None,
        Some(json!({"Policy": "x"})),
    );
    added.resource_type = "AWS::S3::BucketPolicy".into();
    let mut with_child = listed.clone();
    with_child.findings.push(added);
    with_child
        .raw_values
        .insert(("DataPolicyAdded".into(), "".into()));
    with_child
        .added_parents
        .insert("DataPolicyAdded".into(), "Data".into());
    let mut failed = obs(H1, vec![]);
    if let Some(r) = failed.resources.get_mut("Data") {
        r.children = ListStatus::Failed;
    }
    let steps = run(vec![with_child, failed, listed]);
    assert_eq!(
        keys(&steps[0].transitions.detected),
        vec![key(Tier::Added, "DataPolicyAdded", "")]
    );
    let t = &steps[1].transitions;
    assert!(
        t.resolved.is_empty(),
        "an unlisted child is unknown, not removed: {t:?}"
    );
    assert_eq!(t.coverage_lost.len(), 1);
    let t = &steps[2].transitions;
    assert_eq!(t.coverage_regained.len(), 1);
    assert_eq!(
        keys(&t.resolved),
        vec![key(Tier::Added, "DataPolicyAdded", "")]
    );
}

#[test]
fn a_deploy_re_observes_silently() {
    let path = "AccelerateConfiguration.AccelerationStatus";
    let steps = run(vec![
        obs(H1, vec![potential("Data", path, json!("Suspended"))]),
        obs(H1, vec![potential("Data", path, json!("Enabled"))]),
        obs(H2, vec![potential("Data", path, json!("Enabled"))]),
        obs(H2, vec![potential("Data", path, json!("Enabled"))]),
        obs(H2, vec![potential("Data", path, json!("Suspended"))]),
    ]);
    assert_eq!(steps[1].transitions.detected.len(), 1);
    assert!(steps[2].redeployed);
    assert!(
        steps[2].transitions.is_empty(),
        "memory-only drift is dropped without a resolved notice: {:?}",
        steps[2].transitions
    );
    assert!(steps[2].state.drift.is_empty());
    assert_eq!(
        steps[2].state.observations[0].value,
        json!("Enabled"),
        "re-observed"
    );
    assert!(steps[3].transitions.is_empty());
    assert_eq!(
        steps[4].transitions.detected.len(),
        1,
        "memory works under the new hash"
    );
}

#[test]
fn confirmed_drift_survives_a_deploy_unannounced_and_resolves_when_fixed() {
    let path = "VersioningConfiguration.Status";
    let d = declared("Data", path, json!("Enabled"), json!("Suspended"));
    let steps = run(vec![
        obs(H1, vec![d.clone()]),
        obs(H2, vec![d]),
        obs(H2, vec![]),
    ]);
    assert!(steps[1].transitions.is_empty());
    assert_eq!(steps[2].transitions.resolved.len(), 1);
}

#[test]
fn a_value_a_baseline_or_an_ignore_rule_now_covers_leaves_memory_silently() {
    let path = "Tags.team";
    let mut recorded = obs(H1, vec![]);
    recorded.raw_values.insert(("Data".into(), path.into()));
    let mut ignored = obs(
        H1,
        vec![finding(Tier::Ignored, "Data", path, None, Some(json!("x")))],
    );
    ignored.raw_values.insert(("Data".into(), path.into()));
    for later in [recorded, ignored] {
        let steps = run(vec![
            obs(H1, vec![potential("Data", path, json!("core"))]),
            later,
        ]);
        assert!(
            steps[1].transitions.is_empty(),
            "{:?}",
            steps[1].transitions
        );
        assert!(steps[1].state.observations.is_empty());
    }
}

/// A value AWS chose at create (an RDS maintenance window), folded as a
/// default; `create_only` when only a new resource could change it.
fn chosen(v: Value, create_only: bool) -> Finding {
    let mut f = Finding::new(
        Tier::AtDefault,
        "Data",
        "AWS::RDS::DBInstance",
        "PreferredMaintenanceWindow",
    );
    f.physical_id = Some("data-phys".into());
    f.actual = Some(v);
    f.create_only = create_only;
    f.chosen_at_create = !create_only;
    f
}

#[test]
fn a_value_aws_chose_at_create_changed_since_last_observed_is_drift() {
    // No baseline records the window AWS picked, yet someone moving it is a
    // change under the same template, as for any undeclared value.
    let (was, now) = (json!("sun:05:00-sun:05:30"), json!("mon:03:00-mon:03:30"));
    let steps = run(vec![
        obs(H1, vec![chosen(was.clone(), false)]),
        obs(H1, vec![chosen(now.clone(), false)]),
        obs(H1, vec![chosen(was.clone(), false)]),
    ]);
    assert!(steps[0].transitions.is_empty(), "first sight is inventory");
    let d = &steps[1].transitions.detected;
    assert_eq!(
        keys(d),
        vec![key(Tier::Undeclared, "Data", "PreferredMaintenanceWindow")]
    );
    assert_eq!(
        (d[0].desired.clone(), d[0].actual.clone()),
        (Some(was), Some(now))
    );
    assert!(d[0]
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("changed since last observed"));
    assert_eq!(steps[2].transitions.resolved.len(), 1, "put back: resolved");
    // One only a new resource could change, or a baseline's drift, is not
    // remembered twice.
    let fixed = run(vec![
        obs(H1, vec![chosen(json!("a"), true)]),
        obs(H1, vec![chosen(json!("b"), true)]),
    ]);
    assert!(fixed[1].transitions.is_empty());
    let mut confirmed = chosen(json!("b"), false);
    confirmed.tier = Tier::Undeclared;
    confirmed.desired = Some(json!("a"));
    let recorded = run(vec![
        obs(H1, vec![chosen(json!("a"), false)]),
        obs(H1, vec![confirmed]),
    ]);
    assert_eq!(recorded[1].transitions.detected.len(), 1, "announced once");
    assert!(recorded[1].state.observations.is_empty());
}

#[test]
fn a_resource_removed_from_the_template_resolves_its_drift_and_forgets_its_coverage() {
    let d = declared("Logs", "Name", json!("a"), json!("b"));
    let mut gone = obs(H2, vec![]);
    gone.resources.remove("Logs");
    let steps = run(vec![obs(H1, vec![d]), gone]);
    assert_eq!(steps[1].transitions.resolved.len(), 1);
    assert!(!steps[1].state.coverage.contains_key("Logs"));
}

#[test]
fn a_partial_update_touches_only_its_resources() {
    let path = "VersioningConfiguration.Status";
    let full = obs(
        H1,
        vec![
            declared("Data", path, json!("Enabled"), json!("Suspended")),
            declared("Logs", path, json!("Enabled"), json!("Suspended")),
        ],
    );
    // on-change re-read Logs only, and it is fixed; Data's findings are absent.
    let mut partial = obs(H1, vec![]).limited_to(BTreeSet::from(["Logs".to_string()]));
    partial.resources.remove("Data");
    let steps = run(vec![full, partial]);
    assert_eq!(
        keys(&steps[1].transitions.resolved),
        vec![key(Tier::Declared, "Logs", path)]
    );
    assert_eq!(
        keys(
            &steps[1]
                .state
                .drift
                .iter()
                .map(|e| e.finding.clone())
                .collect::<Vec<_>>()
        ),
        vec![key(Tier::Declared, "Data", path)]
    );
    assert!(
        steps[1].state.coverage.contains_key("Data"),
        "out of scope: kept"
    );
}

#[test]
fn state_text_is_sorted_stable_and_versioned() {
    let o = obs(
        H1,
        vec![
            potential("Logs", "B", json!({"z": 1, "a": 2})),
            potential("Data", "A", json!(1)),
            declared("Data", "C", json!(1), json!(2)),
        ],
    );
    let text = run(vec![o]).remove(0).state.to_text();
    let back = StackState::parse("state/x.json", &text).unwrap();
    assert_eq!(back.to_text(), text, "round trip is byte-stable");
    assert!(text.ends_with('\n'));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["observations"][0]["logicalId"], "Data");
    assert!(text.find("\"a\": 2").unwrap() < text.find("\"z\": 1").unwrap());
}

#[test]
fn unknown_versions_and_foreign_files_are_refused_by_name() {
    let text = run(vec![obs(H1, vec![])]).remove(0).state.to_text();
    let newer = text.replace("\"version\": 1", "\"version\": 2");
    match StackState::parse("state/App.json", &newer) {
        Err(e @ StateError::Version { found: 2, .. }) => {
            assert!(e.to_string().contains("state/App.json"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    let other = StackIdentity::new("Other", "111111111111", "eu-west-1");
    assert!(matches!(
        StackState::parse_for("k", &text, &other),
        Err(StateError::Identity { .. })
    ));
    assert!(matches!(
        StackState::parse("k", "{}"),
        Err(StateError::Invalid { .. })
    ));
}

/// `o` read from `t` on.
fn at(o: Observation, t: u64) -> Observation {
    o.read_at(t)
}

/// `o` limited to `Data` (an on-change re-read).
fn data_only(o: Observation) -> Observation {
    let mut o = o.limited_to(BTreeSet::from(["Data".to_string()]));
    o.resources.remove("Logs");
    o
}

fn drift_keys(s: &StackState) -> Vec<(Tier, String, String)> {
    keys(
        &s.drift
            .iter()
            .map(|e| e.finding.clone())
            .collect::<Vec<_>>(),
    )
}

#[test]
fn a_scan_that_read_before_an_out_of_band_change_never_resolves_the_drift_on_change_saw() {
    // t=100 scan: clean. t=200 a scan starts reading (the bucket is still
    // clean). t=250 someone suspends versioning. t=300 on-change reads it
    // and alerts. The t=200 scan writes last, or first: either way the
    // drift stays and nothing is announced resolved.
    let path = "VersioningConfiguration.Status";
    let clean = |t| at(obs(H1, vec![]), t);
    let on_change = data_only(at(
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Suspended"))],
        ),
        300,
    ));
    let scan_late = run(vec![clean(100), on_change.clone(), clean(200)]);
    assert_eq!(scan_late[1].transitions.detected.len(), 1);
    assert!(
        scan_late[2].transitions.is_empty(),
        "an older read resolved newer drift: {:?}",
        scan_late[2].transitions
    );
    assert_eq!(
        drift_keys(&scan_late[2].state),
        vec![key(Tier::Declared, "Data", path)]
    );
    let scan_first = run(vec![clean(100), clean(200), on_change]);
    assert_eq!(scan_first[2].transitions.detected.len(), 1);
    assert_eq!(
        scan_late[2].state.drift, scan_first[2].state.drift,
        "both orders leave the same drift"
    );
    // A scan that started after the change settles it as usual.
    let mut later = scan_late;
    let next = advance(Some(&later.remove(2).state), &clean(400));
    assert_eq!(next.transitions.resolved.len(), 1);
}

#[test]
fn two_on_change_reads_of_a_value_toggled_twice_leave_the_later_value() {
    // Versioning suspended then enabled again: the read started at 200 saw
    // it suspended, the one started at 300 saw it enabled.
    let path = "VersioningConfiguration.Status";
    let first = data_only(at(
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Suspended"))],
        ),
        200,
    ));
    let second = data_only(at(obs(H1, vec![]), 300));
    let base = at(obs(H1, vec![]), 100);
    let in_order = run(vec![base.clone(), first.clone(), second.clone()]);
    let reversed = run(vec![base, second, first]);
    assert!(in_order[2].state.drift.is_empty());
    assert!(
        reversed[2].state.drift.is_empty(),
        "the earlier read, written last, brought the old value back"
    );
    assert!(reversed[2].transitions.is_empty());
    assert_eq!(
        in_order[2].state.coverage["Data"].read_at_ms,
        reversed[2].state.coverage["Data"].read_at_ms
    );
    assert_eq!(reversed[2].state.coverage["Data"].read_at_ms, Some(300));
}

#[test]
fn an_older_read_of_another_template_changes_nothing() {
    let path = "Tags.team";
    let newer = at(obs(H2, vec![potential("Data", path, json!("core"))]), 300);
    let older = at(obs(H1, vec![potential("Data", path, json!("x"))]), 200);
    let steps = run(vec![newer, older]);
    assert!(steps[1].transitions.is_empty());
    assert_eq!(steps[1].state.template_hash, H2);
    assert_eq!(steps[0].state.to_text(), steps[1].state.to_text());
}

#[test]
fn a_state_file_written_before_read_times_is_read_and_then_timed() {
    let text = run(vec![obs(H1, vec![])]).remove(0).state.to_text();
    assert!(!text.contains("readAtMs"), "no time, no field");
    let old = StackState::parse("k", &text).unwrap();
    let path = "VersioningConfiguration.Status";
    let step = advance(
        Some(&old),
        &at(
            obs(
                H1,
                vec![declared("Data", path, json!("Enabled"), json!("Off"))],
            ),
            500,
        ),
    );
    assert_eq!(step.transitions.detected.len(), 1);
    let v: Value = serde_json::from_str(&step.state.to_text()).unwrap();
    assert_eq!(v["version"], 1, "the version stays");
    assert_eq!(v["coverage"]["Data"]["readAtMs"], 500);
}

#[test]
fn a_stack_not_settled_is_announced_not_checked_once_and_its_drift_is_kept() {
    let path = "VersioningConfiguration.Status";
    let drifted = at(
        obs(
            H1,
            vec![declared("Data", path, json!("Enabled"), json!("Off"))],
        ),
        100,
    );
    let stuck = |status: &str, t| Observation::of_unsettled(identity(), status).read_at(t);
    let steps = run(vec![
        drifted.clone(),
        stuck("UPDATE_ROLLBACK_FAILED", 200),
        stuck("UPDATE_ROLLBACK_FAILED", 300),
        stuck("ROLLBACK_COMPLETE", 400),
        at(drifted, 500),
    ]);
    let lost = &steps[1].transitions.coverage_lost;
    assert_eq!(
        keys(lost),
        vec![key(Tier::Skipped, "App", "")],
        "{:?}",
        steps[1].transitions
    );
    assert!(lost[0]
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("UPDATE_ROLLBACK_FAILED"));
    assert!(steps[1].transitions.resolved.is_empty());
    assert_eq!(steps[1].state.drift.len(), 1, "nothing read: drift kept");
    assert!(steps[2].transitions.is_empty(), "announced once");
    assert_eq!(
        steps[3].transitions.coverage_lost.len(),
        1,
        "another status is news"
    );
    let t = &steps[4].transitions;
    assert_eq!(
        keys(&t.coverage_regained),
        vec![key(Tier::Skipped, "App", "")]
    );
    assert!(t.detected.is_empty() && t.resolved.is_empty(), "{t:?}");
    assert_eq!(steps[4].state.not_checked, None);
}

#[test]
fn a_value_added_to_a_resource_read_without_it_is_a_change_and_resolves_when_removed() {
    // An inline policy put on a watched role out of band: nothing declares
    // it and no baseline covers it, and the previous check read the role
    // without it.
    let before = obs(H1, vec![]);
    let added = obs(
        H1,
        vec![potential("Data", "Policies", json!([{"PolicyName": "x"}]))],
    );
    let steps = run(vec![before.clone(), added.clone(), added, before]);
    assert_eq!(
        keys(&steps[1].transitions.detected),
        vec![key(Tier::Undeclared, "Data", "Policies")]
    );
    let f = &steps[1].transitions.detected[0];
    assert_eq!(f.desired, None, "nothing to revert to");
    assert!(
        f.note.as_deref().unwrap_or_default().contains("was absent"),
        "{f:?}"
    );
    assert!(steps[2].transitions.is_empty(), "announced once");
    assert_eq!(
        keys(&steps[3].transitions.resolved),
        vec![key(Tier::Undeclared, "Data", "Policies")],
        "removing it resolves it"
    );
    assert!(steps[3].state.observations.is_empty());
}

#[test]
fn a_new_value_after_a_deploy_or_on_a_resource_not_read_before_is_inventory() {
    let value = || vec![potential("Data", "Policies", json!([{"PolicyName": "x"}]))];
    let deployed = run(vec![obs(H1, vec![]), obs(H2, value())]);
    assert!(
        deployed[1].transitions.detected.is_empty(),
        "a deploy re-observes"
    );

    let mut unread = obs(H1, vec![]);
    unread
        .resources
        .insert("Data".into(), seen(ReadStatus::NotRead));
    let steps = run(vec![unread, obs(H1, value())]);
    assert!(
        steps[1].transitions.detected.is_empty(),
        "never read before: nothing to compare with"
    );
    assert_eq!(
        steps[1].state.observations[0].value,
        json!([{"PolicyName": "x"}])
    );
}

/// A value flipped back and forth inside the suppression window: its
/// detection and its first resolution are announced, the returns are held
/// back, and the first check after the window announces one summary of the
/// current state; the window lives in the state file.
#[test]
fn a_flapping_value_is_announced_once_then_summarized() {
    let min = 60_000;
    let suspended = || {
        vec![declared(
            "Logs",
            "VersioningConfiguration.Status",
            json!("Enabled"),
            json!("Suspended"),
        )]
    };
    let at = |t: u64, findings: Vec<Finding>| obs(H1, findings).read_at(t);
    let steps = run(vec![
        at(0, vec![]),
        at(min, suspended()),
        at(2 * min, vec![]),
        at(3 * min, suspended()),
        at(4 * min, vec![]),
        at(5 * min, suspended()),
        // After the 10-minute window (opened at the first change): the summary.
        at(12 * min, suspended()),
        at(13 * min, suspended()),
    ]);
    let counts: Vec<(usize, usize)> = steps
        .iter()
        .map(|s| (s.transitions.detected.len(), s.transitions.resolved.len()))
        .collect();
    assert_eq!(
        counts,
        [
            (0, 0),
            (1, 0),
            (0, 1),
            (0, 0),
            (0, 0),
            (0, 0),
            (1, 0),
            (0, 0)
        ]
    );
    assert_eq!(
        steps[6].transitions.detected[0].note.as_deref(),
        Some("changed 5 times in 4 minutes; now Suspended")
    );
    // The window survives the round trip through the state file.
    let text = steps[4].state.to_text();
    let reloaded = StackState::parse("state/App", &text).unwrap();
    assert_eq!(reloaded.flaps, steps[4].state.flaps);
    assert_eq!(reloaded.flaps[0].held, 2);
    // Without read times (no window can be placed) every transition shows.
    let steps = run(vec![
        obs(H1, suspended()),
        obs(H1, vec![]),
        obs(H1, suspended()),
    ]);
    assert_eq!(steps[2].transitions.detected.len(), 1);
}
