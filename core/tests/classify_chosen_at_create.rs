//! Values AWS chooses at create time that a user can change (the default
//! security group of an instance, a maintenance window) fold on a first run,
//! but `record` snapshots them, so swapping them out of band surfaces as
//! drift. Real corpus case: an EC2 instance launched with no security group.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::baseline::{
    apply_baseline, record, BaselineFile, RecordInput, Selection, NOTE_APPEARED, NOTE_CHANGED,
};
use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::{Finding, Tier};
use serde_json::json;
use support::*;

const INSTANCE: &str = "AWS__EC2__Instance.HuntM5";
const STACK: &str = "CdkRealDriftIntegEc2EbsOptMin";

fn with_live(mut c: CorpusCase, key: &str, value: serde_json::Value) -> CorpusCase {
    if let Some(o) = c.live_raw.as_object_mut() {
        o.insert(key.to_string(), value);
    }
    c
}

fn at(fs: &[Finding], path: &str) -> Option<Tier> {
    fs.iter().find(|f| f.path == path).map(|f| f.tier)
}

/// Records every recordable finding of a first run.
fn record_all(first: &[Finding], ctx: &realdrift_core::baseline::RunContext) -> BaselineFile {
    record(RecordInput {
        classified: first,
        existing: None,
        ctx,
        selection: &Selection::All,
        captured_at: "2026-12-01T00:00:00Z",
    })
    .baseline
}

#[test]
fn a_swapped_default_security_group_surfaces_once_recorded() {
    let ctx = ctx_for(STACK, &[INSTANCE]);
    let first = replay_case(&case(INSTANCE));
    // First run: the default group AWS attached folds (silent).
    assert_eq!(at(&first, "SecurityGroupIds"), Some(Tier::AtDefault));

    let recorded = record_all(&first, &ctx);
    assert!(
        recorded
            .recorded
            .iter()
            .any(|e| e.path == "SecurityGroupIds" && e.value == json!(["sg-071431ba9ef8424c9"])),
        "record snapshots the group AWS chose: {:#?}",
        recorded.recorded
    );

    // Same live state: still clean.
    let again = apply_baseline(first.clone(), Some(&recorded), &ctx).unwrap();
    assert!(!again
        .findings
        .iter()
        .any(|f| f.tier.is_drift() && f.path == "SecurityGroupIds"));

    // Someone swaps the instance onto another group out of band.
    let swapped = with_live(
        case(INSTANCE),
        "SecurityGroupIds",
        json!(["sg-0aaaaaaaaaaaaaaaa"]),
    );
    let later = replay_case(&swapped);
    let out = apply_baseline(later, Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == "SecurityGroupIds")
        .expect("the swapped group is reported");
    assert_eq!(f.tier, Tier::Undeclared);
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
    assert_eq!(f.desired, Some(json!(["sg-071431ba9ef8424c9"])));
    assert_eq!(f.actual, Some(json!(["sg-0aaaaaaaaaaaaaaaa"])));
}

#[test]
fn constants_at_their_default_are_still_never_recorded() {
    let ctx = ctx_for(STACK, &[INSTANCE]);
    let first = replay_case(&case(INSTANCE));
    assert_eq!(at(&first, "Tenancy"), Some(Tier::AtDefault));
    let recorded = record_all(&first, &ctx);
    assert!(!recorded.recorded.iter().any(|e| e.path == "Tenancy"));
}

// ---- a mode AWS picks from the AMI ------------------------------------------

/// The instance's metadata options, as EC2 reads them back.
fn metadata(tokens: &str, hops: u64, endpoint: &str) -> serde_json::Value {
    json!({"HttpTokens": tokens, "HttpPutResponseHopLimit": hops, "HttpEndpoint": endpoint,
           "HttpProtocolIpv6": "disabled", "InstanceMetadataTags": "disabled"})
}

#[test]
fn an_instance_s_imds_mode_follows_its_ami_and_a_later_switch_surfaces() {
    // An AMI without ImdsSupport v2.0 launches with IMDSv1 allowed and one
    // hop: AWS's choice, not drift (the recorded Amazon Linux 2023
    // instances launched with `required` and two hops).
    let v1 = with_live(
        case(INSTANCE),
        "MetadataOptions",
        metadata("optional", 1, "enabled"),
    );
    assert_eq!(
        at(&replay_case(&v1), "MetadataOptions"),
        Some(Tier::AtDefault)
    );
    // The endpoint is documented on whatever the AMI: turned off, it surfaces.
    let off = with_live(
        case(INSTANCE),
        "MetadataOptions",
        metadata("required", 2, "disabled"),
    );
    assert!(replay_case(&off)
        .iter()
        .any(|f| f.path.starts_with("MetadataOptions") && f.tier == Tier::Undeclared));

    // Recorded as launched (IMDSv2 required), then IMDSv1 is allowed again
    // out of band: the change surfaces though `optional` alone would fold.
    let ctx = ctx_for(STACK, &[INSTANCE]);
    let first = replay_case(&case(INSTANCE));
    let recorded = record_all(&first, &ctx);
    assert!(recorded
        .recorded
        .iter()
        .any(|e| e.path == "MetadataOptions"));
    let out = apply_baseline(replay_case(&v1), Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == "MetadataOptions" && f.tier.is_drift())
        .expect("IMDSv1 allowed after record is reported");
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
}

// ---- options a platform fills in --------------------------------------------

const EB_ENV: &str = "AWS__ElasticBeanstalk__Environment.LoadBalancedEnv";
const EB_STACK: &str = "CdkrdHunt0810EbLb";
const INSTANCE_PORT: &str = "OptionSettings[aws:cloudformation:template:parameter|InstancePort]";
const IMAGE_ID: &str = "OptionSettings[aws:autoscaling:launchconfiguration|ImageId]";

/// The case with one Elastic Beanstalk option's value replaced.
fn with_option(c: CorpusCase, ns: &str, name: &str, value: &str) -> CorpusCase {
    let mut options = c.live_raw["OptionSettings"].clone();
    for o in options.as_array_mut().into_iter().flatten() {
        if o["Namespace"] == ns && o["OptionName"] == name {
            o["Value"] = json!(value);
        }
    }
    with_live(c, "OptionSettings", options)
}

#[test]
fn a_platform_option_changed_after_record_surfaces() {
    // No constant is recorded for the AMI anywhere: only "the platform
    // chose every option the template leaves out" explains it, and a user
    // may move the environment to a custom AMI later.
    let ctx = ctx_for(EB_STACK, &[EB_ENV]);
    let first = replay_case(&case(EB_ENV));
    assert_eq!(at(&first, IMAGE_ID), Some(Tier::AtDefault));
    let recorded = record_all(&first, &ctx);
    assert!(recorded.recorded.iter().any(|e| e.path == IMAGE_ID));
    // A template parameter Elastic Beanstalk derives from the other options
    // is AWS's alone: not held, so a platform update does not alert.
    assert_eq!(at(&first, INSTANCE_PORT), Some(Tier::AtDefault));
    assert!(!recorded.recorded.iter().any(|e| e.path == INSTANCE_PORT));

    let again = apply_baseline(first.clone(), Some(&recorded), &ctx).unwrap();
    assert!(!again.findings.iter().any(|f| f.tier.is_drift()));

    let changed = with_option(
        case(EB_ENV),
        "aws:autoscaling:launchconfiguration",
        "ImageId",
        "ami-0123456789abcdef0",
    );
    let out = apply_baseline(replay_case(&changed), Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == IMAGE_ID && f.tier.is_drift())
        .expect("the changed option is reported");
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
}

// ---- create-only properties ------------------------------------------------

const QUEUE: &str = "AWS__Batch__JobQueue.Queue4A7E3555";
const QUEUE_STACK: &str = "CdkRealDriftIntegBatchRich";

#[test]
fn a_create_only_value_is_recorded_so_a_recreated_resource_surfaces() {
    // JobQueueType is create-only and follows the compute environments the
    // queue was made with (no default documents it): the queue cannot
    // change it in place, so it is no potential drift on a first run, but a
    // queue re-created out of band under the same id with another type must
    // not pass silently.
    let ctx = ctx_for(QUEUE_STACK, &[QUEUE]);
    let first = replay_case(&case(QUEUE));
    let f = first.iter().find(|f| f.path == "JobQueueType").unwrap();
    assert_eq!((f.tier, f.create_only), (Tier::AtDefault, true));

    let recorded = record_all(&first, &ctx);
    assert!(recorded.create_only_recorded);
    assert!(recorded
        .recorded
        .iter()
        .any(|e| e.path == "JobQueueType" && e.value == json!("ECS_FARGATE")));

    let recreated = with_live(case(QUEUE), "JobQueueType", json!("EKS"));
    let out = apply_baseline(replay_case(&recreated), Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == "JobQueueType")
        .expect("the re-created queue is reported");
    assert_eq!(f.tier, Tier::Undeclared);
    assert_eq!(f.note.as_deref(), Some(NOTE_CHANGED));
}

#[test]
fn a_create_only_value_appearing_on_a_recorded_resource_surfaces() {
    // Recorded while the queue reported no type; later one appears. A file
    // from before create-only values were recorded holds none, so there it
    // stays folded (no alert for every create-only value on upgrade).
    let ctx = ctx_for(QUEUE_STACK, &[QUEUE]);
    let mut before = case(QUEUE);
    if let Some(o) = before.live_raw.as_object_mut() {
        o.remove("JobQueueType");
    }
    let mut recorded = record_all(&replay_case(&before), &ctx);

    let later = replay_case(&case(QUEUE));
    let out = apply_baseline(later.clone(), Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == "JobQueueType")
        .unwrap();
    assert_eq!(f.tier, Tier::Undeclared);
    assert_eq!(f.note.as_deref(), Some(NOTE_APPEARED));

    recorded.create_only_recorded = false;
    let out = apply_baseline(later, Some(&recorded), &ctx).unwrap();
    let f = out
        .findings
        .iter()
        .find(|f| f.path == "JobQueueType")
        .unwrap();
    assert_eq!((f.tier, f.unrecorded), (Tier::AtDefault, false));
}

#[test]
fn a_create_only_value_another_rule_explains_is_not_recorded() {
    // Lambda PackageType `Zip` is a known default: no choice to keep.
    let first = replay_case(&case("AWS__Lambda__Function.Handler886CB40B_config_rich"));
    let f = first.iter().find(|f| f.path == "PackageType").unwrap();
    assert_eq!((f.tier, f.create_only), (Tier::AtDefault, false));
}
