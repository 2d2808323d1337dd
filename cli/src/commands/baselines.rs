//! `realdrift baselines sync --bucket B`: mirrors the checkout's `baselines/`
//! to `s3://B/baselines/` (uploads, updates, deletes), refusing the whole
//! sync before any write when a file is not a baseline that parses. Only keys
//! under `baselines/` are listed, written or deleted.

use crate::baseline_dir::read_baseline_dir;
use crate::session::{block_on, calls_line};
use crate::terminal::{display, escape_message};
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use realdrift_aws::{AwsClients, AwsOptions, S3BaselineStore, BASELINES_PREFIX};
use realdrift_core::baseline::sort_keys;
use realdrift_core::report::escape_json_text;
use realdrift_core::sync::{
    apply_sync, content_digest, plan_sync, read_remote, SyncAction, SyncError, SyncItem, SyncPlan,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `realdrift baselines ...`.
#[derive(Debug, Subcommand)]
pub enum BaselinesCommand {
    /// Mirror the local baselines/ to s3://BUCKET/baselines/.
    ///
    /// Exit 0: in sync (or the dry run planned); 2: a file was refused
    /// (nothing written), or AWS failed (what was done is printed).
    Sync(SyncArgs),
}

/// Arguments of `baselines sync`.
#[derive(Debug, Args)]
pub struct SyncArgs {
    /// The realdrift bucket (stack output BucketName).
    #[arg(long)]
    bucket: String,
    /// Print the plan and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// The local directory of baseline files and ignore.yaml.
    #[arg(
        long,
        visible_alias = "dir",
        value_name = "DIR",
        default_value = "baselines"
    )]
    baseline_dir: PathBuf,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Region (default: AWS_REGION / AWS_DEFAULT_REGION, then the profile's region).
    #[arg(long)]
    region: Option<String>,
    /// Named profile from ~/.aws/config and ~/.aws/credentials.
    #[arg(long)]
    profile: Option<String>,
    /// Endpoint for S3 (a local emulator).
    #[arg(long, value_name = "URL")]
    endpoint_url: Option<String>,
}

/// Runs a `baselines` command.
pub fn run(command: BaselinesCommand) -> anyhow::Result<ExitCode> {
    match command {
        BaselinesCommand::Sync(a) => block_on(sync(a)),
    }
}

async fn sync(args: SyncArgs) -> anyhow::Result<ExitCode> {
    // The checkout first: a refused file stops the run before any AWS call.
    let local = match read_baseline_dir(&args.baseline_dir)? {
        Ok(texts) => texts,
        Err(refusals) => {
            let mut err = std::io::stderr().lock();
            for r in &refusals {
                writeln!(err, "refused: {}", escape_message(&r.to_string()))?;
            }
            bail!(
                "refusing to sync: {} file(s) in {} cannot be synced (listed above); nothing was written",
                refusals.len(),
                args.baseline_dir.display()
            );
        }
    };
    let clients = AwsClients::load(&AwsOptions {
        region: args.region.clone(),
        profile: args.profile.clone(),
        endpoint_url: args.endpoint_url.clone(),
        ..AwsOptions::default()
    })
    .await?;
    let store = S3BaselineStore::baselines(clients.s3.clone(), &args.bucket);
    let root = format!("s3://{}/{BASELINES_PREFIX}", args.bucket);
    let remote = read_remote(&store)
        .await
        .with_context(|| format!("reading {root}"))?;
    let local_digests = local
        .iter()
        .map(|(k, t)| (k.clone(), content_digest(t)))
        .collect();
    let remote_digests = remote
        .iter()
        .map(|(k, r)| (k.clone(), r.digest.clone()))
        .collect();
    let plan = plan_sync(&local_digests, &remote_digests);
    // The guard the IAM policy also enforces: nothing outside baselines/.
    for item in &plan.items {
        let key = store.object_key(&item.key);
        if !key.starts_with(BASELINES_PREFIX) {
            bail!(
                "refusing to touch {} outside {BASELINES_PREFIX}",
                display(&key)
            );
        }
    }
    let outcome = if args.dry_run {
        Ok(plan.items.clone())
    } else {
        apply_sync(&store, &plan, &local, &remote)
            .await
            .map(|a| with_unchanged(a.done, &plan))
    };
    let (items, failure) = match outcome {
        Ok(items) => (items, None),
        Err(e) => (with_unchanged(e.done.clone(), &plan), Some(e)),
    };
    let report = Report {
        root: &root,
        dry_run: args.dry_run,
        complete: failure.is_none(),
        items: &items,
    };
    print_report(&report, args.json, &store)?;
    eprintln!("{}", calls_line(&clients.counter.snapshot()));
    match failure {
        None => Ok(ExitCode::SUCCESS),
        Some(e) => Err(failed(e, &root)),
    }
}

/// The items carried out plus the plan's unchanged keys, for the report.
fn with_unchanged(mut done: Vec<SyncItem>, plan: &SyncPlan) -> Vec<SyncItem> {
    done.extend(plan.items.iter().filter(|i| !i.action.writes()).cloned());
    done
}

fn failed(e: SyncError, root: &str) -> anyhow::Error {
    let hint = if matches!(
        e.source,
        realdrift_core::baseline::StoreError::Conflict { .. }
    ) {
        " (another writer changed it since it was read; run the sync again)"
    } else {
        ""
    };
    anyhow::Error::new(e).context(format!("syncing {root} stopped part-way{hint}"))
}

/// What a run did (or, dry, would do).
struct Report<'a> {
    root: &'a str,
    dry_run: bool,
    complete: bool,
    items: &'a [SyncItem],
}

fn print_report(r: &Report, json: bool, store: &S3BaselineStore) -> anyhow::Result<()> {
    let mut by_action: BTreeMap<SyncAction, Vec<String>> = BTreeMap::new();
    for item in r.items {
        by_action
            .entry(item.action)
            .or_default()
            .push(store.object_key(&item.key));
    }
    let mut out = std::io::stdout().lock();
    if json {
        let text = serde_json::to_string_pretty(&sort_keys(&json_doc(r, &by_action)))
            .context("encoding the report")?;
        writeln!(out, "{}", escape_json_text(&text))?;
        return Ok(());
    }
    let counts: Vec<String> = SyncAction::ALL
        .iter()
        .map(|a| {
            let n = by_action.get(a).map_or(0, Vec::len);
            format!("{n} {}", word(*a, r.dry_run))
        })
        .collect();
    let head = if r.dry_run {
        "dry run, nothing written: "
    } else {
        ""
    };
    writeln!(out, "{}: {head}{}", r.root, counts.join(", "))?;
    for action in SyncAction::ALL {
        for key in by_action.get(&action).into_iter().flatten() {
            writeln!(out, "  {:<10} {}", word(action, r.dry_run), display(key))?;
        }
    }
    if !r.complete {
        writeln!(out, "incomplete: the sync stopped part-way (see the error)")?;
    }
    Ok(())
}

/// `uploaded` for a sync, `upload` for a dry run (`unchanged` either way).
fn word(action: SyncAction, dry_run: bool) -> &'static str {
    if dry_run {
        action.plan_word()
    } else {
        action.done_word()
    }
}

/// The `--json` document: one key list per action (full object keys).
fn json_doc(r: &Report, by_action: &BTreeMap<SyncAction, Vec<String>>) -> Value {
    let mut doc = json!({
        "target": r.root,
        "dryRun": r.dry_run,
        "complete": r.complete,
    });
    for action in SyncAction::ALL {
        let keys = by_action.get(&action).cloned().unwrap_or_default();
        doc[action.done_word()] = json!(keys);
    }
    doc
}
