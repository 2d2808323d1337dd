//! The optional `stack` / `account` / `region` patterns an ignore or accept
//! rule narrows itself with; one type so both kinds of rule scope alike.

use super::error::IgnoreError;
use super::glob::Pattern;
use super::IgnoreScope;

/// A rule's compiled scope patterns; an absent one admits every value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScopePatterns {
    stack: Option<Pattern>,
    account: Option<Pattern>,
    region: Option<Pattern>,
}

impl ScopePatterns {
    /// Compiles the patterns a rule wrote (each optional).
    pub fn compile(
        stack: Option<&str>,
        account: Option<&str>,
        region: Option<&str>,
    ) -> Result<Self, IgnoreError> {
        let opt = |p: Option<&str>| p.map(Pattern::new).transpose();
        Ok(ScopePatterns {
            stack: opt(stack)?,
            account: opt(account)?,
            region: opt(region)?,
        })
    }

    /// True when every written pattern matches this stack, account and region.
    pub fn admits(&self, scope: &IgnoreScope) -> bool {
        let ok = |p: &Option<Pattern>, v: &str| p.as_ref().is_none_or(|p| p.matches(v));
        ok(&self.stack, &scope.stack)
            && ok(&self.account, &scope.account)
            && ok(&self.region, &scope.region)
    }
}
