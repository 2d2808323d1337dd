//! A member of an Organization reads only its own account's baselines in
//! the hub's bucket: the hub (moto's default account) has the bucket with
//! the policy the infra app synthesizes (tests/fixtures/org/, kept equal to
//! the synth by infra/test/organization.test.ts); members a and b are
//! accounts of the Organization reached through STS AssumeRole, and one
//! account is outside it.
//!
//! moto 5.1.22 serves any account's request on any bucket;
//! tests/emulator/moto_patches/s3_cross_account.py judges cross-account S3
//! requests by the bucket policy as AWS documents (docs/emulator.md).

use crate::scenarios::Scenario;
use crate::world::{Run, World};
use serde_json::{json, Value};

/// The baselines isolation scenario.
pub const ALL: &[Scenario] = &[Scenario {
    name: "org_members_read_only_their_own_baselines_in_the_hub_bucket",
    run: org_baselines,
}];

const STACK: &str = "OrgApp";
const SCRIPT: &str = "tests/e2e/org_baselines.py";

/// `realdrift` with the assumed-role credentials of one account of the setup.
fn realdrift_as(w: &World, who: &Value, args: &[&str]) -> Run {
    let s = |k: &str| who[k].as_str().unwrap_or_default().to_string();
    let (key, secret, token) = (s("accessKeyId"), s("secretAccessKey"), s("sessionToken"));
    w.realdrift_env(
        args,
        &[],
        &[
            ("AWS_ACCESS_KEY_ID", key.as_str()),
            ("AWS_SECRET_ACCESS_KEY", secret.as_str()),
            ("AWS_SESSION_TOKEN", token.as_str()),
        ],
    )
}

fn org_baselines(w: &World) {
    let setup = w.script_json(SCRIPT, &["setup"]);
    let (a, b, outsider) = (&setup["a"], &setup["b"], &setup["outsider"]);
    let account = |who: &Value| who["account"].as_str().unwrap_or_default().to_string();
    let (a_id, b_id, out_id) = (account(a), account(b), account(outsider));
    let hub = format!(
        "s3://{}/baselines",
        setup["hubBucket"].as_str().unwrap_or_default()
    );

    // Member a records its stack; the hub puts the file in its bucket (as sync does).
    w.deploy_in(&a_id, STACK);
    w.deploy_in(&a_id, "OrgNew");
    realdrift_as(w, a, &["record", STACK, "--yes"]).expect_code(0);
    let name = format!("{STACK}.{a_id}.us-east-1.json");
    let file = w.dir.join("baselines").join(&name);
    let file = file.to_str().unwrap_or_default();
    w.script_json(SCRIPT, &["put", &format!("baselines/{name}"), file]);

    // Our own reader (the S3 baseline store), as member a: its baseline is
    // read; a stack without one is "no baseline", not an access error.
    let run = realdrift_as(
        w,
        a,
        &["check", STACK, "OrgNew", "--json", "--baseline-s3", &hub],
    );
    run.expect_code(0);
    let doc = run.json();
    let has = |stack: &str| {
        doc["stacks"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|s| s["stack"] == stack)
            .map(|s| s["hasBaseline"].clone())
    };
    assert_eq!(has(STACK), Some(json!(true)), "{doc:#}");
    assert_eq!(has("OrgNew"), Some(json!(false)), "{doc:#}");

    // The same reader outside the Organization: refused, and said so.
    w.deploy_in(&out_id, STACK);
    let run = realdrift_as(
        w,
        outsider,
        &["check", STACK, "--json", "--baseline-s3", &hub],
    );
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains("AccessDenied"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );

    // Direct requests (boto3), then what the hub reads back.
    let got = w.script_json(SCRIPT, &["probe", &setup.to_string()]);
    let status = |acct: &str| format!("org/{acct}/us-east-1/{STACK}.json");
    let denied = "AccessDenied";
    // Members can list key names (the policy's price for 404 over 403), not read them.
    let mut listed: Vec<String> = [&a_id, &b_id, &out_id]
        .iter()
        .map(|id| format!("baselines/{STACK}.{id}.us-east-1.json"))
        .chain(["baselines/ignore.yaml".to_string()])
        .collect();
    listed.sort();
    let want = json!({
        "a reads its own baseline": "ok",
        "a reads the ignore file": "ok",
        "a reads b's baseline": denied,
        "a heads b's baseline": "403",
        "a reads a missing baseline of its own": "NoSuchKey",
        "a reads a missing baseline of b": denied,
        "a lists baselines/": listed,
        "a writes its own baseline": denied,
        "a reads the bucket policy": denied,
        "b reads its own baseline": "ok",
        "b reads a's baseline": denied,
        "a writes its own status": "ok",
        "a reads its own status": "ok",
        "a writes b's status": denied,
        "a reads b's status": denied,
        "a deletes b's status": denied,
        "outsider reads the baseline named for it": denied,
        "outsider lists the bucket": denied,
        "outsider writes its status": denied,
        "hub reads b's baseline": "ok",
        "hub sees b's status": "{\"owner\": \"b\"}",
        "hub sees a's status": "{\"owner\": \"a\"}",
        "a deletes its own status": "ok",
        "hub lists org/": [status(&b_id)],
    });
    assert_eq!(got, want, "{got:#}");
}
