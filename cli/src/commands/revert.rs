//! `realdrift revert [STACK...]`: check each stack through core's check
//! path, print its revert plan, let the user choose what to write (a
//! multiselect with nothing selected, then a confirmation; `--yes` writes
//! the whole plan; without a terminal `--yes` is required), apply it, re-read
//! what was written and say per item whether it converged.
//!
//! Exit 0: everything written converged (or nothing to write, a dry run, a
//! cancelled prompt); 2: a write failed or did not converge, or a stack could
//! not be checked.

use crate::commands::check::store_location;
use crate::options::{AwsArgs, BaselineArgs, StackArgs};
use crate::progress::{self, Progress};
use crate::session::{block_on, calls_line, Session};
use crate::terminal::escape_message;
use anyhow::{bail, Context};
use clap::Args;
use dialoguer::{Confirm, MultiSelect};
use realdrift_aws::{apply_revert, RetryPolicy};
use realdrift_core::baseline::sort_keys;
use realdrift_core::ignore::IgnoreConfig;
use realdrift_core::pipeline::{
    check_stacks, load_ignores, load_stack_baseline, CheckOptions, CheckedStack,
};
use realdrift_core::report::{escape_json_text, render_value, sanitize_identifier};
use realdrift_core::revert::{
    build_plan, render_plan, ApplySettings, Checked, ItemKind, ItemStatus, PlanInput, PlanItem,
    PlanOptions, PlanTextOptions, RevertOutcome, RevertPlan,
};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `revert`.
#[derive(Debug, Args)]
pub struct RevertArgs {
    #[command(flatten)]
    stacks: StackArgs,
    #[command(flatten)]
    aws: AwsArgs,
    #[command(flatten)]
    baseline: BaselineArgs,
    /// Print the plan and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Write every revertable item without asking (required without a terminal).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Also remove live-only values nobody recorded, and delete out-of-band
    /// resources nobody recorded (refused by default).
    #[arg(long)]
    remove_unrecorded: bool,
    /// Print plans and results as JSON (docs/revert.md); needs --yes or --dry-run.
    #[arg(long)]
    json: bool,
    /// List every refused finding with its reason.
    #[arg(long)]
    verbose: bool,
    /// Keep retrying a write that fails because the resource is busy or
    /// throttled for up to this long (`90`, `30s`, `5m`, `1h`).
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    wait: Duration,
}

/// How items are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `--dry-run`: nothing is written.
    DryRun,
    /// `--yes`: the whole plan.
    All,
    /// A multiselect and a confirmation on the terminal.
    Ask,
}

/// What happened to one stack.
struct StackResult {
    /// The JSON element of the stack.
    json: Value,
    /// True when the stack's revert is incomplete (error, failure, no convergence).
    failed: bool,
}

/// Runs `revert`.
pub fn run(args: RevertArgs) -> anyhow::Result<ExitCode> {
    let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let mode = match (args.dry_run, args.yes, terminal && !args.json) {
        (true, _, _) => Mode::DryRun,
        (false, true, _) => Mode::All,
        (false, false, true) => Mode::Ask,
        (false, false, false) => bail!(
            "revert writes to AWS and needs a terminal to ask what to write; pass --yes to write the whole plan, or --dry-run to only print it"
        ),
    };
    block_on(revert_all(&args, mode))
}

async fn revert_all(args: &RevertArgs, mode: Mode) -> anyhow::Result<ExitCode> {
    let session = Session::open(&args.aws, Progress::new(progress::wanted(args.json))).await?;
    let store = session.baseline_store(&args.baseline)?;
    let location = store_location(&args.baseline);
    let ignores = load_ignores(store.as_ref(), &location).await?;
    let opts = CheckOptions {
        show_all: false,
        region: session.clients.region.clone().unwrap_or_default(),
        store_location: location,
    };
    let checked = check_stacks(
        &session.pipeline,
        store.as_ref(),
        &args.stacks.stacks,
        &opts,
    )
    .await;
    session.progress.finish();
    let run = checked?;
    for n in &run.notes {
        eprintln!("note: {}", escape_message(n));
    }
    if run.stacks.is_empty() {
        eprintln!("note: no stacks matched (no selector: every CDK stack in the region)");
    }
    let mut results = Vec::new();
    for stack in &run.stacks {
        let r = revert_one(args, mode, &session, store.as_ref(), &ignores, stack).await;
        results.push(r.unwrap_or_else(|e| error_result(&stack.report.stack, &format!("{e:#}"))));
    }
    let failed = results.iter().any(|r| r.failed);
    if args.json {
        let doc = json!({
            "version": 1,
            "dryRun": mode == Mode::DryRun,
            "stacks": results.iter().map(|r| r.json.clone()).collect::<Vec<_>>(),
            "exitCode": if failed { 2 } else { 0 },
        });
        let text = serde_json::to_string_pretty(&sort_keys(&doc)).context("encoding the result")?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", escape_json_text(&text))?;
        out.flush()?;
    }
    eprintln!("{}", calls_line(&session.calls()));
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// One stack: plan, choose, apply, verify, report.
async fn revert_one(
    args: &RevertArgs,
    mode: Mode,
    session: &Session,
    store: &dyn realdrift_core::baseline::BaselineStore,
    ignores: &IgnoreConfig,
    stack: &CheckedStack,
) -> anyhow::Result<StackResult> {
    let report = &stack.report;
    let (Some(g), None) = (&stack.gathered, &report.error) else {
        let why = report
            .error
            .clone()
            .unwrap_or_else(|| "not gathered".into());
        return Ok(error_result(&report.stack, &why));
    };
    let input = PlanInput::from_checked(report, g);
    let full = build_plan(&input, &plan_options(args, None));
    if !args.json {
        let text = render_plan(
            &full,
            PlanTextOptions {
                verbose: args.verbose,
            },
        );
        print!("{text}");
    }
    let plan = match choose(mode, &full)? {
        Choice::Write(None) => full,
        Choice::Write(Some(ids)) => build_plan(&input, &plan_options(args, Some(ids))),
        Choice::Stop(why) => {
            if !args.json {
                println!(
                    "{}: {why}; nothing written",
                    sanitize_identifier(&report.stack)
                );
            }
            return Ok(StackResult {
                json: json!({"stack": report.stack, "plan": full, "written": false, "reason": why}),
                failed: false,
            });
        }
    };
    let baseline = load_stack_baseline(store, &g.run_context()).await?;
    let checked = Checked {
        gathered: g,
        report,
        baseline: baseline.as_ref(),
        ignores,
    };
    if !args.json {
        eprintln!(
            "writing {} item(s), then re-reading the written resources...",
            plan.items.len()
        );
    }
    let policy = RetryPolicy {
        deadline: args.wait,
        ..RetryPolicy::default()
    };
    let outcome = apply_revert(
        &session.clients,
        &plan,
        checked,
        policy,
        ApplySettings::default(),
    )
    .await;
    if !args.json {
        print!("{}", render_outcome(&outcome));
    }
    Ok(StackResult {
        json: json!({"stack": report.stack, "plan": plan, "written": true, "outcome": outcome}),
        failed: !outcome.converged(),
    })
}

fn plan_options(args: &RevertArgs, select: Option<BTreeSet<String>>) -> PlanOptions {
    PlanOptions {
        remove_unrecorded: args.remove_unrecorded,
        select,
    }
}

fn error_result(stack: &str, why: &str) -> StackResult {
    eprintln!("realdrift: error: {}", escape_message(why));
    StackResult {
        json: json!({"stack": stack, "error": why}),
        failed: true,
    }
}

/// What to write for one stack.
enum Choice {
    /// These item ids (`None`: the whole plan).
    Write(Option<BTreeSet<String>>),
    /// Nothing, and why.
    Stop(&'static str),
}

fn choose(mode: Mode, plan: &RevertPlan) -> anyhow::Result<Choice> {
    if plan.items.is_empty() {
        return Ok(Choice::Stop("nothing to revert"));
    }
    match mode {
        Mode::DryRun => Ok(Choice::Stop("dry run")),
        Mode::All => Ok(Choice::Write(None)),
        Mode::Ask => ask(plan),
    }
}

/// The multiselect (nothing selected) and the confirmation.
fn ask(plan: &RevertPlan) -> anyhow::Result<Choice> {
    let labels: Vec<String> = plan.items.iter().map(label).collect();
    let picked = MultiSelect::new()
        .with_prompt(format!(
            "{}: items to write (space toggles, a toggles all, enter confirms, esc cancels)",
            sanitize_identifier(&plan.stack)
        ))
        .items(&labels)
        .defaults(&vec![false; labels.len()])
        .report(false)
        .interact_opt()
        .context("reading the selection")?;
    let ids: BTreeSet<String> = match picked {
        None => return Ok(Choice::Stop("cancelled")),
        Some(idx) => idx
            .into_iter()
            .filter_map(|i| plan.items.get(i))
            .map(|i| i.id.clone())
            .collect(),
    };
    if ids.is_empty() {
        return Ok(Choice::Stop("nothing selected"));
    }
    let place = match (&plan.account, &plan.region) {
        (Some(a), Some(r)) => format!(" ({} / {})", sanitize_identifier(a), sanitize_identifier(r)),
        _ => String::new(),
    };
    let yes = Confirm::new()
        .with_prompt(format!(
            "write {} item(s) to {}{place} now?",
            ids.len(),
            sanitize_identifier(&plan.stack)
        ))
        .default(false)
        .interact_opt()
        .context("reading the confirmation")?;
    Ok(if yes == Some(true) {
        Choice::Write(Some(ids))
    } else {
        Choice::Stop("not confirmed")
    })
}

/// Longest value shown in a multiselect row; the printed plan has it whole.
const MAX_VALUE_CHARS: usize = 80;

/// One multiselect row: the item, its writer and labels, current -> target.
fn label(item: &PlanItem) -> String {
    let name = if item.path.is_empty() {
        sanitize_identifier(&item.resource.logical_id)
    } else {
        format!(
            "{}.{}",
            sanitize_identifier(&item.resource.logical_id),
            sanitize_identifier(&item.path)
        )
    };
    let kind = match item.kind {
        ItemKind::Delete => " DELETE",
        ItemKind::Remove | ItemKind::ExplicitDefault => " REMOVE",
        ItemKind::Template | ItemKind::Baseline => "",
    };
    if item.kind == ItemKind::Delete {
        return format!("{name}{kind}");
    }
    let side = |v: Option<&Value>, absent: &str| {
        let s = v.map(render_value).unwrap_or_else(|| absent.to_string());
        if s.chars().count() > MAX_VALUE_CHARS {
            let cut: String = s.chars().take(MAX_VALUE_CHARS).collect();
            format!("{cut}...")
        } else {
            s
        }
    };
    format!(
        "{name}{kind}: {} -> {}",
        side(item.current.as_ref(), "(absent)"),
        side(item.target.as_ref(), "(removed)")
    )
}

/// The results of one stack: one line per item, then a summary line.
fn render_outcome(o: &RevertOutcome) -> String {
    let mut out = String::new();
    for i in &o.items {
        let name = if i.path.is_empty() {
            sanitize_identifier(&i.resource.logical_id)
        } else {
            format!(
                "{}.{}",
                sanitize_identifier(&i.resource.logical_id),
                sanitize_identifier(&i.path)
            )
        };
        let (word, why) = match i.status {
            ItemStatus::Converged => ("reverted", None),
            ItemStatus::Failed => ("FAILED", i.error.as_ref().map(|e| e.message.clone())),
            ItemStatus::NotConverged => ("NOT CONVERGED", i.note.clone()),
            ItemStatus::Unverified => ("UNVERIFIED", i.note.clone()),
        };
        let retries = if i.attempts > 1 {
            format!(" (after {} attempts)", i.attempts)
        } else {
            String::new()
        };
        match why {
            Some(w) => out.push_str(&format!(
                "  {word}: {name}{retries}: {}\n",
                escape_message(&w)
            )),
            None => out.push_str(&format!("  {word}: {name}{retries}\n")),
        }
    }
    for d in &o.other_drift {
        out.push_str(&format!(
            "  NEW DRIFT after the write: {}\n",
            sanitize_identifier(d)
        ));
    }
    let n = |s| o.count(s);
    out.push_str(&format!(
        "{}: {} reverted, {} failed, {} not converged, {} unverified\n",
        sanitize_identifier(&o.stack),
        n(ItemStatus::Converged),
        n(ItemStatus::Failed),
        n(ItemStatus::NotConverged),
        n(ItemStatus::Unverified)
    ));
    out
}

/// Parses `--wait`: seconds, or a number with `s`, `m` or `h`.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c),
        _ => (s, 's'),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s} is not a duration (90, 30s, 5m, 1h)"))?;
    let secs = match unit {
        's' => n,
        'm' => n.saturating_mul(60),
        'h' => n.saturating_mul(3600),
        _ => return Err(format!("{s}: the unit must be s, m or h")),
    };
    Ok(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_and_without_units() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("").is_err());
    }
}
