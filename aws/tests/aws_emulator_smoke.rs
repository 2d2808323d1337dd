//! Smoke test of the client bundle and pipeline against the local emulator.
//!
//! Ignored by `cargo test` (it needs a running emulator and a deployed
//! stack); `tests/emulator/run.sh` (so `scripts/test.sh`) runs it, as:
//!
//! ```sh
//! eval "$(scripts/emulator.sh start)"
//! .venv/bin/python tests/emulator/deploy_fixture.py SmokeApp
//! REALDRIFT_SMOKE_STACK=SmokeApp cargo test -p realdrift-aws --test aws_emulator_smoke -- --ignored --nocapture
//! ```

use realdrift_aws::{AwsClients, AwsOptions};
use realdrift_core::pipeline::{discover_stacks, ReadState};
use std::collections::BTreeMap;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the local emulator (scripts/emulator.sh) and a deployed stack"]
async fn gathers_a_deployed_stack_from_the_emulator() {
    let Ok(stack) = std::env::var("REALDRIFT_SMOKE_STACK") else {
        panic!("set REALDRIFT_SMOKE_STACK to a stack deployed in the emulator");
    };
    let clients = AwsClients::load(&AwsOptions::default()).await.unwrap();
    let concurrency = std::env::var("REALDRIFT_SMOKE_CONCURRENCY")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(16);
    let pipeline = clients.pipeline().unwrap().with_concurrency(concurrency);
    let found = discover_stacks(pipeline.stack_source().as_ref(), &[])
        .await
        .unwrap();
    let by_name = discover_stacks(
        pipeline.stack_source().as_ref(),
        std::slice::from_ref(&stack),
    )
    .await
    .unwrap();
    assert_eq!(by_name.stacks, vec![stack.clone()], "{by_name:?}");
    println!(
        "CDK stacks discovered: {:?} (unavailable {:?})",
        found.stacks, found.unavailable
    );
    let started = std::time::Instant::now();
    let report = pipeline.gather(&stack).await.unwrap();
    println!(
        "gathered {} ({} resources) in {:?} at concurrency {concurrency}",
        report.stack,
        report.resources.len(),
        started.elapsed()
    );
    println!("coverage {:?}", report.coverage);
    println!("api calls {:#?}", report.api_calls);
    for n in &report.notes {
        println!("note: {n}");
    }
    let mut tiers: BTreeMap<String, usize> = BTreeMap::new();
    for f in &report.findings {
        *tiers.entry(f.tier.to_string()).or_default() += 1;
        let verbose = report.resources.len() < 50;
        if verbose && (f.tier.is_drift() || f.tier == realdrift_core::Tier::Skipped) {
            println!(
                "{} {} {} {} {}",
                f.tier,
                f.logical_id,
                f.path,
                f.actual.as_ref().map(|v| v.to_string()).unwrap_or_default(),
                f.note.as_deref().unwrap_or("")
            );
        }
    }
    println!("tiers {tiers:?}");
    // Per type: reads made vs resources read.
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    for r in report
        .resources
        .iter()
        .filter(|r| r.read == ReadState::Read)
    {
        *per_type.entry(r.resource_type.as_str()).or_default() += 1;
    }
    println!("read per type {per_type:?}");
    assert_eq!(report.account.as_deref(), Some("123456789012"));
    assert!(report.coverage.checked > 0);
    let cc_reads = report
        .api_calls
        .get("cloudcontrol:GetResource")
        .copied()
        .unwrap_or(0);
    assert!(cc_reads as usize <= report.resources.len() + report.findings.len());
}
