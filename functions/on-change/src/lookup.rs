//! What on-change asks CloudFormation beyond the index, remembered per
//! container: which physical ids no stack owns (a negative cache with a
//! time to live, so a burst on an untracked resource makes one
//! DescribeStackResources call, not one per event), and which stacks are
//! in scope by their root stack's name (a nested stack is watched when the
//! stack that nests it is).

use std::collections::BTreeMap;
use std::sync::Mutex;

/// How long "no stack owns this physical id" is remembered by default.
pub const DEFAULT_LOOKUP_TTL_SECONDS: u64 = 300;

/// Nested stacks are followed up this many parents at most.
pub const MAX_NESTING: usize = 10;

/// The per-container memory of lookups.
#[derive(Debug, Default)]
pub struct Lookups {
    ttl_ms: u64,
    unowned: Mutex<BTreeMap<String, u64>>,
    roots: Mutex<BTreeMap<String, String>>,
}

impl Lookups {
    /// A memory that forgets "unowned" after `ttl_seconds` (0: never remembers).
    pub fn new(ttl_seconds: u64) -> Self {
        Lookups {
            ttl_ms: ttl_seconds.saturating_mul(1000),
            ..Lookups::default()
        }
    }

    /// True when `physical_id` was found unowned less than the TTL ago.
    pub fn known_unowned(&self, physical_id: &str, now_ms: u64) -> bool {
        let Ok(mut m) = self.unowned.lock() else {
            return false;
        };
        match m.get(physical_id) {
            Some(until) if now_ms < *until => true,
            Some(_) => {
                m.remove(physical_id);
                false
            }
            None => false,
        }
    }

    /// Remembers that no stack owns `physical_id` (as of `now_ms`).
    pub fn remember_unowned(&self, physical_id: &str, now_ms: u64) {
        if self.ttl_ms == 0 {
            return;
        }
        if let Ok(mut m) = self.unowned.lock() {
            m.insert(physical_id.to_string(), now_ms.saturating_add(self.ttl_ms));
        }
    }

    /// The root stack name remembered for `stack`.
    pub fn root_of(&self, stack: &str) -> Option<String> {
        self.roots.lock().ok()?.get(stack).cloned()
    }

    /// Remembers `stack`'s root stack name (a nesting never changes).
    pub fn remember_root(&self, stack: &str, root: &str) {
        if let Ok(mut m) = self.roots.lock() {
            m.insert(stack.to_string(), root.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unowned_id_is_remembered_for_the_ttl_only() {
        let l = Lookups::new(300);
        assert!(!l.known_unowned("bucket", 0));
        l.remember_unowned("bucket", 1_000);
        assert!(l.known_unowned("bucket", 300_999));
        assert!(!l.known_unowned("bucket", 301_000), "expired");
        let off = Lookups::new(0);
        off.remember_unowned("bucket", 1_000);
        assert!(!off.known_unowned("bucket", 1_000));
    }
}
