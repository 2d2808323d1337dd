//! The scenarios: a fresh stack checks clean, then the mutation matrix
//! (declared, undeclared, added, deleted), record, ignore and the CLI surface.

use crate::world::{self, drift_findings, ids, summary, the_finding, World, ACCOUNT};
use serde_json::{json, Value};

/// A named scenario.
pub struct Scenario {
    /// Its name (filters match substrings of it).
    pub name: &'static str,
    /// The body; panics on failure.
    pub run: fn(&World),
}

/// Every scenario, in run order.
pub const ALL: &[Scenario] = &[
    Scenario {
        name: "fresh_stack_checks_clean",
        run: fresh_stack_checks_clean,
    },
    Scenario {
        name: "declared_drift_fails_under_fail",
        run: declared_drift_fails_under_fail,
    },
    Scenario {
        name: "deleted_queue_is_reported",
        run: deleted_queue_is_reported,
    },
    Scenario {
        name: "undeclared_values_record_then_watch",
        run: undeclared_values_record_then_watch,
    },
    Scenario {
        name: "added_subscription_is_reported",
        run: added_subscription_is_reported,
    },
    Scenario {
        name: "ignore_rules_silence_findings",
        run: ignore_rules_silence_findings,
    },
    Scenario {
        name: "stack_selection_errors_and_s3_baselines",
        run: stack_selection_errors_and_s3_baselines,
    },
    Scenario {
        name: "unsettled_and_missing_stacks_count_in_the_exit_code",
        run: unsettled_and_missing_stacks_count_in_the_exit_code,
    },
    Scenario {
        name: "custom_bus_rule_sibling_rules_and_unresolved_leaves",
        run: custom_bus_rule_sibling_rules_and_unresolved_leaves,
    },
    Scenario {
        name: "hostile_record_corpus_writes_no_secret",
        run: hostile_record_corpus_writes_no_secret,
    },
    Scenario {
        name: "hostile_unchecked_selection_fails_the_gate",
        run: hostile_unchecked_selection_fails_the_gate,
    },
    Scenario {
        name: "hostile_record_refuses_a_foreign_baseline",
        run: hostile_record_refuses_a_foreign_baseline,
    },
    Scenario {
        name: "hostile_silent_cloud_control_loses_coverage",
        run: hostile_silent_cloud_control_loses_coverage,
    },
];

fn check_json(w: &World, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let run = w.realdrift(&all);
    (run.code, run.json())
}

/// Cloud Control reads per Cloud Control-read resource: exactly one each.
fn assert_one_read_per_resource(doc: &Value) {
    let stack = &doc["stacks"][0];
    let calls = &stack["awsCalls"]["byOperation"];
    let cc_reads = calls["cloudcontrol:GetResource"].as_u64().unwrap_or(0);
    // The fixture's Cloud Control types: bucket, queue, topic, subscription,
    // role, function, table, log group, rule.
    assert_eq!(
        cc_reads, 9,
        "one GetResource per Cloud Control resource: {calls}"
    );
}

fn fresh_stack_checks_clean(w: &World) {
    w.deploy("Fresh");
    let (code, doc) = check_json(w, &["Fresh", "--fail"]);
    assert_eq!(code, 0, "{doc}");
    let drift = drift_findings(&doc);
    assert!(
        drift.is_empty(),
        "a fresh stack has no drift findings:\n{}",
        summary(&drift)
    );
    assert_eq!(doc["summary"]["drift"], 0);
    assert_eq!(doc["summary"]["potentialDrift"], 0);
    // Full coverage: every one of the fixture's 13 resources is read.
    let coverage = &doc["stacks"][0]["coverage"];
    assert_eq!(
        (
            &coverage["total"],
            &coverage["checked"],
            &coverage["complete"]
        ),
        (&json!(13), &json!(13), &json!(true)),
        "{coverage}"
    );
    let skipped: Vec<Value> = world::findings(&doc)
        .into_iter()
        .filter(|f| f["tier"] == "skipped")
        .collect();
    assert!(skipped.is_empty(), "no skips:\n{}", summary(&skipped));
    assert_one_read_per_resource(&doc);
    assert!(doc["awsCalls"]["total"].as_u64().unwrap_or(0) > 8);

    // Text mode: the report on stdout, AWS calls on stderr, no colour when piped.
    let text = w.realdrift(&["check", "Fresh"]);
    text.expect_code(0);
    assert!(
        text.stdout.contains("Fresh (123456789012 / us-east-1)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.lines().any(|l| l.starts_with("result: ")),
        "{}",
        text.stdout
    );
    assert!(!text.stdout.contains('\u{1b}'), "no colour when piped");
    assert!(text.stderr.contains("AWS calls: "), "{}", text.stderr);
    assert!(
        text.stderr.contains("cloudcontrol:GetResource 9"),
        "{}",
        text.stderr
    );
    // --strict: coverage is complete, so it passes.
    w.realdrift(&["check", "Fresh", "--strict"]).expect_code(0);

    // --record-corpus writes cases that replay to the same findings.
    let corpus = w.dir.join("corpus");
    let corpus_arg = corpus.to_str().unwrap_or_default();
    w.realdrift(&["check", "Fresh", "--record-corpus", corpus_arg])
        .expect_code(0);
    let cases = std::fs::read_dir(&corpus).map(|d| d.count()).unwrap_or(0);
    assert_eq!(cases, 13, "one case per classified resource");
    let replay = w.realdrift(&["corpus", "replay", corpus_arg, "--format", "summary"]);
    replay.expect_code(0);
    assert!(
        replay.stdout.contains("cases:                 13"),
        "{}",
        replay.stdout
    );
    assert!(
        replay.stdout.contains("exact:                 13"),
        "{}",
        replay.stdout
    );
}

fn declared_drift_fails_under_fail(w: &World) {
    let s = w.deploy("Declared");
    w.mutate(json!([
        ["versioning", s.id(ids::BUCKET), "Suspended"],
        ["topic-display-name", s.id(ids::TOPIC), "Changed by hand"],
    ]));
    let (code, doc) = check_json(w, &["Declared"]);
    assert_eq!(code, 0, "drift without --fail exits 0");
    let v = the_finding(
        &doc,
        "declared",
        ids::BUCKET,
        "VersioningConfiguration.Status",
    );
    assert_eq!(v["desired"], "Enabled");
    assert_eq!(v["actual"], "Suspended");
    let t = the_finding(&doc, "declared", ids::TOPIC, "DisplayName");
    assert_eq!(t["actual"], "Changed by hand");
    assert_eq!(
        drift_findings(&doc).len(),
        2,
        "{}",
        summary(&drift_findings(&doc))
    );
    assert_eq!(doc["stacks"][0]["status"], "drift");

    let (code, doc) = check_json(w, &["Declared", "--fail"]);
    assert_eq!(code, 1);
    assert_eq!(doc["exitCode"], 1);
    let text = w.realdrift(&["check", "Declared", "--fail"]);
    text.expect_code(1);
    assert!(
        text.stdout.contains("[CFn-Declared Drift: 2]"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("VersioningConfiguration.Status: Enabled → Suspended"),
        "{}",
        text.stdout
    );
}

fn deleted_queue_is_reported(w: &World) {
    let s = w.deploy("Deleted");
    w.mutate(json!([["queue-delete", s.id(ids::QUEUE)]]));
    let (code, doc) = check_json(w, &["Deleted", "--fail"]);
    assert_eq!(code, 1, "{doc}");
    let f = the_finding(&doc, "deleted", ids::QUEUE, "");
    assert_eq!(f["resourceType"], "AWS::SQS::Queue");
    // The queue's policy went with it, as on AWS.
    let p = the_finding(&doc, "deleted", ids::QUEUE_POLICY, "");
    assert_eq!(p["resourceType"], "AWS::SQS::QueuePolicy");
    assert_eq!(doc["stacks"][0]["driftByTier"]["deleted"], 2);
}

fn undeclared_values_record_then_watch(w: &World) {
    let s = w.deploy("Undeclared");
    let bucket = s.id(ids::BUCKET).to_string();
    let role = s.id(ids::ROLE).to_string();
    w.mutate(json!([
        ["accelerate", bucket, "Enabled"],
        ["cors-put", bucket, "https://app.example"],
        ["role-policy", role, "Rogue", "s3:*"],
    ]));
    // First seen: potential drift (no baseline yet), which never fails --fail.
    let (code, doc) = check_json(w, &["Undeclared", "--fail"]);
    assert_eq!(code, 0, "{doc}");
    for (id, path) in [
        (ids::BUCKET, "AccelerateConfiguration"),
        (ids::BUCKET, "CorsConfiguration"),
        (ids::ROLE, "Policies"),
    ] {
        let f = the_finding(&doc, "undeclared", id, path);
        assert_eq!(f["unrecorded"], true, "{f}");
    }
    assert_eq!(
        drift_findings(&doc).len(),
        3,
        "{}",
        summary(&drift_findings(&doc))
    );
    let f = the_finding(&doc, "undeclared", ids::BUCKET, "AccelerateConfiguration");
    assert_eq!(f["actual"], json!({"AccelerationStatus": "Enabled"}));

    // record without a terminal and without --yes refuses and writes nothing.
    let refused = w.realdrift(&["record", "Undeclared"]);
    refused.expect_code(2);
    assert!(refused.stderr.contains("--yes"), "{}", refused.stderr);
    assert!(!w.baseline_path("Undeclared").exists());

    let rec = w.realdrift(&["record", "Undeclared", "--yes"]);
    rec.expect_code(0);
    // The three values, plus the function's CodeSha256 (a recordable content hash).
    assert!(rec.stdout.contains("recorded 4 new"), "{}", rec.stdout);
    let file = std::fs::read_to_string(w.baseline_path("Undeclared")).expect("baseline written");
    let baseline: Value = serde_json::from_str(&file).expect("baseline JSON");
    assert_eq!(baseline["accountId"], ACCOUNT);
    let mut recorded: Vec<String> = baseline["recorded"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            format!(
                "{}.{}",
                e["logicalId"].as_str().unwrap_or_default(),
                e["path"].as_str().unwrap_or_default()
            )
        })
        .collect();
    recorded.sort();
    assert_eq!(
        recorded,
        [
            "Data666C94C7.AccelerateConfiguration",
            "Data666C94C7.CorsConfiguration",
            "Worker11F36D0F.CodeSha256",
            "WorkerRole8DD27D41.Policies",
        ],
        "{file}"
    );

    // Recorded: clean.
    let (code, doc) = check_json(w, &["Undeclared", "--fail"]);
    assert_eq!(code, 0, "{doc}");
    let drift = drift_findings(&doc);
    assert!(
        drift.is_empty(),
        "recorded values are silent:\n{}",
        summary(&drift)
    );
    // --show-all lists them again, as potential drift (never failing).
    let (code, doc) = check_json(w, &["Undeclared", "--fail", "--show-all"]);
    assert_eq!(code, 0);
    assert_eq!(drift_findings(&doc).len(), 3);

    // Changes after record are drift: changed, removed, changed.
    w.mutate(json!([
        ["accelerate", bucket, "Suspended"],
        ["cors-delete", bucket],
        ["role-policy", role, "Rogue", "iam:*"],
    ]));
    let (code, doc) = check_json(w, &["Undeclared", "--fail"]);
    assert_eq!(code, 1, "{doc}");
    let accel = the_finding(&doc, "undeclared", ids::BUCKET, "AccelerateConfiguration");
    assert_eq!(accel["actual"], json!({"AccelerationStatus": "Suspended"}));
    assert_eq!(accel["desired"], json!({"AccelerationStatus": "Enabled"}));
    let cors = the_finding(&doc, "undeclared", ids::BUCKET, "CorsConfiguration");
    assert!(cors.get("actual").is_none(), "removed since record: {cors}");
    let policy = the_finding(&doc, "undeclared", ids::ROLE, "Policies");
    assert!(policy["actual"].to_string().contains("iam:*"), "{policy}");
    for f in [&accel, &cors, &policy] {
        assert!(f.get("unrecorded").is_none(), "confirmed drift: {f}");
    }
    assert_eq!(doc["stacks"][0]["driftByTier"]["undeclared"], 3);
}

fn added_subscription_is_reported(w: &World) {
    let s = w.deploy("Added");
    let topic = s.id(ids::TOPIC).to_string();
    // A baseline recorded on the untouched stack: the topic's subscriptions
    // were enumerated completely, so a new one is drift, not inventory.
    w.realdrift(&["record", "Added", "--yes"]).expect_code(0);
    w.realdrift(&["check", "Added", "--fail"]).expect_code(0);
    w.mutate(json!([["subscribe", topic, "email", "oncall@example.com"]]));
    let (code, doc) = check_json(w, &["Added", "--fail"]);
    assert_eq!(code, 1, "{doc}");
    let subs = |doc: &Value| -> Vec<Value> {
        world::findings(doc)
            .into_iter()
            .filter(|f| {
                f["resourceType"] == "AWS::SNS::Subscription"
                    && f["logicalId"].as_str().is_some_and(|id| id.contains('+'))
            })
            .collect()
    };
    let found = subs(&doc);
    assert_eq!(found.len(), 1, "{}", summary(&world::findings(&doc)));
    let f = &found[0];
    // Confirmed drift that stays in the out-of-band resources section: the
    // baseline stage keeps a confirmed child on the `added` tier.
    assert_eq!(f["tier"], "added", "{f}");
    assert_eq!(f["note"], "appeared since record");
    assert_eq!(f["path"], "");
    assert!(f["logicalId"]
        .as_str()
        .unwrap_or_default()
        .starts_with(&format!("{}+Subscription[", ids::TOPIC)));
    assert!(f["physicalId"]
        .as_str()
        .unwrap_or_default()
        .starts_with(&topic));
    assert!(f.get("unrecorded").is_none(), "appeared since record: {f}");

    // Without the baseline (inventory mode) it is potential drift.
    let (code, doc) = check_json(w, &["Added", "--fail", "--show-all"]);
    assert_eq!(code, 0);
    let found = subs(&doc);
    assert_eq!(found.len(), 1, "{}", summary(&found));
    assert_eq!(found[0]["tier"], "added");
    assert_eq!(found[0]["unrecorded"], true);
}

fn ignore_rules_silence_findings(w: &World) {
    let s = w.deploy("Ignored");
    w.mutate(json!([["versioning", s.id(ids::BUCKET), "Suspended"]]));
    w.realdrift(&["check", "Ignored", "--fail"]).expect_code(1);

    let dir = w.dir.join("baselines");
    std::fs::create_dir_all(&dir).expect("baselines dir");
    let file = dir.join("ignore.yaml");
    std::fs::write(&file, "# team policy: keep this comment\nignore:\n  # existing rule\n  - path: '*.DesiredCount'\n")
        .expect("seed ignore.yaml");
    let add = w.realdrift(&[
        "ignore",
        "Data/Resource.VersioningConfiguration",
        "--stack",
        "Ignored",
        "--region",
        "us-east-1",
    ]);
    add.expect_code(0);
    assert!(add.stdout.contains("added rule"), "{}", add.stdout);
    let text = std::fs::read_to_string(&file).expect("ignore.yaml");
    assert!(text.starts_with("# team policy: keep this comment\nignore:\n  # existing rule\n  - path: '*.DesiredCount'\n"), "{text}");
    assert!(
        text.contains("Data/Resource.VersioningConfiguration"),
        "{text}"
    );
    let again = w.realdrift(&[
        "ignore",
        "Data/Resource.VersioningConfiguration",
        "--stack",
        "Ignored",
        "--region",
        "us-east-1",
    ]);
    again.expect_code(0);
    assert!(again.stdout.contains("already present"), "{}", again.stdout);
    assert_eq!(std::fs::read_to_string(&file).expect("ignore.yaml"), text);

    let (code, doc) = check_json(w, &["Ignored", "--fail"]);
    assert_eq!(code, 0, "{doc}");
    let f = the_finding(
        &doc,
        "ignored",
        ids::BUCKET,
        "VersioningConfiguration.Status",
    );
    assert_eq!(f["actual"], "Suspended");
    assert!(drift_findings(&doc).is_empty());

    // A malformed ignore file is an error naming it (exit 2), never "no rules".
    std::fs::write(&file, "ignroe: []\n").expect("break ignore.yaml");
    let bad = w.realdrift(&["check", "Ignored"]);
    bad.expect_code(2);
    assert!(bad.stderr.contains("ignore.yaml"), "{}", bad.stderr);
}

fn stack_selection_errors_and_s3_baselines(w: &World) {
    let one = w.deploy("SelOne");
    w.deploy("SelTwo");
    w.deploy("Other");
    w.mutate(json!([
        ["accelerate", one.id(ids::BUCKET), "Enabled"],
        ["create-bucket", "realdrift-baselines"],
    ]));

    // Globs and "every CDK stack".
    let names = |doc: &Value| -> Vec<String> {
        let mut n: Vec<String> = doc["stacks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s["stack"].as_str().map(str::to_string))
            .collect();
        n.sort();
        n
    };
    let (code, doc) = check_json(w, &["Sel*"]);
    assert_eq!(code, 0);
    assert_eq!(names(&doc), ["SelOne", "SelTwo"]);
    let (_, doc) = check_json(w, &[]);
    assert_eq!(names(&doc), ["Other", "SelOne", "SelTwo"]);

    // A missing stack is an error naming it; the other stack is still checked.
    let (code, doc) = check_json(w, &["SelTwo", "Missing"]);
    assert_eq!(code, 2, "{doc}");
    let stacks = doc["stacks"].as_array().cloned().unwrap_or_default();
    let missing = stacks
        .iter()
        .find(|s| s["stack"] == "Missing")
        .expect("Missing reported");
    assert_eq!(missing["status"], "error");
    assert!(missing["error"]
        .as_str()
        .unwrap_or_default()
        .contains("Missing"));
    let two = stacks
        .iter()
        .find(|s| s["stack"] == "SelTwo")
        .expect("SelTwo reported");
    assert_ne!(two["status"], "error");

    // --endpoint-url instead of AWS_ENDPOINT_URL (Cloud Control keeps its own variable).
    let endpoint = w
        .emu
        .env()
        .get("AWS_ENDPOINT_URL")
        .cloned()
        .unwrap_or_default();
    let run = w.realdrift_with(
        &[
            "check",
            "SelTwo",
            "--json",
            "--endpoint-url",
            &endpoint,
            "--region",
            "us-east-1",
        ],
        &["AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION"],
    );
    run.expect_code(0);
    assert_eq!(names(&run.json()), ["SelTwo"]);

    // Baselines in S3: record there, then check reads them there.
    let s3 = ["--baseline-s3", "s3://realdrift-baselines/team"];
    let rec = w.realdrift(&["record", "SelOne", "--yes", s3[0], s3[1]]);
    rec.expect_code(0);
    assert!(
        rec.stdout
            .contains("s3://realdrift-baselines/team/SelOne.123456789012.us-east-1.json"),
        "{}",
        rec.stdout
    );
    assert!(
        !w.baseline_path("SelOne").exists(),
        "nothing written locally"
    );
    let (code, doc) = check_json(w, &["SelOne", "--fail", s3[0], s3[1]]);
    assert_eq!(code, 0);
    assert_eq!(doc["stacks"][0]["hasBaseline"], true);
    assert!(
        drift_findings(&doc).is_empty(),
        "{}",
        summary(&drift_findings(&doc))
    );
    // The local directory has no baseline: the value is potential drift there.
    let (_, doc) = check_json(w, &["SelOne"]);
    assert_eq!(doc["summary"]["potentialDrift"], 1);
}

fn unsettled_and_missing_stacks_count_in_the_exit_code(w: &World) {
    w.deploy("Settled");
    // A CREATE change set leaves the stack in REVIEW_IN_PROGRESS.
    w.mutate(json!([[
        "change-set",
        "Pending",
        w.root
            .join("tests/fixtures/app/RealdriftFixture.template.json")
            .to_str()
            .unwrap_or_default()
    ]]));
    let (code, doc) = check_json(w, &["Pending"]);
    assert_eq!(code, 0, "not drift, and no --strict: {doc}");
    let pending = &doc["stacks"][0];
    assert_eq!(pending["stack"], "Pending", "{doc}");
    assert_eq!(pending["status"], "notChecked");
    assert!(
        pending["notChecked"]
            .as_str()
            .unwrap_or_default()
            .contains("REVIEW_IN_PROGRESS"),
        "{pending}"
    );
    assert_eq!(pending["coverage"]["complete"], false);
    assert_eq!(doc["summary"]["notChecked"], 1);
    let (code, doc) = check_json(w, &["Pending", "--fail", "--strict"]);
    assert_eq!(code, 1, "an unchecked stack is lost coverage: {doc}");
    let text = w.realdrift(&["check", "Pending"]);
    text.expect_code(0);
    assert!(
        text.stdout
            .contains("not checked: stack status REVIEW_IN_PROGRESS"),
        "{}",
        text.stdout
    );
    assert!(
        !text.stderr.contains("no stacks matched"),
        "{}",
        text.stderr
    );

    // A missing named stack is an error whatever the flags, never complete.
    let (code, doc) = check_json(w, &["Settled", "Missing", "--fail", "--strict"]);
    assert_eq!(code, 2, "{doc}");
    let missing = doc["stacks"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["stack"] == "Missing")
        .cloned()
        .unwrap_or_default();
    assert_eq!(missing["status"], "error", "{doc}");
    assert_eq!(missing["coverage"]["complete"], false, "{missing}");
    // The settled stack beside it: complete, nothing lost, --strict passes alone.
    w.realdrift(&["check", "Settled", "--fail", "--strict"])
        .expect_code(0);
}

fn custom_bus_rule_sibling_rules_and_unresolved_leaves(w: &World) {
    let s = w.deploy_template(
        "Orders",
        "tests/fixtures/templates/events-bus.yaml",
        &["AlertsLabel=orders-internal"],
    );
    // The event bus and the ingress rule are types the emulator's Cloud
    // Control does not serve (no reader for the type): lost coverage, which
    // fails --strict and is named in the report...
    let (code, doc) = check_json(w, &["Orders", "--fail", "--strict"]);
    assert_eq!(code, 1, "{doc}");
    let coverage = &doc["stacks"][0]["coverage"];
    let unreadable: Vec<(&str, &str)> = coverage["notCompared"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["logicalId"].as_str().unwrap(),
                n["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        unreadable,
        vec![("OrdersBus", "noReader"), ("WorkerSgSelf", "noReader")],
        "{coverage}"
    );
    // ...until the team accepts the types in ignore.yaml, with a reason.
    std::fs::create_dir_all(w.dir.join("baselines")).unwrap();
    std::fs::write(
        w.dir.join("baselines/ignore.yaml"),
        "accept:\n  # the emulator's Cloud Control serves neither type\n  \
         - type: AWS::Events::EventBus\n    reason: not served by the emulator\n  \
         - type: AWS::EC2::SecurityGroupIngress\n    reason: not served by the emulator\n",
    )
    .unwrap();
    let (code, doc) = check_json(w, &["Orders", "--fail", "--strict"]);
    assert_eq!(code, 0, "{doc}");
    let coverage = &doc["stacks"][0]["coverage"];
    assert_eq!(
        (&coverage["lost"], &coverage["accepted"]),
        (&json!(0), &json!(2))
    );
    let text = w.realdrift(&["check", "Orders"]).stdout;
    assert!(
        text.contains(
            "not compared: OrdersBus (AWS::Events::EventBus: no reader for the type, accepted)"
        ),
        "{text}"
    );
    // `realdrift coverage`: per type, how it is read and what is not compared.
    let run = w.realdrift(&["coverage", "Orders", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let types = run.json()["types"].as_array().cloned().unwrap_or_default();
    let of = |t: &str| -> Value {
        types
            .iter()
            .find(|x| x["resourceType"] == t)
            .cloned()
            .unwrap_or_else(|| panic!("{t} missing: {types:?}"))
    };
    assert_eq!(
        of("AWS::Events::Rule")["readBy"],
        json!({"by": "cloudControl"})
    );
    assert_eq!(
        (
            &of("AWS::Events::Rule")["compared"],
            &of("AWS::Events::Rule")["resources"]
        ),
        (&json!(1), &json!(1))
    );
    let bus = of("AWS::Events::EventBus");
    assert_eq!(bus["readBy"]["by"], "notRead", "{bus}");
    assert_eq!(bus["compared"], 0, "{bus}");
    assert_eq!(bus["notCompared"][0]["logicalId"], "OrdersBus", "{bus}");
    let text = w.realdrift(&["coverage", "Orders"]).stdout;
    assert!(
        text.contains("AWS::Events::Rule — Cloud Control: 1 of 1 compared"),
        "{text}"
    );
    let all = world::findings(&doc);
    let about = |id: &str| -> Vec<Value> {
        all.iter()
            .filter(|f| f["logicalId"] == id)
            .cloned()
            .collect()
    };
    // The rule on the custom bus (physical id bus|name) is read by its ARN.
    assert!(
        s.id("OrderPlaced").starts_with("orders-bus|"),
        "{}",
        s.id("OrderPlaced")
    );
    assert!(
        about("OrderPlaced")
            .iter()
            .all(|f| !matches!(f["tier"].as_str(), Some("skipped" | "deleted"))),
        "{}",
        summary(&about("OrderPlaced"))
    );
    // The self-referencing rule belongs to its sibling ingress resource.
    assert!(
        drift_findings(&doc).is_empty(),
        "{}",
        summary(&drift_findings(&doc))
    );
    // The display name comes from a NoEcho parameter: unresolved, at the
    // leaf, naming the intrinsic.
    let label = the_finding(&doc, "unresolved", "Alerts", "DisplayName");
    assert_eq!(
        label["note"],
        "Ref AlertsLabel: a NoEcho parameter, its value is masked"
    );

    w.mutate(json!([
        ["rule-disable", s.id("OrderPlaced")],
        ["sg-ingress", s.id("WorkerSg"), 22, "0.0.0.0/0"],
    ]));
    let (code, doc) = check_json(w, &["Orders", "--fail"]);
    assert_eq!(code, 1, "{doc}");
    let state = the_finding(&doc, "declared", "OrderPlaced", "State");
    assert_eq!(
        (&state["desired"], &state["actual"]),
        (&json!("ENABLED"), &json!("DISABLED"))
    );
    let ingress = the_finding(&doc, "declared", "WorkerSg", "SecurityGroupIngress");
    let actual = ingress["actual"].to_string();
    assert!(
        actual.contains("0.0.0.0/0") && !actual.contains("9000"),
        "{ingress}"
    );
}

/// A stack whose topic takes a NoEcho parameter (display name and a tag)
/// and whose queue tag is a `{{resolve:ssm:...}}` reference.
const SECRET_TEMPLATE: &str = "\
Parameters:
  Token:
    Type: String
    NoEcho: true
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: !Ref Token
      Tags:
        - Key: token
          Value: !Ref Token
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      Tags:
        - Key: ref
          Value: '{{resolve:ssm:/realdrift/e2e/secret}}'
";

const NOECHO_SECRET: &str = "NoEchoValue7f3a9c";
const SSM_SECRET: &str = "SsmValue51be02";

fn hostile_record_corpus_writes_no_secret(w: &World) {
    w.mutate(json!([["ssm-put", "/realdrift/e2e/secret", SSM_SECRET]]));
    let template = w.dir.join("secret.yaml");
    std::fs::write(&template, SECRET_TEMPLATE).expect("write template");
    w.deploy_template(
        "Secrets",
        template.to_str().unwrap_or_default(),
        &[&format!("Token={NOECHO_SECRET}")],
    );
    let corpus = w.dir.join("corpus");
    let corpus_arg = corpus.to_str().unwrap_or_default();
    let run = w.realdrift(&["check", "Secrets", "--json", "--record-corpus", corpus_arg]);
    assert_ne!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    let files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert_eq!(files.len(), 2, "one case per resource: {files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).expect("case file");
        for secret in [NOECHO_SECRET, SSM_SECRET] {
            assert!(
                !text.contains(secret),
                "{} holds {secret}:\n{text}",
                f.display()
            );
        }
    }
    for secret in [NOECHO_SECRET, SSM_SECRET] {
        assert!(!run.stdout.contains(secret), "--json prints {secret}");
    }
}

fn hostile_unchecked_selection_fails_the_gate(w: &World) {
    w.deploy("Settled");
    w.mutate(json!([["stack-in-review", "Pending"]]));
    // A named stack that is not settled is a "not checked" entry naming its
    // state, and fails the strict gate.
    let (code, doc) = check_json(w, &["Pending", "--fail", "--strict"]);
    assert_eq!(code, 1, "{doc}");
    let stacks = doc["stacks"].as_array().cloned().unwrap_or_default();
    assert_eq!(stacks.len(), 1, "{doc}");
    assert_eq!(stacks[0]["status"], "notChecked");
    assert!(
        stacks[0]["notChecked"]
            .as_str()
            .unwrap_or_default()
            .contains("REVIEW_IN_PROGRESS"),
        "{doc}"
    );
    // A pattern matching nothing checks nothing: --strict fails, with the reason.
    let run = w.realdrift(&["check", "Nothing*", "--strict"]);
    run.expect_code(1);
    assert!(
        run.stderr.contains("Nothing* matched no stack"),
        "{}",
        run.stderr
    );
    w.realdrift(&["check", "Nothing*"]).expect_code(0);
    // A pattern matching only an unsettled stack fails --strict too.
    let (code, doc) = check_json(w, &["Pend*", "--strict"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["stacks"][0]["stack"], "Pending", "{doc}");
    assert_eq!(doc["stacks"][0]["status"], "notChecked", "{doc}");
    // record of such selections records nothing and says so (exit 2).
    for sel in ["Pending", "Nothing*"] {
        let rec = w.realdrift(&["record", sel, "--yes"]);
        rec.expect_code(2);
        assert!(rec.stderr.contains("realdrift: error"), "{}", rec.stderr);
    }
    // The settled stack still checks, and the run says which account and region.
    let ok = w.realdrift(&["check", "Settled", "--strict"]);
    ok.expect_code(0);
    assert!(
        ok.stderr
            .contains(&format!("checked: account {ACCOUNT}, region us-east-1")),
        "{}",
        ok.stderr
    );
}

fn hostile_record_refuses_a_foreign_baseline(w: &World) {
    w.deploy("Mine");
    w.deploy("Theirs");
    w.realdrift(&["record", "Theirs", "--yes"]).expect_code(0);
    let theirs = std::fs::read_to_string(w.baseline_path("Theirs")).expect("baseline");
    // Their file copied over my stack's name: check refuses it, and so does record.
    std::fs::write(w.baseline_path("Mine"), &theirs).expect("copy baseline");
    w.realdrift(&["check", "Mine"]).expect_code(2);
    let rec = w.realdrift(&["record", "Mine", "--yes"]);
    rec.expect_code(2);
    assert!(rec.stderr.contains("stackName"), "{}", rec.stderr);
    assert_eq!(
        std::fs::read_to_string(w.baseline_path("Mine")).expect("baseline"),
        theirs,
        "the file is left as it was"
    );
}

/// A listener that accepts connections and never answers (for the test's life).
fn silent_endpoint() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = l.local_addr().expect("addr");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in l.incoming().flatten() {
            held.push(s);
        }
    });
    format!("http://{addr}")
}

fn hostile_silent_cloud_control_loses_coverage(w: &World) {
    w.deploy("Silent");
    let silent = silent_endpoint();
    let cc = [("AWS_ENDPOINT_URL_CLOUDCONTROL", silent.as_str())];
    // Per-call timeouts: every Cloud Control read times out; the stack is
    // reported with lost coverage (--strict fails), not hung, not an error.
    let run = w.realdrift_env(
        &[
            "check",
            "Silent",
            "--json",
            "--strict",
            "--read-timeout",
            "0.5",
            "--call-timeout",
            "1",
        ],
        &[],
        &cc,
    );
    run.expect_code(1);
    let doc = run.json();
    let stack = &doc["stacks"][0];
    assert_ne!(stack["status"], "error", "{doc}");
    assert_eq!(stack["coverage"]["complete"], false, "{doc}");
    // The per-stack deadline alone (calls may wait 30 s) bounds it too.
    let run = w.realdrift_env(
        &[
            "check",
            "Silent",
            "--json",
            "--strict",
            "--stack-timeout",
            "1",
        ],
        &[],
        &cc,
    );
    run.expect_code(1);
    let doc = run.json();
    let skipped: Vec<Value> = world::findings(&doc)
        .into_iter()
        .filter(|f| f["tier"] == "skipped")
        .collect();
    assert!(
        skipped.iter().any(|f| f["note"]
            .as_str()
            .unwrap_or_default()
            .contains("--stack-timeout")),
        "{}",
        summary(&skipped)
    );
}
