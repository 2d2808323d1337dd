//! `realdrift ignore PATH-PATTERN [--stack ..] [--account ..] [--region ..]`:
//! appends one rule to `<baseline-dir>/ignore.yaml`, keeping the user's
//! comments and order. Needs no AWS access.

use crate::session::block_on;
use anyhow::Context;
use clap::Args;
use realdrift_core::baseline::{BaselineStore, LocalDirStore, Precondition};
use realdrift_core::ignore::{add_ignore_rules, CompiledRule, IgnoreRule, NEW_FILE_HEADER};
use realdrift_core::pipeline::IGNORE_KEY;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ignore`.
#[derive(Debug, Args)]
pub struct IgnoreArgs {
    /// Pattern over `<logicalId>.<path>` or `<constructPath>.<path>` as the
    /// report prints it (`*` any run of characters, `?` one character).
    #[arg(value_name = "PATH-PATTERN")]
    path: String,
    /// Only in stacks matching this pattern.
    #[arg(long)]
    stack: Option<String>,
    /// Only in this account (pattern).
    #[arg(long)]
    account: Option<String>,
    /// Only in this region (pattern).
    #[arg(long)]
    region: Option<String>,
    /// Directory holding ignore.yaml.
    #[arg(long, value_name = "DIR", default_value = "baselines")]
    baseline_dir: PathBuf,
}

/// Runs `ignore`.
pub fn run(args: IgnoreArgs) -> anyhow::Result<ExitCode> {
    block_on(add_rule(args))
}

async fn add_rule(args: IgnoreArgs) -> anyhow::Result<ExitCode> {
    let rule = IgnoreRule {
        path: args.path.clone(),
        stack: args.stack.clone(),
        account: args.account.clone(),
        region: args.region.clone(),
    };
    // A pattern that cannot compile would make the whole file unloadable.
    CompiledRule::new(rule.clone())?;
    let store = LocalDirStore::new(&args.baseline_dir);
    let file = args.baseline_dir.join(IGNORE_KEY);
    let shown = file.display().to_string();
    let existing = store
        .load(IGNORE_KEY)
        .await
        .with_context(|| format!("reading {shown}"))?;
    // Save only over the text we appended to: an edit made meanwhile is
    // reported, never overwritten.
    let (base, precondition) = match existing {
        Some(s) => (s.text, Precondition::IfUnchanged(s.version)),
        None => (NEW_FILE_HEADER.to_string(), Precondition::IfAbsent),
    };
    let out = add_ignore_rules(&shown, Some(&base), std::slice::from_ref(&rule))?;
    if out.added.is_empty() {
        println!("{shown}: rule already present: {}", describe(&rule));
        return Ok(ExitCode::SUCCESS);
    }
    store
        .save(IGNORE_KEY, &out.text, precondition)
        .await
        .with_context(|| format!("writing {shown}"))?;
    println!("{shown}: added rule {}", describe(&rule));
    Ok(ExitCode::SUCCESS)
}

/// `path=X stack=Y ...` for the confirmation line.
fn describe(r: &IgnoreRule) -> String {
    let mut s = format!("path={}", r.path);
    for (k, v) in [
        ("stack", &r.stack),
        ("account", &r.account),
        ("region", &r.region),
    ] {
        if let Some(v) = v {
            s.push_str(&format!(" {k}={v}"));
        }
    }
    crate::terminal::escape_message(&s).into_owned()
}
