//! A member's default folds only inside a block the template declares or a
//! block AWS itself fills on a fresh resource: it says what AWS does inside
//! a declared parent, never that the parent exists. Real corpus cases, with
//! the live read changed the way a console user changes it.

#[path = "fixtures/baselines/support.rs"]
mod support;

use realdrift_core::corpus::{replay_case, CorpusCase};
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};
use support::case;

/// The case with one more live top-level property.
fn with_live(mut c: CorpusCase, key: &str, value: Value) -> CorpusCase {
    if let Some(o) = c.live_raw.as_object_mut() {
        o.insert(key.to_string(), value);
    }
    c
}

fn at(fs: &[Finding], path: &str) -> Option<Tier> {
    fs.iter().find(|f| f.path == path).map(|f| f.tier)
}

#[test]
fn eventbridge_notifications_turned_on_out_of_band_surface() {
    // A bucket whose template declares no notifications; someone turned on
    // EventBridge delivery in the console. `EventBridgeEnabled` defaults to
    // true only inside an `EventBridgeConfiguration` a template declares.
    let bare = json!({"EventBridgeConfiguration": {"EventBridgeEnabled": true}});
    // The same, as the read returns it beside S3's empty notification lists.
    let as_read = json!({
        "TopicConfigurations": [],
        "QueueConfigurations": [],
        "LambdaConfigurations": [],
        "EventBridgeConfiguration": {"EventBridgeEnabled": true}
    });
    for live in [bare, as_read] {
        let c = with_live(
            case("AWS__S3__Bucket.HuntKmsBucket"),
            "NotificationConfiguration",
            live.clone(),
        );
        let fs = replay_case(&c);
        assert_eq!(
            at(&fs, "NotificationConfiguration"),
            Some(Tier::Undeclared),
            "{live}: {fs:#?}"
        );
    }
}

#[test]
fn eventbridge_enabled_inside_a_declared_configuration_still_folds() {
    // The template declares the configuration: AWS's default of its member
    // is what the read holds, no finding.
    let fs = replay_case(&case("AWS__S3__Bucket.DateLifecycle"));
    assert!(
        fs.iter()
            .all(|f| !f.path.starts_with("NotificationConfiguration")),
        "{fs:#?}"
    );
}

#[test]
fn a_block_aws_fills_folds_and_its_changed_member_surfaces() {
    // EFS fills `FileSystemProtection` on every file system (documented).
    let c = case("AWS__EFS__FileSystem.HuntEfs");
    assert_eq!(
        at(&replay_case(&c), "FileSystemProtection"),
        Some(Tier::AtDefault)
    );
    let changed = with_live(
        c,
        "FileSystemProtection",
        json!({"ReplicationOverwriteProtection": "DISABLED"}),
    );
    assert_eq!(
        at(&replay_case(&changed), "FileSystemProtection"),
        Some(Tier::Undeclared)
    );
}

/// The case with `value` set at the dotted live path (objects on the way
/// must exist).
fn with_live_at(mut c: CorpusCase, dotted: &str, value: Value) -> CorpusCase {
    let mut keys: Vec<&str> = dotted.split('.').collect();
    let last = keys.pop().unwrap_or_default();
    let parent = keys
        .into_iter()
        .try_fold(&mut c.live_raw, |at, k| at.get_mut(k));
    if let Some(Value::Object(o)) = parent {
        o.insert(last.to_string(), value);
    }
    c
}

#[test]
fn a_block_at_its_members_defaults_with_no_presence_evidence_surfaces() {
    // A bucket that never had versioning reads no `VersioningConfiguration`;
    // `{Status: Suspended}` means someone turned versioning on and then
    // suspended it. `Suspended` is the documented default of the member
    // inside a declared configuration, and switches nothing on: before,
    // the block folded from that member default.
    let c = with_live(
        case("AWS__S3__Bucket.HuntKmsBucket"),
        "VersioningConfiguration",
        json!({"Status": "Suspended"}),
    );
    let fs = replay_case(&c);
    assert_eq!(
        at(&fs, "VersioningConfiguration"),
        Some(Tier::Undeclared),
        "{fs:#?}"
    );
}

#[test]
fn a_documented_block_folds_and_its_changed_member_surfaces() {
    // Lambda gives every function 512 MB of /tmp (documented).
    let c = case("AWS__Lambda__Function.ApiFnE0725F78");
    assert_eq!(
        at(&replay_case(&c), "EphemeralStorage"),
        Some(Tier::AtDefault)
    );
    let changed = with_live(c, "EphemeralStorage", json!({"Size": 1024}));
    assert_eq!(
        at(&replay_case(&changed), "EphemeralStorage"),
        Some(Tier::Undeclared)
    );
}

#[test]
fn a_block_present_only_under_a_setting_folds_only_there() {
    // A zone-aware domain has a zone awareness block (two zones by default).
    let aware = case("AWS__OpenSearchService__Domain.HuntOsMultiAz");
    let path = "ClusterConfig.ZoneAwarenessConfig";
    assert_eq!(at(&replay_case(&aware), path), Some(Tier::AtDefault));
    // On a domain with zone awareness off the block means nothing AWS set.
    let off = with_live_at(
        case("AWS__OpenSearchService__Domain.Domain66AC69E0"),
        path,
        json!({"AvailabilityZoneCount": 2}),
    );
    let fs = replay_case(&off);
    assert_eq!(at(&fs, path), Some(Tier::Undeclared), "{fs:#?}");
}
