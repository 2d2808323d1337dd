//! CloudWatch Embedded Metric Format: a JSON line on stdout that CloudWatch
//! Logs turns into metrics, no API call needed.
//!
//! One [`Metrics`] value collects the numbers of one unit of work (a stack
//! scanned, a dispatch) under one set of dimensions and prints one line.

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The CloudWatch namespace of every realdrift metric.
pub const NAMESPACE: &str = "realdrift";

/// A metric's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A count.
    Count,
    /// Milliseconds.
    Milliseconds,
}

impl Unit {
    fn as_str(self) -> &'static str {
        match self {
            Unit::Count => "Count",
            Unit::Milliseconds => "Milliseconds",
        }
    }
}

/// Numbers under one set of dimensions, printed as one EMF line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Metrics {
    dimensions: BTreeMap<String, String>,
    values: BTreeMap<String, (f64, Unit)>,
}

impl Metrics {
    /// Metrics of `function` (`Function` dimension).
    pub fn new(function: &str) -> Self {
        Metrics::default().dimension("Function", function)
    }

    /// Adds a dimension (`Tier`, `Reason` ...).
    pub fn dimension(mut self, name: &str, value: &str) -> Self {
        self.dimensions.insert(name.to_string(), value.to_string());
        self
    }

    /// Adds `n` to a count.
    pub fn count(&mut self, name: &str, n: u64) -> &mut Self {
        let e = self
            .values
            .entry(name.to_string())
            .or_insert((0.0, Unit::Count));
        e.0 += n as f64;
        self
    }

    /// Sets a duration in milliseconds.
    pub fn millis(&mut self, name: &str, ms: u64) -> &mut Self {
        self.values
            .insert(name.to_string(), (ms as f64, Unit::Milliseconds));
        self
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The EMF document at `timestamp_ms`.
    pub fn document(&self, timestamp_ms: u64) -> Value {
        let mut root = Map::new();
        let names: Vec<&String> = self.dimensions.keys().collect();
        let defs: Vec<Value> = self
            .values
            .iter()
            .map(|(n, (_, u))| json!({"Name": n, "Unit": u.as_str()}))
            .collect();
        root.insert(
            "_aws".into(),
            json!({
                "Timestamp": timestamp_ms,
                "CloudWatchMetrics": [{
                    "Namespace": NAMESPACE,
                    "Dimensions": [names],
                    "Metrics": defs,
                }],
            }),
        );
        for (k, v) in &self.dimensions {
            root.insert(k.clone(), json!(v));
        }
        for (k, (v, _)) in &self.values {
            root.insert(k.clone(), json!(v));
        }
        Value::Object(root)
    }

    /// Prints the line (nothing when empty).
    pub fn emit(&self) {
        if self.is_empty() {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        println!("{}", self.document(now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_declares_every_value_under_its_dimensions() {
        let mut m = Metrics::new("scan").dimension("Tier", "declared");
        m.count("Findings", 2)
            .count("Findings", 1)
            .millis("ScanDuration", 1200);
        let doc = m.document(1_700_000_000_000);
        assert_eq!(doc["Findings"], 3.0);
        assert_eq!(doc["Tier"], "declared");
        let d = &doc["_aws"]["CloudWatchMetrics"][0];
        assert_eq!(d["Namespace"], "realdrift");
        assert_eq!(d["Dimensions"], json!([["Function", "Tier"]]));
        assert_eq!(
            d["Metrics"],
            json!([{"Name": "Findings", "Unit": "Count"}, {"Name": "ScanDuration", "Unit": "Milliseconds"}])
        );
    }
}
