//! Stack discovery: by name, by glob, or every CDK stack in the region.
//!
//! Discovery only names stacks; whether a stack is settled enough to be
//! compared is decided when it is gathered (its DescribeStacks status), so
//! nested stacks and stacks that changed state since the listing get the
//! same treatment.

use super::source::{SourceError, StackSource};
use globset::{Glob, GlobSetBuilder};

/// The stacks to check, and the selected ones that cannot be gathered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovery {
    /// Stack names to gather, in list order.
    pub stacks: Vec<String>,
    /// Selected stacks that cannot be gathered, with why (each is an entry
    /// of the run, never a remark).
    pub unavailable: Vec<Unavailable>,
}

/// A selected stack discovery cannot hand to gathering.
#[derive(Debug, Clone, PartialEq)]
pub struct Unavailable {
    /// The stack name (the selector, for a name that matched nothing).
    pub stack: String,
    /// Why.
    pub reason: UnavailableReason,
}

/// Why a selected stack cannot be gathered.
#[derive(Debug, Clone, PartialEq)]
pub enum UnavailableReason {
    /// An exactly named stack does not exist (or is not visible).
    NotFound,
    /// Its template could not be read to tell whether it is a CDK stack
    /// (discovery without selectors).
    TemplateUnreadable(SourceError),
}

/// Why discovery failed as a whole.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiscoveryError {
    /// A selector is not a valid glob.
    #[error("bad stack pattern {pattern}: {message}")]
    BadPattern {
        /// The selector.
        pattern: String,
        /// The glob error.
        message: String,
    },
    /// ListStacks failed.
    #[error("listing stacks: {0}")]
    Source(#[from] SourceError),
}

/// True when a selector is a glob rather than an exact name.
fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// Resolves selectors to stack names. No selector means every CDK stack
/// (a stack whose template carries `AWS::CDK::Metadata` or `aws:cdk:path`).
/// Nested stacks are left out: they are gathered through their parent.
/// A stack in any state is named here; gathering reports one that is not
/// settled.
pub async fn discover_stacks(
    source: &dyn StackSource,
    selectors: &[String],
) -> Result<Discovery, DiscoveryError> {
    let mut globs = GlobSetBuilder::new();
    for s in selectors.iter().filter(|s| is_glob(s)) {
        let g = Glob::new(s).map_err(|e| DiscoveryError::BadPattern {
            pattern: s.clone(),
            message: e.to_string(),
        })?;
        globs.add(g);
    }
    let globs = globs.build().map_err(|e| DiscoveryError::BadPattern {
        pattern: selectors.join(" "),
        message: e.to_string(),
    })?;
    let exact: Vec<&String> = selectors.iter().filter(|s| !is_glob(s)).collect();

    let all = source.list_stacks().await?;
    let mut out = Discovery::default();
    let mut matched_exact = vec![false; exact.len()];
    for s in all.iter().filter(|s| s.parent_id.is_none()) {
        let selected = if selectors.is_empty() {
            true
        } else {
            let mut hit = globs.is_match(&s.name);
            for (i, e) in exact.iter().enumerate() {
                if **e == s.name {
                    matched_exact[i] = true;
                    hit = true;
                }
            }
            hit
        };
        if !selected {
            continue;
        }
        if selectors.is_empty() {
            match source.get_template(&s.name).await {
                Ok(body) if is_cdk_template(&body) => {}
                Ok(_) => continue,
                Err(e) => {
                    // Unknown whether it is ours to check: never silently left out.
                    out.unavailable.push(Unavailable {
                        stack: s.name.clone(),
                        reason: UnavailableReason::TemplateUnreadable(e),
                    });
                    continue;
                }
            }
        }
        out.stacks.push(s.name.clone());
    }
    for (i, e) in exact.iter().enumerate() {
        if !matched_exact[i] {
            out.unavailable.push(Unavailable {
                stack: (*e).clone(),
                reason: UnavailableReason::NotFound,
            });
        }
    }
    Ok(out)
}

/// True when a template was synthesized by the CDK.
pub fn is_cdk_template(body: &str) -> bool {
    body.contains("AWS::CDK::Metadata") || body.contains("aws:cdk:path")
}
