//! AWS::CloudWatch::AnomalyDetector: DescribeAnomalyDetectors, the detector
//! whose metric (or metric math) is the declared one. A detector has no name:
//! its metric is its identity (every metric property is create-only), and
//! what can drift is its configuration.

use super::{put, AwsClients, Model};
use crate::errors::describe;
use aws_sdk_cloudwatch::types::{AnomalyDetector, AnomalyDetectorType, Dimension, MetricDataQuery};
use aws_smithy_types::date_time::Format;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::{json, Map, Value};

/// What the reader maps.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::CloudWatch::AnomalyDetector",
    reads: &[
        "Namespace",
        "MetricName",
        "Dimensions",
        "Stat",
        "SingleMetricAnomalyDetector",
        "MetricMathAnomalyDetector",
        "Configuration.ExcludedTimeRanges",
        "Configuration.MetricTimeZone",
        "MetricCharacteristics.PeriodicSpikes",
    ],
    leaves_out: "not a property DescribeAnomalyDetectors returns",
};

/// Pages read at most (100 detectors a page).
const MAX_PAGES: usize = 50;

/// The identity properties: which of them the template declares says which
/// form (legacy top-level, single metric, metric math) the model takes.
const IDENTITY: &[&str] = &[
    "Namespace",
    "MetricName",
    "Dimensions",
    "Stat",
    "SingleMetricAnomalyDetector",
    "MetricMathAnomalyDetector",
];

/// Reads the detector of the declared metric; none left is a deleted one.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let mut declared = Map::new();
        for k in IDENTITY {
            match req.declared.get(*k).map(|v| v.to_json()) {
                Some(Some(v)) => {
                    declared.insert((*k).to_string(), v);
                }
                Some(None) => {
                    return ReadOutcome::TargetUnresolved {
                        reason: format!("{} {k} is not resolved", req.resource_type),
                    }
                }
                None => {}
            }
        }
        if declared.is_empty() {
            // Without a declared metric any detector would match.
            return ReadOutcome::denied(format!(
                "{} declares no metric to find its detector by",
                req.resource_type
            ));
        }
        let math = declared.contains_key("MetricMathAnomalyDetector");
        let detectors = match list(clients, math).await {
            Ok(d) => d,
            Err(o) => return *o,
        };
        let wanted = canonical(&Value::Object(declared.clone()));
        let account = req.account_id.as_deref();
        let found = detectors
            .iter()
            .map(|d| detector_model(d, &declared, account))
            .find(|m| {
                let ident: Map<String, Value> = IDENTITY
                    .iter()
                    .filter_map(|k| m.get(*k).map(|v| ((*k).to_string(), v.clone())))
                    .collect();
                within(&wanted, &canonical(&Value::Object(ident)))
            });
        match found {
            Some(m) => Model::new(PROJECTION, req, Value::Object(m)).found(),
            None => ReadOutcome::NotFound,
        }
    }
    .boxed()
}

/// Every detector of the kind (single metric or metric math) in the region.
async fn list(clients: &AwsClients, math: bool) -> Result<Vec<AnomalyDetector>, Box<ReadOutcome>> {
    let kind = if math {
        AnomalyDetectorType::MetricMath
    } else {
        AnomalyDetectorType::SingleMetric
    };
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let answer = clients
            .cloudwatch
            .describe_anomaly_detectors()
            .anomaly_detector_types(kind.clone())
            .set_next_token(token.take())
            .send()
            .await;
        let page = match answer {
            Ok(p) => p,
            Err(e) => {
                let info = describe(&e, &[]);
                return Err(Box::new(ReadOutcome::denied(format!(
                    "cloudwatch:DescribeAnomalyDetectors: {}",
                    info.message
                ))));
            }
        };
        out.extend(page.anomaly_detectors().iter().cloned());
        match page.next_token() {
            Some(t) if !t.is_empty() => token = Some(t.to_string()),
            _ => return Ok(out),
        }
    }
    Err(Box::new(ReadOutcome::denied(format!(
        "cloudwatch:DescribeAnomalyDetectors: more than {MAX_PAGES} pages"
    ))))
}

/// A detector in the CloudFormation shape, its metric in the declared form.
fn detector_model(
    d: &AnomalyDetector,
    declared: &Map<String, Value>,
    account: Option<&str>,
) -> Map<String, Value> {
    let mut m = Map::new();
    if let Some(s) = d.single_metric_anomaly_detector() {
        let mut sm = Map::new();
        // An omitted AccountId means the detector's own account: only
        // another account is a value the template had to state.
        put(
            &mut sm,
            "AccountId",
            s.account_id().filter(|a| Some(*a) != account),
        );
        put(&mut sm, "Namespace", s.namespace());
        put(&mut sm, "MetricName", s.metric_name());
        put(&mut sm, "Stat", s.stat());
        put(&mut sm, "Dimensions", dimensions(s.dimensions()));
        if declared.contains_key("SingleMetricAnomalyDetector") {
            m.insert("SingleMetricAnomalyDetector".into(), Value::Object(sm));
        } else {
            // The legacy top-level form; AccountId has no place there.
            sm.remove("AccountId");
            m.extend(sm);
        }
    }
    if let Some(x) = d.metric_math_anomaly_detector() {
        let queries: Vec<Value> = x.metric_data_queries().iter().map(query).collect();
        m.insert(
            "MetricMathAnomalyDetector".into(),
            json!({ "MetricDataQueries": queries }),
        );
    }
    if let Some(c) = d.configuration() {
        let mut cm = Map::new();
        put(&mut cm, "MetricTimeZone", c.metric_timezone());
        if !c.excluded_time_ranges().is_empty() {
            let ranges: Vec<Value> = c
                .excluded_time_ranges()
                .iter()
                .map(|r| {
                    let mut rm = Map::new();
                    put(&mut rm, "StartTime", r.start_time().and_then(time));
                    put(&mut rm, "EndTime", r.end_time().and_then(time));
                    Value::Object(rm)
                })
                .collect();
            cm.insert("ExcludedTimeRanges".into(), Value::Array(ranges));
        }
        if !cm.is_empty() {
            m.insert("Configuration".into(), Value::Object(cm));
        }
    }
    if let Some(p) = d.metric_characteristics().and_then(|c| c.periodic_spikes()) {
        m.insert(
            "MetricCharacteristics".into(),
            json!({ "PeriodicSpikes": p }),
        );
    }
    m
}

/// `Dimensions`, absent when empty.
fn dimensions(ds: &[Dimension]) -> Option<Value> {
    (!ds.is_empty()).then(|| {
        ds.iter()
            .map(|d| json!({"Name": d.name(), "Value": d.value()}))
            .collect()
    })
}

/// One metric data query; its `Label` is write-only in the schema.
fn query(q: &MetricDataQuery) -> Value {
    let mut m = Map::new();
    put(&mut m, "Id", q.id());
    put(&mut m, "AccountId", q.account_id());
    put(&mut m, "Expression", q.expression());
    put(&mut m, "Period", q.period());
    put(&mut m, "ReturnData", q.return_data());
    if let Some(s) = q.metric_stat() {
        let mut sm = Map::new();
        if let Some(metric) = s.metric() {
            let mut mm = Map::new();
            put(&mut mm, "Namespace", metric.namespace());
            put(&mut mm, "MetricName", metric.metric_name());
            put(&mut mm, "Dimensions", dimensions(metric.dimensions()));
            sm.insert("Metric".into(), Value::Object(mm));
        }
        put(&mut sm, "Period", s.period());
        put(&mut sm, "Stat", s.stat());
        put(&mut sm, "Unit", s.unit().map(|u| u.as_str()));
        m.insert("MetricStat".into(), Value::Object(sm));
    }
    Value::Object(m)
}

/// The schema's time format, `yyyy-MM-ddTHH:mm:ss` (UTC, no zone suffix).
fn time(t: &aws_smithy_types::DateTime) -> Option<String> {
    let s = t.fmt(Format::DateTime).ok()?;
    Some(s.trim_end_matches('Z').to_string())
}

/// A metric spec compared as identity: `Label` dropped (write-only),
/// dimensions as a set, scalars by their text (`300` and `"300"`).
fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "Label")
                .map(|(k, v)| {
                    let mut c = canonical(v);
                    if k == "Dimensions" {
                        if let Value::Array(a) = &mut c {
                            a.sort_by_key(|x| x.to_string());
                        }
                    }
                    (k.clone(), c)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        Value::String(s) => Value::String(s.clone()),
        other => Value::String(other.to_string()),
    }
}

/// True when every declared part is in the live spec (the service may add
/// parts the template leaves out, e.g. a single metric's `AccountId`).
fn within(declared: &Value, live: &Value) -> bool {
    match (declared, live) {
        (Value::Object(d), Value::Object(l)) => d
            .iter()
            .all(|(k, v)| l.get(k).is_some_and(|lv| within(v, lv))),
        (Value::Array(d), Value::Array(l)) => {
            d.len() == l.len() && d.iter().zip(l).all(|(a, b)| within(a, b))
        }
        _ => declared == live,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_ignores_labels_dimension_order_and_number_spelling() {
        let declared = json!({"MetricMathAnomalyDetector": {"MetricDataQueries": [
            {"Id": "e1", "Expression": "m1/300", "Label": "rate", "Period": "300"}]},
            "Dimensions": [{"Name": "b", "Value": "2"}, {"Name": "a", "Value": "1"}]});
        let live = json!({"MetricMathAnomalyDetector": {"MetricDataQueries": [
            {"Id": "e1", "Expression": "m1/300", "Period": 300}]},
            "Dimensions": [{"Name": "a", "Value": "1"}, {"Name": "b", "Value": "2"}]});
        assert!(within(&canonical(&declared), &canonical(&live)));
        let other = json!({"MetricMathAnomalyDetector": {"MetricDataQueries": [
            {"Id": "e1", "Expression": "m1/60", "Period": 300}]}});
        assert!(!within(&canonical(&declared), &canonical(&other)));
    }
}
