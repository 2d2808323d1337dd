//! `realdrift report --hub-bucket B [--json] [--html FILE]`: the view across
//! the Organization, from the status documents members' scans write under
//! `org/` in the hub bucket (docs/organization.md). Aggregation and
//! rendering are core's; this reads the bucket and prints.

use crate::session::block_on;
use anyhow::Context;
use clap::Args;
use realdrift_aws::{AwsClients, AwsOptions, S3BaselineStore};
use realdrift_core::baseline::sort_keys;
use realdrift_core::report::{
    escape_json_text, read_statuses, render_org_html, render_org_text, OrgView,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The hub's bucket (the Organization install's bucket holding `org/`).
    #[arg(long, value_name = "BUCKET")]
    hub_bucket: String,
    /// Print the view as JSON (schema realdrift.org-report.v1) instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the view as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
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

/// Runs `report`. Exit 0: the view was printed (drift or not); 2: the bucket
/// could not be listed, or a status document could not be read (the view
/// of the others is printed, the unreadable ones named).
pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    block_on(report(args))
}

async fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let clients = AwsClients::load(&AwsOptions {
        region: args.region.clone(),
        profile: args.profile.clone(),
        endpoint_url: args.endpoint_url.clone(),
        ..AwsOptions::default()
    })
    .await?;
    let store = S3BaselineStore::new(clients.s3.clone(), &args.hub_bucket, "");
    let entries = read_statuses(&store)
        .await
        .with_context(|| format!("listing s3://{}/org/", args.hub_bucket))?;
    let view = OrgView::gather(entries);
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&sort_keys(&view.json()))
            .context("encoding the report")?;
        writeln!(out, "{}", escape_json_text(&text))?;
    } else {
        write!(out, "{}", render_org_text(&view))?;
    }
    out.flush()?;
    if let Some(path) = &args.html {
        std::fs::write(path, render_org_html(&view))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::from(if view.errors.is_empty() { 0 } else { 2 }))
}
