//! CloudWatch Embedded Metric Format: a JSON line on stdout that CloudWatch
//! Logs turns into metrics, no API call needed.
//!
//! One [`Metrics`] value collects the numbers of one unit of work (a stack
//! scanned, a dispatch) under one set of dimensions and prints one line.
//!
//! By default every figure is a log field only, for CloudWatch Logs
//! Insights: the line carries no `_aws` block, so CloudWatch makes no
//! metric of it and bills nothing beyond the log ingest. With
//! `REALDRIFT_CUSTOM_METRICS=1` ([`set_custom_metrics`]) the few figures of
//! [`CUSTOM_METRICS`] become CloudWatch custom metrics, each under the one
//! dimension `Function`: a custom metric is billed per name and dimension
//! set, so the set is small and fixed, never per stack, type, tier or
//! reason. Every other figure (and every line with another dimension, such
//! as `Tier` or `Reason`) stays a log field of the same JSON line either
//! way (docs/functions.md, "Metrics").

use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether [`Metrics::emit`] declares [`CUSTOM_METRICS`]: one switch per
/// process, set once at start from the configuration (off until then).
static CUSTOM_METRICS_ON: AtomicBool = AtomicBool::new(false);

/// Turns the declaration of [`CUSTOM_METRICS`] on or off for every line
/// this process prints (`REALDRIFT_CUSTOM_METRICS`).
pub fn set_custom_metrics(on: bool) {
    CUSTOM_METRICS_ON.store(on, Ordering::Relaxed);
}

/// The CloudWatch namespace of every realdrift metric.
pub const NAMESPACE: &str = "realdrift";

/// The only custom metrics (when turned on), as (`Function`, metric name):
/// what AWS's own free metrics (Lambda, SQS, SNS, EventBridge) cannot show.
pub const CUSTOM_METRICS: [(&str, &str); 3] = [
    // Resources whose read failed (coverage lost before it is announced).
    ("scan", "ReadFailures"),
    // Stacks on-change could not re-check (their messages are retried).
    ("on-change", "StackFailures"),
    // Event time to alert published, per alert.
    ("on-change", "AlertLatency"),
];

/// The one dimension set of every custom metric.
pub const METRIC_DIMENSIONS: [&str; 1] = ["Function"];

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

    /// True when `name` on this line is one of [`CUSTOM_METRICS`].
    fn is_custom_metric(&self, name: &str) -> bool {
        let dims: Vec<&str> = self.dimensions.keys().map(String::as_str).collect();
        let function = self.dimensions.get("Function").map(String::as_str);
        dims == METRIC_DIMENSIONS
            && CUSTOM_METRICS
                .iter()
                .any(|(f, n)| Some(*f) == function && *n == name)
    }

    /// The EMF document at `timestamp_ms`, every value a field; with
    /// `custom_metrics`, the line's custom metrics are declared under `_aws`
    /// (no `_aws` when there is none, or when off).
    pub fn document(&self, timestamp_ms: u64, custom_metrics: bool) -> Value {
        let mut root = Map::new();
        let names: Vec<&String> = self.dimensions.keys().collect();
        let defs: Vec<Value> = self
            .values
            .iter()
            .filter(|(n, _)| custom_metrics && self.is_custom_metric(n))
            .map(|(n, (_, u))| json!({"Name": n, "Unit": u.as_str()}))
            .collect();
        if !defs.is_empty() {
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
        }
        for (k, v) in &self.dimensions {
            root.insert(k.clone(), json!(v));
        }
        for (k, (v, _)) in &self.values {
            root.insert(k.clone(), json!(v));
        }
        Value::Object(root)
    }

    /// Prints the line (nothing when empty), declaring the custom metrics
    /// only when [`set_custom_metrics`] turned them on.
    pub fn emit(&self) {
        if self.is_empty() {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let custom = CUSTOM_METRICS_ON.load(Ordering::Relaxed);
        println!("{}", self.document(now, custom));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_declares_only_its_custom_metrics_and_keeps_every_value_as_a_field() {
        let mut m = Metrics::new("on-change");
        m.count("StackFailures", 2)
            .count("StackFailures", 1)
            .count("ResourcesRead", 4)
            .millis("AlertLatency", 1200);
        let doc = m.document(1_700_000_000_000, true);
        assert_eq!(doc["StackFailures"], 3.0);
        assert_eq!(doc["ResourcesRead"], 4.0);
        let d = &doc["_aws"]["CloudWatchMetrics"][0];
        assert_eq!(d["Namespace"], "realdrift");
        assert_eq!(d["Dimensions"], json!([["Function"]]));
        assert_eq!(
            d["Metrics"],
            json!([{"Name": "AlertLatency", "Unit": "Milliseconds"}, {"Name": "StackFailures", "Unit": "Count"}])
        );
    }

    #[test]
    fn a_line_with_another_dimension_or_no_custom_metric_is_a_plain_log_line() {
        let mut t = Metrics::new("scan").dimension("Tier", "declared");
        t.count("Findings", 2).count("ReadFailures", 1);
        let doc = t.document(1, true);
        assert_eq!(doc["Findings"], 2.0);
        assert_eq!(doc["Tier"], "declared");
        assert!(doc.get("_aws").is_none(), "{doc}");
        let mut s = Metrics::new("scan");
        s.count("StacksScanned", 1);
        assert!(s.document(1, true).get("_aws").is_none());
    }

    #[test]
    fn by_default_a_line_declares_no_metric_and_keeps_the_same_fields() {
        let mut m = Metrics::new("scan");
        m.count("ReadFailures", 2)
            .count("StacksScanned", 1)
            .millis("ScanDuration", 900);
        let off = m.document(1, false);
        assert!(off.get("_aws").is_none(), "{off}");
        let mut on = m.document(1, true);
        assert_eq!(
            on["_aws"]["CloudWatchMetrics"][0]["Metrics"],
            json!([{"Name": "ReadFailures", "Unit": "Count"}])
        );
        // The Logs Insights fields are the same either way.
        if let Some(o) = on.as_object_mut() {
            o.remove("_aws");
        }
        assert_eq!(on, off);
        assert_eq!(
            off,
            json!({"Function": "scan", "ReadFailures": 2.0, "StacksScanned": 1.0, "ScanDuration": 900.0})
        );
    }
}

/// Every emitter's metric names, read from the functions' sources: each
/// is either one of the fixed custom metrics or a log field.
#[cfg(test)]
mod emitters {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    /// Names passed to `.count(` / `.millis(` in the sources of `crate_dir`.
    fn emitted(crate_dir: &str) -> BTreeSet<String> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(crate_dir)
            .join("src");
        let mut names = BTreeSet::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            for call in [".count(", ".millis("] {
                for (at, _) in text.match_indices(call) {
                    let rest = text[at + call.len()..].trim_start();
                    if let Some(name) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                        names.insert(name.to_string());
                    }
                }
            }
        }
        names
    }

    #[test]
    fn the_custom_metrics_are_three_fixed_ones_every_one_emitted() {
        let by_function = [
            ("scan", emitted("scan")),
            ("on-change", emitted("on-change")),
        ];
        assert!(
            by_function[0].1.contains("StacksScanned"),
            "{:?}",
            by_function[0].1
        );
        assert!(
            by_function[1].1.contains("EventsDropped"),
            "{:?}",
            by_function[1].1
        );
        let mut declared = BTreeSet::new();
        for (function, names) in &by_function {
            for name in names {
                let mut m = Metrics::new(function);
                m.count(name, 1);
                let doc = m.document(1, true);
                if let Some(defs) = doc["_aws"]["CloudWatchMetrics"][0]["Metrics"].as_array() {
                    for d in defs {
                        declared.insert((
                            function.to_string(),
                            d["Name"].as_str().unwrap().to_string(),
                        ));
                    }
                }
                // A dimension beyond Function never makes a metric.
                let mut other = Metrics::new(function).dimension("Reason", "x");
                other.count(name, 1);
                assert!(
                    other.document(1, true).get("_aws").is_none(),
                    "{function} {name}"
                );
                assert!(m.document(1, false).get("_aws").is_none(), "off by default");
            }
        }
        let want: BTreeSet<(String, String)> = CUSTOM_METRICS
            .iter()
            .map(|(f, n)| (f.to_string(), n.to_string()))
            .collect();
        assert_eq!(declared, want);
        assert_eq!(declared.len(), 3);
    }
}
