//! The revert plan rule by rule: each target, each refusal reason, each
//! operation kind, tag preservation, write-only re-inclusion, the digest,
//! selection, apply-time grouping and the text rendering.

use realdrift_core::baseline::{NOTE_APPEARED, NOTE_CHANGED, NOTE_REMOVED};
use realdrift_core::finding::WholeArrayRevert;
use realdrift_core::revert::{
    build_plan, render_plan, BatchAction, ItemKind, Operation, PlanInput, PlanItem, PlanOptions,
    PlanTextOptions, RefusalReason, RevertPlan, RevertResource, Writer,
};
use realdrift_core::schema::{Handlers, SchemaFacts};
use realdrift_core::{DeclaredValue, Finding, Tier};
use serde_json::{json, Value};
use std::sync::Arc;

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn resource(
    lid: &str,
    ty: &str,
    declared: Value,
    live: Value,
    schema: SchemaFacts,
) -> RevertResource {
    let Value::Object(d) = declared else {
        panic!("declared must be an object")
    };
    RevertResource {
        logical_id: lid.into(),
        resource_type: ty.into(),
        physical_id: Some(format!("{lid}-phys")),
        declared: d
            .iter()
            .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
            .collect(),
        live: Some(live),
        schema: Some(Arc::new(schema)),
        secret_paths: Default::default(),
    }
}

fn finding(
    tier: Tier,
    r: &RevertResource,
    path: &str,
    desired: Option<Value>,
    actual: Option<Value>,
) -> Finding {
    let mut f = Finding::new(tier, &r.logical_id, &r.resource_type, path);
    f.physical_id = r.physical_id.clone();
    // As the baseline stage marks confirmed live-only drift.
    if matches!(tier, Tier::Undeclared | Tier::Added) {
        f.note = Some(
            match (&desired, &actual) {
                (Some(_), Some(_)) => NOTE_CHANGED,
                (Some(_), None) => NOTE_REMOVED,
                (None, _) => NOTE_APPEARED,
            }
            .to_string(),
        );
    }
    f.desired = desired;
    f.actual = actual;
    f
}

fn plan_with(
    findings: Vec<Finding>,
    resources: Vec<RevertResource>,
    opts: PlanOptions,
) -> RevertPlan {
    let input = PlanInput {
        stack: "App".into(),
        account: Some("111111111111".into()),
        region: Some("eu-west-1".into()),
        findings,
        resources,
        stack_tags: [("env".to_string(), "prod".to_string())].into(),
    };
    build_plan(&input, &opts)
}

fn plan(findings: Vec<Finding>, resources: Vec<RevertResource>) -> RevertPlan {
    plan_with(findings, resources, PlanOptions::default())
}

fn only_item(p: &RevertPlan) -> &PlanItem {
    assert_eq!(
        p.items.len(),
        1,
        "items: {:#?}\nrefused: {:#?}",
        p.items,
        p.refused
    );
    &p.items[0]
}

fn only_refusal(p: &RevertPlan) -> RefusalReason {
    assert!(p.items.is_empty(), "unexpected items: {:#?}", p.items);
    assert_eq!(p.refused.len(), 1, "{:#?}", p.refused);
    p.refused[0].reason
}

fn patch_json(item: &PlanItem) -> Value {
    match &item.operation {
        Operation::CloudControlPatch { patch } => serde_json::to_value(patch).unwrap(),
        other => panic!("not a patch: {other:?}"),
    }
}

fn bucket(live: Value) -> RevertResource {
    resource(
        "Bucket",
        "AWS::S3::Bucket",
        json!({"VersioningConfiguration": {"Status": "Enabled"}}),
        live,
        SchemaFacts {
            create_only: strings(&["BucketName"]),
            create_only_paths: strings(&["BucketName"]),
            read_only: strings(&["Arn"]),
            read_only_paths: strings(&["Arn"]),
            ..SchemaFacts::default()
        },
    )
}

// ---- targets and operation kinds ----

#[test]
fn declared_drift_writes_the_template_value() {
    let r = bucket(json!({"VersioningConfiguration": {"Status": "Suspended"}}));
    let f = finding(
        Tier::Declared,
        &r,
        "VersioningConfiguration.Status",
        Some(json!("Enabled")),
        Some(json!("Suspended")),
    );
    let p = plan(vec![f], vec![r]);
    let item = only_item(&p);
    assert_eq!(
        (item.kind, item.writer),
        (ItemKind::Template, Writer::CloudControl)
    );
    assert_eq!(item.id, "Bucket:VersioningConfiguration.Status");
    assert_eq!(
        patch_json(item),
        json!([{"op": "replace", "path": "/VersioningConfiguration/Status", "value": "Enabled"}])
    );
    assert_eq!(item.target, Some(json!("Enabled")));
    assert_eq!(item.current, Some(json!("Suspended")));
}

#[test]
fn undeclared_drift_reverts_to_the_baseline_value_or_by_removal() {
    let r =
        bucket(json!({"AccelerateConfiguration": {"AccelerationStatus": "Enabled"}, "Extra": 1}));
    let changed = {
        let mut f = finding(
            Tier::Undeclared,
            &r,
            "AccelerateConfiguration.AccelerationStatus",
            Some(json!("Suspended")),
            Some(json!("Enabled")),
        );
        f.note = Some("changed since record".into());
        f
    };
    let appeared = finding(Tier::Undeclared, &r, "Extra", None, Some(json!(1)));
    let removed = finding(
        Tier::Undeclared,
        &r,
        "Logging.Prefix",
        Some(json!("logs/")),
        None,
    );
    let p = plan(vec![changed, appeared, removed], vec![r]);
    assert_eq!(p.items.len(), 3, "{:#?}", p.refused);
    assert_eq!(p.items[0].kind, ItemKind::Baseline);
    assert_eq!(
        patch_json(&p.items[0]),
        json!([{"op": "replace", "path": "/AccelerateConfiguration/AccelerationStatus", "value": "Suspended"}])
    );
    assert_eq!(p.items[1].kind, ItemKind::Remove);
    assert_eq!(
        patch_json(&p.items[1]),
        json!([{"op": "remove", "path": "/Extra"}])
    );
    assert_eq!(p.items[1].target, None);
    // A recorded value removed since record is added back, building missing parents.
    assert_eq!(
        patch_json(&p.items[2]),
        json!([{"op": "add", "path": "/Logging", "value": {"Prefix": "logs/"}}])
    );
}

#[test]
fn a_removal_the_service_ignores_writes_the_documented_default() {
    let r = resource(
        "Role",
        "AWS::IAM::Role",
        json!({}),
        json!({"MaxSessionDuration": 7200}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Undeclared,
        &r,
        "MaxSessionDuration",
        None,
        Some(json!(7200)),
    );
    let p = plan(vec![f], vec![r]);
    let item = only_item(&p);
    assert_eq!(item.kind, ItemKind::ExplicitDefault);
    assert_eq!(
        patch_json(item),
        json!([{"op": "replace", "path": "/MaxSessionDuration", "value": 3600}])
    );
}

#[test]
fn unrecorded_values_are_refused_unless_removal_is_asked_for() {
    let r = bucket(json!({"Extra": {"A": 1}}));
    let mut f = finding(Tier::Undeclared, &r, "Extra.A", None, Some(json!(1)));
    f.unrecorded = true;
    let p = plan(vec![f.clone()], vec![r.clone()]);
    assert_eq!(only_refusal(&p), RefusalReason::Unrecorded);
    let p = plan_with(
        vec![f],
        vec![r],
        PlanOptions {
            remove_unrecorded: true,
            select: None,
        },
    );
    let item = only_item(&p);
    assert!(item.unrecorded);
    assert_eq!(
        patch_json(item),
        json!([{"op": "remove", "path": "/Extra/A"}])
    );
}

#[test]
fn out_of_band_resources_are_deleted_by_the_writer_that_owns_their_type() {
    let added = |lid: &str, ty: &str, id: &str| {
        let mut f = Finding::new(Tier::Added, lid, ty, "");
        f.physical_id = Some(id.into());
        f.actual = Some(json!({"Any": "model"}));
        f.note = Some("appeared since record".into());
        f
    };
    let p = plan(
        vec![
            added(
                "Topic+Subscription[arn:s]",
                "AWS::SNS::Subscription",
                "arn:s",
            ),
            added(
                "Fn+Permission[fn|Sid1]",
                "AWS::Lambda::Permission",
                "fn|Sid1",
            ),
            added("B+BucketPolicy[b]", "AWS::S3::BucketPolicy", "b"),
            added("T+TopicPolicy[t]", "AWS::SNS::TopicPolicy", "t"),
        ],
        vec![],
    );
    assert_eq!(p.items.len(), 3, "{:#?}", p.refused);
    assert_eq!(p.items[0].id, "Topic+Subscription[arn:s]:delete");
    assert_eq!(p.items[0].operation, Operation::CloudControlDelete);
    assert_eq!(p.items[0].kind, ItemKind::Delete);
    let ops = |i: &PlanItem| serde_json::to_value(&i.operation).unwrap()["ops"].clone();
    assert_eq!(
        ops(&p.items[1]),
        json!([{"op": "removePermission", "functionName": "fn", "statementId": "Sid1"}])
    );
    assert_eq!(
        ops(&p.items[2]),
        json!([{"op": "deleteBucketPolicy", "bucket": "b"}])
    );
    assert_eq!(p.refused[0].reason, RefusalReason::NoWriter);
}

#[test]
fn types_cloud_control_cannot_write_go_to_their_service_writer() {
    let doc = json!({"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*", "Resource": "*"}]});
    let bp = resource(
        "Policy",
        "AWS::S3::BucketPolicy",
        json!({"Bucket": "my-bucket", "PolicyDocument": doc}),
        json!({"Bucket": "my-bucket", "PolicyDocument": {"Statement": []}}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Declared,
        &bp,
        "PolicyDocument",
        Some(doc.clone()),
        Some(json!({"Statement": []})),
    );
    let p = plan(vec![f], vec![bp.clone()]);
    let item = only_item(&p);
    assert_eq!(item.writer, Writer::S3BucketPolicy);
    let ops = serde_json::to_value(&item.operation).unwrap();
    assert_eq!(ops["ops"][0]["op"], "putBucketPolicy");
    assert_eq!(ops["ops"][0]["bucket"], "my-bucket");
    assert_eq!(
        ops["ops"][0]["policyDocument"]["Statement"][0]["Effect"],
        "Deny"
    );

    // A value the template does not declare has no writer there.
    let u = finding(
        Tier::Undeclared,
        &bp,
        "PolicyDocument.Id",
        Some(json!("x")),
        Some(json!("y")),
    );
    assert_eq!(
        only_refusal(&plan(vec![u], vec![bp])),
        RefusalReason::NoWriter
    );

    let perm = resource(
        "Perm",
        "AWS::Lambda::Permission",
        json!({"FunctionName": "fn", "Action": "lambda:InvokeFunction", "Principal": "s3.amazonaws.com", "SourceAccount": "111111111111"}),
        json!({"FunctionName": "fn", "Action": "lambda:InvokeFunction", "Principal": "s3.amazonaws.com"}),
        SchemaFacts::default(),
    );
    let mut perm = perm;
    perm.physical_id = Some("fn|Perm-1".into());
    let f = finding(
        Tier::Declared,
        &perm,
        "SourceAccount",
        Some(json!("111111111111")),
        None,
    );
    let p = plan(vec![f], vec![perm]);
    let ops = serde_json::to_value(&only_item(&p).operation).unwrap();
    assert_eq!(ops["ops"][0]["op"], "putPermission");
    assert_eq!(ops["ops"][0]["statementId"], "Perm-1");
    assert_eq!(ops["ops"][0]["permission"]["SourceAccount"], "111111111111");

    let ip = resource(
        "Inline",
        "AWS::IAM::Policy",
        json!({"PolicyName": "p", "PolicyDocument": doc, "Roles": ["r1", "r2"]}),
        json!({"PolicyName": "p", "PolicyDocument": doc, "Roles": ["r1"]}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Declared,
        &ip,
        "Roles",
        Some(json!(["r1", "r2"])),
        Some(json!(["r1"])),
    );
    let p = plan(vec![f], vec![ip]);
    let ops = serde_json::to_value(&only_item(&p).operation).unwrap();
    assert_eq!(
        ops["ops"][0]["principals"],
        json!([{"kind": "role", "name": "r1"}, {"kind": "role", "name": "r2"}])
    );
    assert_eq!(ops["ops"].as_array().map(Vec::len), Some(1));

    // Moved to another role out of band: put back on the declared role, and
    // taken off the one that should not hold it (read back by ARN or name).
    let moved = resource(
        "Inline",
        "AWS::IAM::Policy",
        json!({"PolicyName": "p", "PolicyDocument": doc, "Roles": ["r1"]}),
        json!({"PolicyName": "p", "PolicyDocument": doc,
            "Roles": ["arn:aws:iam::111111111111:role/r1", "intruder"]}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Declared,
        &moved,
        "Roles",
        Some(json!(["r1"])),
        Some(json!(["intruder", "r1"])),
    );
    let p = plan(vec![f], vec![moved]);
    let ops = serde_json::to_value(&only_item(&p).operation).unwrap();
    assert_eq!(ops["ops"][0]["op"], "putInlinePolicy");
    assert_eq!(ops["ops"][1]["op"], "deleteInlinePolicy");
    assert_eq!(
        ops["ops"][1]["principals"],
        json!([{"kind": "role", "name": "intruder"}])
    );
}

#[test]
fn a_whole_array_revert_rewrites_the_array_only_when_classify_marked_it() {
    let r = resource(
        "Dist",
        "AWS::CloudFront::Distribution",
        json!({}),
        json!({"Origins": [{"Id": "a", "Path": "/x"}]}),
        SchemaFacts::default(),
    );
    let mut f = finding(
        Tier::Declared,
        &r,
        "Origins.0.Path",
        Some(json!("/v")),
        Some(json!("/x")),
    );
    let p = plan(vec![f.clone()], vec![r.clone()]);
    assert_eq!(only_refusal(&p), RefusalReason::ArrayElement);
    f.whole_array_revert = Some(WholeArrayRevert {
        path: "Origins".into(),
        value: json!([{"Id": "a", "Path": "/v"}]),
    });
    let p = plan(vec![f], vec![r]);
    let item = only_item(&p);
    assert_eq!(
        patch_json(item),
        json!([{"op": "replace", "path": "/Origins", "value": [{"Id": "a", "Path": "/v"}]}])
    );
    assert_eq!(item.target, Some(json!("/v")));
}

// ---- refusals ----

#[test]
fn gaps_and_deleted_resources_are_refused_with_their_reason() {
    let r = bucket(json!({}));
    for (tier, reason) in [
        (Tier::Deleted, RefusalReason::Deleted),
        (Tier::ReadGap, RefusalReason::ReadGap),
        (Tier::Unresolved, RefusalReason::Unresolved),
        (Tier::Skipped, RefusalReason::Skipped),
    ] {
        let path = if tier == Tier::Deleted || tier == Tier::Skipped {
            ""
        } else {
            "P"
        };
        let p = plan(vec![finding(tier, &r, path, None, None)], vec![r.clone()]);
        assert_eq!(only_refusal(&p), reason);
    }
    // Informational tiers are not drift: neither items nor refusals.
    let p = plan(
        vec![finding(Tier::AtDefault, &r, "X", None, Some(json!(1)))],
        vec![r],
    );
    assert!(p.items.is_empty() && p.refused.is_empty());
}

#[test]
fn create_only_properties_need_a_replacement() {
    let r = bucket(json!({"BucketName": "new"}));
    let f = finding(
        Tier::Declared,
        &r,
        "BucketName",
        Some(json!("old")),
        Some(json!("new")),
    );
    let p = plan(vec![f], vec![r]);
    assert_eq!(only_refusal(&p), RefusalReason::CreateOnly);
    assert!(p.refused[0].message.contains("replacing"));
}

#[test]
fn array_element_paths_no_writer_can_address_are_refused() {
    let r = resource(
        "Instance",
        "AWS::EC2::Instance",
        json!({}),
        json!({"BlockDeviceMappings": [{"DeviceName": "/dev/sdf", "Ebs": {}}]}),
        SchemaFacts::default(),
    );
    let mut f = finding(
        Tier::Undeclared,
        &r,
        "BlockDeviceMappings[/dev/sdf]",
        None,
        Some(json!({"Ebs": {}})),
    );
    f.unrecorded = true;
    let p = plan_with(
        vec![f],
        vec![r],
        PlanOptions {
            remove_unrecorded: true,
            select: None,
        },
    );
    assert_eq!(only_refusal(&p), RefusalReason::ArrayElement);
}

#[test]
fn secret_positions_are_refused_and_never_reach_the_plan() {
    let mut r = resource(
        "Fn",
        "AWS::Lambda::Function",
        json!({"Environment": {"Variables": {"PW": "{{resolve:secretsmanager:db:SecretString:pw}}", "MODE": "a"}}}),
        json!({"Environment": {"Variables": {"PW": "hunter2", "MODE": "b"}}}),
        SchemaFacts::default(),
    );
    r.secret_paths.insert("Environment.Variables.PW".into());
    let whole = finding(
        Tier::Declared,
        &r,
        "Environment",
        Some(
            json!({"Variables": {"PW": "{{resolve:secretsmanager:db:SecretString:pw}}", "MODE": "a"}}),
        ),
        Some(json!({"Variables": {"PW": "hunter2", "MODE": "b"}})),
    );
    let p = plan(vec![whole], vec![r.clone()]);
    assert_eq!(only_refusal(&p), RefusalReason::Secret);
    let text =
        serde_json::to_string(&p).unwrap() + &render_plan(&p, PlanTextOptions { verbose: true });
    assert!(
        !text.contains("hunter2") && !text.contains("resolve:"),
        "{text}"
    );

    // A reference in the target is refused even without a declared secret path.
    r.secret_paths.clear();
    let f = finding(
        Tier::Declared,
        &r,
        "Environment.Variables.PW",
        Some(json!("{{resolve:ssm-secure:p}}")),
        Some(json!("hunter2")),
    );
    assert_eq!(
        only_refusal(&plan(vec![f], vec![r.clone()])),
        RefusalReason::Secret
    );

    // A sibling that holds no secret still reverts.
    let mut r2 = r.clone();
    r2.secret_paths.insert("Environment.Variables.PW".into());
    let f = finding(
        Tier::Declared,
        &r2,
        "Environment.Variables.MODE",
        Some(json!("a")),
        Some(json!("b")),
    );
    assert_eq!(
        only_item(&plan(vec![f], vec![r2])).writer,
        Writer::CloudControl
    );
}

#[test]
fn read_only_values_and_computed_digests_have_no_write_target() {
    let r = bucket(json!({"Arn": "arn:aws:s3:::b"}));
    let f = finding(
        Tier::Declared,
        &r,
        "Arn",
        Some(json!("arn:aws:s3:::a")),
        Some(json!("arn:aws:s3:::b")),
    );
    assert_eq!(
        only_refusal(&plan(vec![f], vec![r])),
        RefusalReason::ReadOnly
    );
    let fun = resource(
        "Fn",
        "AWS::Lambda::Function",
        json!({}),
        json!({"CodeSha256": "b"}),
        SchemaFacts::default(),
    );
    let mut f = finding(
        Tier::Undeclared,
        &fun,
        "CodeSha256",
        Some(json!("a")),
        Some(json!("b")),
    );
    f.note = Some("changed since record".into());
    assert_eq!(
        only_refusal(&plan(vec![f], vec![fun])),
        RefusalReason::ReadOnly
    );
}

#[test]
fn no_writer_for_types_without_an_update_handler_or_for_attribute_bags() {
    let r = resource(
        "Thing",
        "AWS::Some::ReadOnlyType",
        json!({}),
        json!({"A": 1}),
        SchemaFacts {
            handlers: Some(Handlers::from_names(["create", "read", "delete"])),
            ..SchemaFacts::default()
        },
    );
    let f = finding(Tier::Declared, &r, "A", Some(json!(2)), Some(json!(1)));
    assert_eq!(
        only_refusal(&plan(vec![f], vec![r])),
        RefusalReason::NoWriter
    );

    let lb = resource(
        "Lb",
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        json!({}),
        json!({"LoadBalancerAttributes": [{"Key": "idle_timeout.timeout_seconds", "Value": "300"}]}),
        SchemaFacts::default(),
    );
    let mut f = finding(
        Tier::Declared,
        &lb,
        "LoadBalancerAttributes",
        Some(json!("120")),
        Some(json!("300")),
    );
    f.attribute_key = Some("idle_timeout.timeout_seconds".into());
    let p = plan(vec![f], vec![lb]);
    assert_eq!(only_refusal(&p), RefusalReason::NoWriter);
    assert_eq!(
        p.refused[0].id,
        "Lb:LoadBalancerAttributes[idle_timeout.timeout_seconds]"
    );
}

#[test]
fn a_resource_without_a_live_model_or_a_patch_that_cannot_land_is_refused() {
    let mut r = bucket(json!({}));
    r.live = None;
    let f = finding(Tier::Declared, &r, "A", Some(json!(1)), Some(json!(2)));
    assert_eq!(
        only_refusal(&plan(vec![f], vec![r])),
        RefusalReason::PatchInvalid
    );
    // Removing a value the live model does not hold.
    let r = bucket(json!({}));
    let f = finding(Tier::Undeclared, &r, "Gone", None, Some(json!(1)));
    assert_eq!(
        only_refusal(&plan(vec![f], vec![r])),
        RefusalReason::PatchInvalid
    );
}

#[test]
fn overlapping_writes_that_differ_are_a_conflict() {
    let r = bucket(json!({"C": {"A": 1, "B": 2}}));
    let whole = finding(
        Tier::Undeclared,
        &r,
        "C",
        Some(json!({"A": 0})),
        Some(json!({"A": 1, "B": 2})),
    );
    let part = finding(Tier::Undeclared, &r, "C.B", Some(json!(5)), Some(json!(2)));
    let p = plan(vec![whole, part], vec![r]);
    assert_eq!(p.items.len(), 1);
    assert_eq!(p.refused[0].reason, RefusalReason::Conflict);
    assert!(p.refused[0].message.contains("Bucket:C"));
}

// ---- tags ----

#[test]
fn a_tag_revert_keeps_aws_service_managed_and_stack_tags() {
    let r = resource(
        "Asg",
        "AWS::AutoScaling::AutoScalingGroup",
        json!({"Tags": [{"Key": "team", "Value": "core"}]}),
        json!({"Tags": [
            {"Key": "aws:cloudformation:stack-name", "Value": "App"},
            {"Key": "AmazonECSManaged", "Value": ""},
            {"Key": "env", "Value": "prod"},
            {"Key": "team", "Value": "other"},
            {"Key": "console", "Value": "added"}
        ]}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Declared,
        &r,
        "Tags",
        Some(json!([{"Key": "team", "Value": "core"}])),
        Some(json!([{"Key": "console", "Value": "added"}, {"Key": "team", "Value": "other"}])),
    );
    let p = plan(vec![f], vec![r]);
    let item = only_item(&p);
    assert_eq!(
        item.preserved_tags,
        vec!["AmazonECSManaged", "aws:cloudformation:stack-name", "env"]
    );
    let written = &patch_json(item)[0]["value"];
    let keys: Vec<&str> = written
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["Key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "AmazonECSManaged",
            "aws:cloudformation:stack-name",
            "env",
            "team"
        ]
    );
    assert!(render_plan(&p, PlanTextOptions::default()).contains("keeps tags: AmazonECSManaged"));
}

#[test]
fn tags_held_inside_a_tag_specification_are_never_written_whole() {
    // EC2 capacity reservations keep their tags in TagSpecifications.*.Tags:
    // the compared value leaves out the aws: and stack tags, so writing it
    // back would strip them.
    let r = resource(
        "Cr",
        "AWS::EC2::CapacityReservation",
        json!({"InstanceCount": 1}),
        json!({"InstanceCount": 1, "TagSpecifications": [{"ResourceType": "capacity-reservation", "Tags": [
            {"Key": "aws:cloudformation:stack-name", "Value": "App"},
            {"Key": "env", "Value": "prod"},
            {"Key": "console", "Value": "added"}
        ]}]}),
        SchemaFacts {
            tag_property: Some("TagSpecifications.*.Tags".into()),
            ..SchemaFacts::default()
        },
    );
    let recorded = json!([{"ResourceType": "capacity-reservation", "Tags": []}]);
    let added = json!([{"ResourceType": "capacity-reservation", "Tags": [{"Key": "console", "Value": "added"}]}]);
    let f = finding(
        Tier::Undeclared,
        &r,
        "TagSpecifications",
        Some(recorded),
        Some(added),
    );
    let p = plan(vec![f], vec![r]);
    assert_eq!(only_refusal(&p), RefusalReason::NoWriter);
    assert!(
        p.refused[0].message.contains("TagSpecifications"),
        "{:?}",
        p.refused[0]
    );
}

#[test]
fn a_single_tag_is_addressed_by_key_and_a_map_key_by_pointer() {
    let r = resource(
        "Q",
        "AWS::SQS::Queue",
        json!({}),
        json!({"Tags": [{"Key": "aws:x", "Value": "1"}, {"Key": "oob", "Value": "v"}]}),
        SchemaFacts::default(),
    );
    let f = finding(
        Tier::Undeclared,
        &r,
        "Tags[oob]",
        None,
        Some(json!({"Key": "oob", "Value": "v"})),
    );
    let item = only_item(&plan(vec![f], vec![r])).clone();
    assert_eq!(
        patch_json(&item),
        json!([{"op": "replace", "path": "/Tags", "value": [{"Key": "aws:x", "Value": "1"}]}])
    );
    assert_eq!(item.target, None);

    let p = resource(
        "P",
        "AWS::SSM::Parameter",
        json!({}),
        json!({"Tags": {"aws:y": "1", "k": "v"}}),
        SchemaFacts::default(),
    );
    let f = finding(Tier::Undeclared, &p, "Tags.k", None, Some(json!("v")));
    assert_eq!(
        patch_json(only_item(&plan(vec![f], vec![p]))),
        json!([{"op": "remove", "path": "/Tags/k"}])
    );
}

// ---- write-only re-inclusion ----

fn service(declared: Value, write_only: &[&str]) -> RevertResource {
    resource(
        "Svc",
        "AWS::ECS::Service",
        declared,
        json!({"DesiredCount": 3}),
        SchemaFacts {
            write_only: strings(write_only),
            write_only_paths: strings(write_only),
            create_only: strings(&["LaunchType"]),
            ..SchemaFacts::default()
        },
    )
}

#[test]
fn declared_write_only_properties_are_re_sent_with_the_patch() {
    let r = service(
        json!({"DesiredCount": 2, "VolumeConfigurations": [{"Name": "v"}], "LaunchType": "FARGATE"}),
        &["VolumeConfigurations", "LaunchType", "Absent"],
    );
    let f = finding(
        Tier::Declared,
        &r,
        "DesiredCount",
        Some(json!(2)),
        Some(json!(3)),
    );
    let p = plan(vec![f], vec![r]);
    assert_eq!(
        p.reincluded.len(),
        1,
        "create-only and undeclared ones are not re-sent"
    );
    assert_eq!(p.reincluded[0].property, "VolumeConfigurations");
    let batches = p.batches();
    assert_eq!(batches.len(), 1);
    let BatchAction::Patch(patch) = &batches[0].action else {
        panic!("patch expected")
    };
    assert_eq!(
        serde_json::to_value(patch).unwrap(),
        json!([
            {"op": "replace", "path": "/DesiredCount", "value": 2},
            {"op": "add", "path": "/VolumeConfigurations", "value": [{"Name": "v"}]}
        ])
    );
}

#[test]
fn lambda_code_is_never_re_sent() {
    let r = resource(
        "Fn",
        "AWS::Lambda::Function",
        json!({"MemorySize": 128, "Code": {"S3Bucket": "b", "S3Key": "k"}}),
        json!({"MemorySize": 256}),
        SchemaFacts {
            write_only: strings(&["Code"]),
            ..SchemaFacts::default()
        },
    );
    let f = finding(
        Tier::Declared,
        &r,
        "MemorySize",
        Some(json!(128)),
        Some(json!(256)),
    );
    let p = plan(vec![f], vec![r]);
    assert_eq!(p.items.len(), 1);
    assert!(p.reincluded.is_empty());
}

#[test]
fn a_write_only_property_that_cannot_be_carried_refuses_the_patch() {
    let unresolved = service(
        json!({"DesiredCount": 2, "VolumeConfigurations": "__cdkrd_corpus_unresolved__"}),
        &["VolumeConfigurations"],
    );
    let f = finding(
        Tier::Declared,
        &unresolved,
        "DesiredCount",
        Some(json!(2)),
        Some(json!(3)),
    );
    assert_eq!(
        only_refusal(&plan(vec![f], vec![unresolved])),
        RefusalReason::WriteOnlyDropped
    );

    let secret = service(
        json!({"DesiredCount": 2, "Password": "{{resolve:secretsmanager:s}}"}),
        &["Password"],
    );
    let f = finding(
        Tier::Declared,
        &secret,
        "DesiredCount",
        Some(json!(2)),
        Some(json!(3)),
    );
    let p = plan(vec![f], vec![secret]);
    assert_eq!(only_refusal(&p), RefusalReason::Secret);
    assert!(!serde_json::to_string(&p).unwrap().contains("resolve:"));
}

// ---- digest, selection, round trip, grouping ----

fn two_item_plan(opts: PlanOptions) -> RevertPlan {
    let r = bucket(json!({"A": 1, "B": {"C": 2}}));
    let fa = finding(Tier::Declared, &r, "A", Some(json!(0)), Some(json!(1)));
    let fb = finding(Tier::Declared, &r, "B.C", Some(json!(0)), Some(json!(2)));
    plan_with(vec![fa, fb], vec![r], opts)
}

#[test]
fn the_digest_is_stable_and_covers_what_is_written() {
    let a = two_item_plan(PlanOptions::default());
    let b = two_item_plan(PlanOptions::default());
    assert_eq!(a.digest, b.digest);
    assert_eq!(a.digest.len(), 64);
    assert!(a.matches_digest(&b.digest));

    // Round trip through JSON keeps the plan and its digest.
    let text = serde_json::to_string_pretty(&a).unwrap();
    let back: RevertPlan = serde_json::from_str(&text).unwrap();
    assert_eq!(back, a);
    assert!(back.matches_digest(&a.digest));
    assert_eq!(back.canonical_json(), a.canonical_json());
    assert!(!a.canonical_json().contains('\n'));

    // What is written changes the digest; what was read or said does not.
    let mut t = a.clone();
    if let Operation::CloudControlPatch { patch } = &mut t.items[0].operation {
        patch.0 =
            serde_json::from_value(json!([{"op": "replace", "path": "/A", "value": 9}])).unwrap();
    }
    assert!(!t.matches_digest(&a.digest));
    let mut t = a.clone();
    t.items[0].resource.physical_id = Some("other".into());
    assert!(!t.matches_digest(&a.digest));
    let mut t = a.clone();
    t.items[0].current = Some(json!("seen later"));
    assert_eq!(realdrift_core::revert::plan_digest(&t), a.digest);
}

#[test]
fn selection_keeps_chosen_items_and_reports_the_rest() {
    let all = two_item_plan(PlanOptions::default());
    let p = two_item_plan(PlanOptions {
        remove_unrecorded: false,
        select: Some(["Bucket:B.C".to_string(), "Bucket:nope".to_string()].into()),
    });
    assert_eq!(p.items.len(), 1);
    assert_eq!(p.items[0].id, "Bucket:B.C");
    assert_eq!(p.not_selected, vec!["Bucket:A"]);
    assert_eq!(p.unmatched_selection, vec!["Bucket:nope"]);
    assert_ne!(p.digest, all.digest);
}

#[test]
fn one_resource_gets_one_patch_per_writer_at_apply_time() {
    let p = two_item_plan(PlanOptions::default());
    let batches = p.batches();
    assert_eq!(batches.len(), 1);
    assert_eq!(batches[0].item_ids, vec!["Bucket:A", "Bucket:B.C"]);
    let BatchAction::Patch(patch) = &batches[0].action else {
        panic!("patch expected")
    };
    assert_eq!(patch.0.len(), 2);
}

// ---- rendering ----

#[test]
fn the_text_plan_lists_items_in_full_and_folds_refusals_by_reason() {
    let r = bucket(json!({"A": 1, "Arn": "x", "BucketName": "n"}));
    let findings = vec![
        finding(Tier::Declared, &r, "A", Some(json!(0)), Some(json!(1))),
        finding(
            Tier::Declared,
            &r,
            "Arn",
            Some(json!("y")),
            Some(json!("x")),
        ),
        finding(
            Tier::Declared,
            &r,
            "BucketName",
            Some(json!("m")),
            Some(json!("n")),
        ),
        finding(Tier::ReadGap, &r, "W1", None, None),
        finding(Tier::ReadGap, &r, "W2", None, None),
    ];
    let p = plan(findings, vec![r]);
    let text = render_plan(&p, PlanTextOptions::default());
    insta::assert_snapshot!(text.replace(&p.digest, "<digest>"));
    let verbose = render_plan(&p, PlanTextOptions { verbose: true });
    assert!(verbose.contains("Bucket:W2: the live read cannot return"));
}

#[test]
fn hostile_identifiers_and_values_cannot_steer_the_terminal() {
    let mut r = bucket(json!({"A": "x\u{1b}[2J"}));
    r.logical_id = "Evil\u{1b}]8;;http://x\u{7}Id".into();
    let f = finding(
        Tier::Declared,
        &r,
        "A",
        Some(json!("ok → fine\n")),
        Some(json!("x\u{1b}[2J")),
    );
    let p = plan(vec![f], vec![r]);
    let text = render_plan(&p, PlanTextOptions { verbose: true });
    assert!(
        realdrift_core::report::is_terminal_safe(&text.replace('\n', "")),
        "{text:?}"
    );
    assert!(text.contains("\\u001b[2J"));
    assert!(text.contains("\\u2192"));
}

#[test]
fn a_network_acl_entry_opened_to_the_world_is_replaced_with_its_declared_entry() {
    // The shape of corpus case AWS__EC2__NetworkAclEntry.NaclInHttpsDF846A4B.
    let declared = json!({"NetworkAclId": "acl-0487d047096d72ead", "RuleNumber": 100,
        "Egress": false, "Protocol": 6, "RuleAction": "allow", "CidrBlock": "10.0.0.0/8",
        "PortRange": {"From": 443, "To": 443}});
    let mut live = declared.clone();
    live["CidrBlock"] = json!("0.0.0.0/0");
    let schema = SchemaFacts {
        create_only: strings(&["Egress", "NetworkAclId", "RuleNumber"]),
        create_only_paths: strings(&["Egress", "NetworkAclId", "RuleNumber"]),
        read_only: strings(&["Id"]),
        ..SchemaFacts::default()
    };
    let entry = resource(
        "NaclIn",
        "AWS::EC2::NetworkAclEntry",
        declared.clone(),
        live,
        schema,
    );
    let f = finding(
        Tier::Declared,
        &entry,
        "CidrBlock",
        Some(json!("10.0.0.0/8")),
        Some(json!("0.0.0.0/0")),
    );
    let p = plan(vec![f], vec![entry]);
    let item = only_item(&p);
    assert_eq!(item.writer, Writer::Ec2NetworkAclEntry);
    let ops = serde_json::to_value(&item.operation).unwrap();
    assert_eq!(ops["ops"][0]["op"], "replaceNetworkAclEntry");
    assert_eq!(ops["ops"][0]["entry"], declared);
}

#[test]
fn a_client_vpn_endpoint_setting_goes_to_its_writer_and_a_create_only_one_says_why() {
    let declared = json!({"ClientCidrBlock": "10.100.0.0/22", "SplitTunnel": false,
                          "VpcId": "vpc-1", "SecurityGroupIds": ["sg-1"]});
    let live = json!({"ClientCidrBlock": "10.200.0.0/22", "SplitTunnel": true,
                      "VpcId": "vpc-1", "SecurityGroupIds": ["sg-1"]});
    let vpn = resource(
        "Vpn",
        "AWS::EC2::ClientVpnEndpoint",
        declared,
        live,
        SchemaFacts::default(),
    );
    let split = finding(
        Tier::Declared,
        &vpn,
        "SplitTunnel",
        Some(json!(false)),
        Some(json!(true)),
    );
    let p = plan(vec![split], vec![vpn.clone()]);
    assert_eq!(only_item(&p).writer, Writer::Ec2ClientVpnEndpoint);
    let cidr = finding(
        Tier::Declared,
        &vpn,
        "ClientCidrBlock",
        Some(json!("10.100.0.0/22")),
        Some(json!("10.200.0.0/22")),
    );
    let p = plan(vec![cidr], vec![vpn]);
    assert_eq!(only_refusal(&p), RefusalReason::NoWriter);
    let message = &p.refused[0].message;
    assert!(
        message.contains("ClientCidrBlock") && message.contains("create-only"),
        "{message}"
    );
}
