//! `check --accounts ... | --org [--ou OU] --role-name ROLE [--regions ...]`:
//! lists the accounts (given, or the Organization's active ones), assumes the
//! role in each with the caller's credentials and checks every account and
//! region, a bounded number of sections at once. Aggregation and rendering
//! are core's (`realdrift_core::report::SweepSection`).

use crate::options::{AwsArgs, BaselineArgs, SweepArgs};
use crate::progress::Progress;
use crate::session::{baseline_store, Session};
use crate::terminal::error_line;
use futures_util::stream::{self, StreamExt};
use realdrift_aws::{
    assume_role, caller_partition, load_sdk_config, org_accounts, role_arn, AwsClients, AwsOptions,
    CallCounter, SharedCredentialsProvider,
};
use realdrift_core::baseline::BaselineStore;
use realdrift_core::pipeline::{check_stacks, CheckOptions};
use realdrift_core::report::{SweepOutcome, SweepSection};

/// What every section shares.
pub struct SweepRun<'a> {
    /// The flags of the AWS session (timeouts, endpoint, concurrency).
    pub aws: &'a AwsArgs,
    /// The sweep's own flags.
    pub sweep: &'a SweepArgs,
    /// Stack selectors.
    pub selectors: &'a [String],
    /// Inventory mode.
    pub show_all: bool,
    /// How the baseline store is named in messages.
    pub store_location: String,
}

/// What a sweep produced.
pub struct Swept {
    /// One section per account and region, or per unreachable account.
    pub sections: Vec<SweepSection>,
    /// How many accounts were swept.
    pub accounts: usize,
    /// `--org`: accounts of the Organization not swept, with their state.
    pub skipped: Vec<(String, String)>,
}

/// Runs the sweep. The baselines are read with the caller's own credentials
/// (the store is the caller's, files named by account and region); an
/// account whose role cannot be assumed is one error section, the others go
/// on. A failed Organizations listing fails the whole run (there is nothing
/// to sweep).
pub async fn sweep(run: &SweepRun<'_>, baseline: &BaselineArgs) -> anyhow::Result<Swept> {
    let base_opts = run.aws.aws_options();
    let base = load_sdk_config(&base_opts, None).await?;
    let own = AwsClients::from_sdk_config(&base, None, CallCounter::new());
    let store = baseline_store(&own, baseline)?;
    let partition = caller_partition(&base).await?;
    // The Organization's active accounts (under `--ou`), or `--accounts` as given.
    let (accounts, skipped) = if run.sweep.org {
        let listed = org_accounts(&base, run.sweep.ou.as_deref()).await?;
        (listed.active, listed.skipped)
    } else {
        (run.sweep.accounts.clone(), Vec::new())
    };
    let regions = if run.sweep.regions.is_empty() {
        base.region()
            .map(|r| vec![r.to_string()])
            .unwrap_or_default()
    } else {
        run.sweep.regions.clone()
    };
    let role_name = run.sweep.role_name.as_deref().unwrap_or_default();
    // Roles are assumed as many at once as sections are checked.
    let assumed: Vec<_> = stream::iter(&accounts)
        .map(|account| {
            let arn = role_arn(&partition, account, role_name);
            let base = &base;
            async move { (account.clone(), assume_role(base, &arn).await) }
        })
        .buffer_unordered(run.sweep.sweep_concurrency)
        .collect()
        .await;
    let mut sections = Vec::new();
    let mut targets = Vec::new();
    for (account, result) in assumed {
        match result {
            Ok(creds) => {
                for r in &regions {
                    targets.push((account.clone(), r.clone(), creds.clone()));
                }
            }
            Err(e) => sections.push(SweepSection {
                account,
                region: None,
                outcome: SweepOutcome::Error(error_line(&anyhow::Error::from(e))),
            }),
        }
    }
    let checked: Vec<SweepSection> = stream::iter(targets)
        .map(|(account, region, creds)| {
            section(
                run,
                store.as_ref(),
                base_opts.clone(),
                account,
                region,
                creds,
            )
        })
        .buffer_unordered(run.sweep.sweep_concurrency)
        .collect()
        .await;
    sections.extend(checked);
    sections.sort_by(|a, b| (&a.account, &a.region).cmp(&(&b.account, &b.region)));
    Ok(Swept {
        sections,
        accounts: accounts.len(),
        skipped,
    })
}

/// One account and region: its clients under the assumed role, then core's check.
async fn section(
    run: &SweepRun<'_>,
    store: &dyn BaselineStore,
    mut opts: AwsOptions,
    account: String,
    region: String,
    creds: SharedCredentialsProvider,
) -> SweepSection {
    opts.region = Some(region.clone());
    let outcome = match check_section(run, store, &opts, creds, &region).await {
        Ok(reports) => SweepOutcome::Checked(reports),
        Err(e) => SweepOutcome::Error(error_line(&e)),
    };
    SweepSection {
        account,
        region: Some(region),
        outcome,
    }
}

async fn check_section(
    run: &SweepRun<'_>,
    store: &dyn BaselineStore,
    opts: &AwsOptions,
    creds: SharedCredentialsProvider,
    region: &str,
) -> anyhow::Result<Vec<realdrift_core::report::StackReport>> {
    let clients = AwsClients::load_as(opts, creds).await?;
    // No progress bar: sections run side by side.
    let session = Session::over(clients, run.aws, Progress::new(false))?;
    let check = CheckOptions {
        show_all: run.show_all,
        region: region.to_string(),
        store_location: run.store_location.clone(),
    };
    let done = check_stacks(&session.pipeline, store, run.selectors, &check).await?;
    Ok(done.stacks.into_iter().map(|s| s.report).collect())
}
