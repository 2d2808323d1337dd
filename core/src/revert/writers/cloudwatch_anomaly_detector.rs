//! AWS::CloudWatch::AnomalyDetector: PutAnomalyDetector with the declared
//! detector. A detector has no name: the call addresses it by its declared
//! metric (namespace, metric name, dimensions, statistic) and replaces its
//! configuration with the declared one.

use super::declared_json;
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Map;

/// The single-metric identity forms the writer maps (the legacy top-level
/// form and `SingleMetricAnomalyDetector`).
const IDENTITY: &[&str] = &[
    "Namespace",
    "MetricName",
    "Dimensions",
    "Stat",
    "SingleMetricAnomalyDetector",
];

/// The members of `Configuration` the writer maps (CloudFormation names;
/// aws/src/writers/cloudwatch_anomaly_detector.rs converts exactly these).
const CONFIGURATION_MEMBERS: &[&str] = &["ExcludedTimeRanges", "MetricTimeZone"];

/// The PutAnomalyDetector call writing the declared detector back.
pub(super) fn put(res: &RevertResource) -> Result<ServiceOp, Refused> {
    if res.declared.contains_key("MetricMathAnomalyDetector") {
        return Err((
            RefusalReason::NoWriter,
            "declared MetricMathAnomalyDetector is not written by the cloudwatchAnomalyDetector \
             writer (it maps single-metric detectors only)"
                .into(),
        ));
    }
    let mut detector = Map::new();
    for k in IDENTITY {
        if let Some(v) = declared_json(res, k)? {
            detector.insert((*k).to_string(), v);
        }
    }
    if detector.is_empty() {
        return Err((
            RefusalReason::NoTarget,
            "the template declares no metric; PutAnomalyDetector addresses a detector by it".into(),
        ));
    }
    if let Some(config) = declared_json(res, "Configuration")? {
        let declared = config.as_object().map(|m| m.keys()).into_iter().flatten();
        if let Some(unmapped) = declared
            .into_iter()
            .find(|k| !CONFIGURATION_MEMBERS.contains(&k.as_str()))
        {
            return Err((
                RefusalReason::NoWriter,
                format!(
                    "declared Configuration.{unmapped} is not written by the \
                     cloudwatchAnomalyDetector writer, and PutAnomalyDetector replaces \
                     Configuration whole"
                ),
            ));
        }
        detector.insert("Configuration".into(), config);
    }
    if let Some(c) = declared_json(res, "MetricCharacteristics")? {
        detector.insert("MetricCharacteristics".into(), c);
    }
    Ok(ServiceOp::PutAnomalyDetector { detector })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::{json, Value};

    fn detector(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("Stack-Anomalies-ABC".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn the_declared_metric_and_configuration_are_put_whole() {
        let declared = json!({
            "SingleMetricAnomalyDetector": {"Namespace": "AWS/EC2", "MetricName": "CPUUtilization",
                                            "Stat": "Average"},
            "Configuration": {"MetricTimeZone": "Europe/Paris"},
            "MetricCharacteristics": {"PeriodicSpikes": true}
        });
        let op = put(&detector(declared.clone())).unwrap();
        assert_eq!(
            op,
            ServiceOp::PutAnomalyDetector {
                detector: declared.as_object().cloned().unwrap()
            }
        );
    }

    #[test]
    fn metric_math_unmapped_configuration_or_no_metric_is_refused() {
        let math = detector(json!({"MetricMathAnomalyDetector": {"MetricDataQueries": []}}));
        assert_eq!(put(&math).unwrap_err().0, RefusalReason::NoWriter);
        let odd = detector(
            json!({"Namespace": "AWS/EC2", "MetricName": "m", "Stat": "Sum",
                                  "Configuration": {"Sensitivity": 2}}),
        );
        let (reason, message) = put(&odd).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("Configuration.Sensitivity"), "{message}");
        let none = detector(json!({"Configuration": {"MetricTimeZone": "UTC"}}));
        assert_eq!(put(&none).unwrap_err().0, RefusalReason::NoTarget);
    }
}
