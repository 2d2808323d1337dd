//! The facts of a storm announced in one alert: how many changes, to how
//! many resources, over which span (see `watch::storm`).

use super::org_view::iso_time;
use serde_json::{json, Value};

/// A burst of out-of-band changes held and announced together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burst {
    /// Changed resources counted over the storm's re-checks.
    pub changes: u32,
    /// Distinct resources the held transitions name.
    pub resources: u32,
    /// Held drift that was back as desired before the storm ended (not listed).
    pub back_as_desired: u32,
    /// When the first held re-check read (milliseconds since the Unix epoch).
    pub first_ms: u64,
    /// When the last held re-check read.
    pub last_ms: u64,
}

impl Burst {
    /// One sentence for people: count, resources, time span.
    pub fn sentence(&self) -> String {
        let minutes = self
            .last_ms
            .saturating_sub(self.first_ms)
            .div_ceil(60_000)
            .max(1);
        let mut s = format!(
            "Storm: {} changes to {} resources within {minutes} min ({} to {}), held and announced together",
            self.changes,
            self.resources,
            iso_time(self.first_ms),
            iso_time(self.last_ms)
        );
        if self.back_as_desired > 0 {
            s.push_str(&format!(
                "; {} were back as desired before it ended",
                self.back_as_desired
            ));
        }
        s.push('.');
        s
    }

    /// The `storm` object of the SNS document.
    pub fn json(&self) -> Value {
        json!({
            "changes": self.changes,
            "resources": self.resources,
            "backAsDesired": self.back_as_desired,
            "from": iso_time(self.first_ms),
            "to": iso_time(self.last_ms),
        })
    }
}
