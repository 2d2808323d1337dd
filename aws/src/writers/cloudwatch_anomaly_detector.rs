//! AWS::CloudWatch::AnomalyDetector: PutAnomalyDetector with the declared
//! detector (its metric addresses it), converted from CloudFormation's
//! shapes to CloudWatch's. A value the conversion cannot use fails the call
//! naming it; nothing is guessed.

use super::declared::unusable;
use super::{op_error, sdk_error, service, AttemptError, WriteCall};
use crate::clients::AwsClients;
use aws_sdk_cloudwatch::types::{
    AnomalyDetectorConfiguration, Dimension, MetricCharacteristics, Range,
    SingleMetricAnomalyDetector,
};
use aws_smithy_types::date_time::Format;
use aws_smithy_types::DateTime;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::revert::{ServiceOp, WriteOutcome};
use serde_json::{Map, Value};

/// Applies a batch of these calls (the writer's table row).
pub fn write(call: WriteCall<'_>) -> BoxFuture<'_, WriteOutcome> {
    service(call, apply)
}

fn text(v: Option<&Value>, path: &str) -> Result<Option<String>, AttemptError> {
    match v {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(unusable(path)),
    }
}

/// The schema's `yyyy-MM-ddTHH:mm:ss` (UTC), as a timestamp.
fn time(v: Option<&Value>, path: &str) -> Result<DateTime, AttemptError> {
    let s = text(v, path)?.ok_or_else(|| unusable(path))?;
    let zoned = if s.ends_with('Z') { s } else { format!("{s}Z") };
    DateTime::from_str(&zoned, Format::DateTime).map_err(|_| unusable(path))
}

fn dimensions(v: Option<&Value>, path: &str) -> Result<Option<Vec<Dimension>>, AttemptError> {
    let Some(v) = v else { return Ok(None) };
    let list = v.as_array().ok_or_else(|| unusable(path))?;
    list.iter()
        .map(|d| {
            Ok(Dimension::builder()
                .set_name(text(d.get("Name"), path)?)
                .set_value(text(d.get("Value"), path)?)
                .build())
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The detector's metric, from either declared form.
fn metric(d: &Map<String, Value>) -> Result<SingleMetricAnomalyDetector, AttemptError> {
    let (m, p) = match d.get("SingleMetricAnomalyDetector") {
        Some(Value::Object(s)) => (s, "SingleMetricAnomalyDetector."),
        Some(_) => return Err(unusable("SingleMetricAnomalyDetector")),
        None => (d, ""),
    };
    Ok(SingleMetricAnomalyDetector::builder()
        .set_account_id(text(m.get("AccountId"), &format!("{p}AccountId"))?)
        .set_namespace(text(m.get("Namespace"), &format!("{p}Namespace"))?)
        .set_metric_name(text(m.get("MetricName"), &format!("{p}MetricName"))?)
        .set_stat(text(m.get("Stat"), &format!("{p}Stat"))?)
        .set_dimensions(dimensions(m.get("Dimensions"), &format!("{p}Dimensions"))?)
        .build())
}

fn configuration(c: &Value) -> Result<AnomalyDetectorConfiguration, AttemptError> {
    let ranges = match c.get("ExcludedTimeRanges") {
        None => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .enumerate()
                .map(|(i, r)| {
                    let p = format!("Configuration.ExcludedTimeRanges.{i}");
                    Ok(Range::builder()
                        .start_time(time(r.get("StartTime"), &format!("{p}.StartTime"))?)
                        .end_time(time(r.get("EndTime"), &format!("{p}.EndTime"))?)
                        .build())
                })
                .collect::<Result<Vec<_>, AttemptError>>()?,
        ),
        Some(_) => return Err(unusable("Configuration.ExcludedTimeRanges")),
    };
    Ok(AnomalyDetectorConfiguration::builder()
        .set_excluded_time_ranges(ranges)
        .set_metric_timezone(text(
            c.get("MetricTimeZone"),
            "Configuration.MetricTimeZone",
        )?)
        .build())
}

fn characteristics(c: &Value) -> Result<MetricCharacteristics, AttemptError> {
    let spikes = match c.get("PeriodicSpikes") {
        None => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Some(s == "true"),
        Some(_) => return Err(unusable("MetricCharacteristics.PeriodicSpikes")),
    };
    Ok(MetricCharacteristics::builder()
        .set_periodic_spikes(spikes)
        .build())
}

/// Puts one detector with its declared configuration.
fn apply<'a>(c: &'a AwsClients, op: &'a ServiceOp) -> BoxFuture<'a, Result<(), AttemptError>> {
    async move {
        let ServiceOp::PutAnomalyDetector { detector } = op else {
            return Err(op_error("cloudwatchAnomalyDetector", op));
        };
        let single = metric(detector)?;
        let target = format!(
            "{}/{}",
            single.namespace().unwrap_or_default(),
            single.metric_name().unwrap_or_default()
        );
        let mut call = c
            .cloudwatch
            .put_anomaly_detector()
            .single_metric_anomaly_detector(single);
        if let Some(conf) = detector.get("Configuration") {
            call = call.configuration(configuration(conf)?);
        }
        if let Some(chars) = detector.get("MetricCharacteristics") {
            call = call.metric_characteristics(characteristics(chars)?);
        }
        call.send()
            .await
            .map_err(|err| sdk_error("cloudwatch:PutAnomalyDetector", &target, &err))?;
        Ok(())
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_declared_detector_converts_in_either_metric_form() {
        let legacy = json!({"Namespace": "AWS/EC2", "MetricName": "CPUUtilization", "Stat": "Average",
                            "Dimensions": [{"Name": "InstanceId", "Value": "i-1"}]});
        let m = metric(legacy.as_object().unwrap()).unwrap();
        assert_eq!(
            (m.namespace(), m.stat(), m.dimensions().len()),
            (Some("AWS/EC2"), Some("Average"), 1)
        );
        let c = configuration(&json!({"MetricTimeZone": "UTC", "ExcludedTimeRanges": [
            {"StartTime": "2026-11-01T00:00:00", "EndTime": "2026-11-02T00:00:00"}]}))
        .unwrap();
        assert_eq!(c.metric_timezone(), Some("UTC"));
        assert_eq!(
            c.excluded_time_ranges()[0].start_time().map(|t| t.secs()),
            Some(1_793_491_200)
        );
    }

    #[test]
    fn a_mistyped_value_is_named_not_guessed() {
        let e = configuration(&json!({"ExcludedTimeRanges": [{"StartTime": "yesterday",
                                                             "EndTime": "2026-11-02T00:00:00"}]}))
        .unwrap_err();
        assert!(
            e.message
                .contains("Configuration.ExcludedTimeRanges.0.StartTime"),
            "{}",
            e.message
        );
        let e = metric(
            json!({"SingleMetricAnomalyDetector": {"Namespace": 1}})
                .as_object()
                .unwrap(),
        )
        .unwrap_err();
        assert!(
            e.message.contains("SingleMetricAnomalyDetector.Namespace"),
            "{}",
            e.message
        );
    }
}
