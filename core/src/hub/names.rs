//! Account names for the hub's alerts: the operator's `accountNames` map
//! first, else the Organization's own name for the account (DescribeAccount
//! in the aws crate), cached per container. A lookup never fails or holds
//! back a delivery: an error or an answer without a name gives the id alone.

use futures_util::future::BoxFuture;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// How long a failed lookup is remembered before it is tried again
/// (an AccessDenied hub would otherwise call once per alert).
pub const FAILED_LOOKUP_TTL_MS: u64 = 5 * 60 * 1000;

/// Where account names come from (Organizations in the aws crate).
pub trait AccountDirectory: Send + Sync {
    /// The account's name; `Ok(None)` when it has none, `Err` naming the
    /// call and what went wrong (never blocks for long: callers bound it).
    fn account_name<'a>(
        &'a self,
        account: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, String>>;
}

#[derive(Debug, Clone)]
struct Cached {
    name: Option<String>,
    /// When the lookup failed (ms), `None` when it answered.
    failed_at: Option<u64>,
}

/// Names by account: overrides, then the directory, cached.
pub struct AccountNames {
    overrides: BTreeMap<String, String>,
    directory: Option<Arc<dyn AccountDirectory>>,
    cache: Mutex<BTreeMap<String, Cached>>,
}

impl AccountNames {
    /// Names from `overrides` first, then from `directory` (none: overrides only).
    pub fn new(
        overrides: BTreeMap<String, String>,
        directory: Option<Arc<dyn AccountDirectory>>,
    ) -> Self {
        AccountNames {
            overrides,
            directory,
            cache: Mutex::new(BTreeMap::new()),
        }
    }

    fn cached(&self, account: &str, now_ms: u64) -> Option<Option<String>> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let c = cache.get(account)?;
        match c.failed_at {
            Some(at) if now_ms.saturating_sub(at) >= FAILED_LOOKUP_TTL_MS => None,
            _ => Some(c.name.clone()),
        }
    }

    fn remember(&self, account: &str, c: Cached) {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.insert(account.to_string(), c);
    }

    /// The account's name, or `None` (unknown: the id alone is shown).
    pub async fn name(&self, account: &str, now_ms: u64) -> Option<String> {
        if let Some(n) = self.overrides.get(account) {
            return Some(n.clone());
        }
        let directory = self.directory.as_ref()?;
        if let Some(hit) = self.cached(account, now_ms) {
            return hit;
        }
        let (name, failed_at) = match directory.account_name(account).await {
            Ok(n) => (n.filter(|n| !n.trim().is_empty()), None),
            Err(e) => {
                tracing::warn!(account = %account, error = %e, "account name unknown; the id alone is shown");
                (None, Some(now_ms))
            }
        };
        self.remember(
            account,
            Cached {
                name: name.clone(),
                failed_at,
            },
        );
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::future::FutureExt;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Directory {
        answer: Result<Option<String>, String>,
        calls: AtomicUsize,
    }

    impl AccountDirectory for Directory {
        fn account_name<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Option<String>, String>> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let a = self.answer.clone();
            async move { a }.boxed()
        }
    }

    fn names(answer: Result<Option<String>, String>) -> (AccountNames, Arc<Directory>) {
        let d = Arc::new(Directory {
            answer,
            calls: AtomicUsize::new(0),
        });
        let overrides = BTreeMap::from([("111111111111".to_string(), "from-map".to_string())]);
        (AccountNames::new(overrides, Some(d.clone())), d)
    }

    fn run<F: std::future::Future>(f: F) -> F::Output {
        futures_executor::block_on(f)
    }

    #[test]
    fn the_map_overrides_the_organization_and_lookups_are_cached() {
        let (n, d) = names(Ok(Some("from-org".into())));
        assert_eq!(run(n.name("111111111111", 0)).as_deref(), Some("from-map"));
        assert_eq!(run(n.name("222222222222", 0)).as_deref(), Some("from-org"));
        assert_eq!(run(n.name("222222222222", 1)).as_deref(), Some("from-org"));
        assert_eq!(d.calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_failed_lookup_is_the_id_alone_and_retried_later() {
        let (n, d) = names(Err("organizations:DescribeAccount: AccessDenied".into()));
        assert_eq!(run(n.name("222222222222", 0)), None);
        assert_eq!(run(n.name("222222222222", 1000)), None);
        assert_eq!(d.calls.load(Ordering::SeqCst), 1, "remembered");
        assert_eq!(run(n.name("222222222222", FAILED_LOOKUP_TTL_MS)), None);
        assert_eq!(
            d.calls.load(Ordering::SeqCst),
            2,
            "tried again after the TTL"
        );
    }
}
