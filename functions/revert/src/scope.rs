//! Which stacks may be reverted: `REALDRIFT_STACKS` globs, or (when empty)
//! every CDK stack of the region.

use globset::{Glob, GlobSet, GlobSetBuilder};
use realdrift_core::pipeline::{is_cdk_template, StackSource};

/// The configured scope.
#[derive(Debug, Clone)]
pub struct Scope {
    /// `None`: every CDK stack.
    globs: Option<GlobSet>,
}

impl Scope {
    /// Parses the globs; an empty list means every CDK stack.
    pub fn parse(patterns: &[String]) -> Result<Scope, String> {
        if patterns.is_empty() {
            return Ok(Scope { globs: None });
        }
        let mut b = GlobSetBuilder::new();
        for p in patterns {
            b.add(Glob::new(p).map_err(|e| format!("REALDRIFT_STACKS pattern {p}: {e}"))?);
        }
        let set = b.build().map_err(|e| format!("REALDRIFT_STACKS: {e}"))?;
        Ok(Scope { globs: Some(set) })
    }

    /// `Ok(())` when `stack` may be reverted, else why not. Without globs the
    /// stack's deployed template must be a CDK one (one GetTemplate).
    pub async fn admits(&self, stack: &str, source: &dyn StackSource) -> Result<(), String> {
        match &self.globs {
            Some(g) if g.is_match(stack) => Ok(()),
            Some(_) => Err(format!(
                "stack {stack} is outside this function's scope (REALDRIFT_STACKS)"
            )),
            None => match source.get_template(stack).await {
                Ok(body) if is_cdk_template(&body) => Ok(()),
                Ok(_) => Err(format!(
                    "stack {stack} is not a CDK stack, and the scope is every CDK stack of the region"
                )),
                Err(e) => Err(format!("stack {stack}: {e}")),
            },
        }
    }
}
