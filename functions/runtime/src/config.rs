//! The functions' configuration: environment variables only.

use std::collections::BTreeMap;

/// Configuration read from the environment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Config {
    /// `REALDRIFT_BUCKET`: the bucket holding `baselines/`, `state/`, `index/`.
    pub bucket: String,
    /// `REALDRIFT_TOPIC_ARN`: where alerts are published.
    pub topic_arn: String,
    /// `REALDRIFT_STACKS`: stack-name globs in scope; empty = every CDK stack.
    pub stacks: Vec<String>,
    /// `REALDRIFT_SLACK_SECRET_ID`: the secret whose value is the Slack
    /// webhook URL; unset or empty = no Slack.
    pub slack_secret_id: Option<String>,
    /// `REALDRIFT_CONCURRENCY`: parallel resource reads per stack.
    pub concurrency: Option<usize>,
    /// `REALDRIFT_SCAN_QUEUE_URL`: the scan work queue (scan only).
    pub scan_queue_url: Option<String>,
    /// `REALDRIFT_COVERAGE_LOST_AFTER`: consecutive failed reads of a
    /// resource before coverage is announced lost (unset: 2).
    pub coverage_lost_after: Option<u32>,
    /// `REALDRIFT_LOOKUP_CACHE_SECONDS`: how long on-change remembers that
    /// no stack owns a physical id (unset: 300; 0 turns the cache off).
    pub lookup_cache_seconds: Option<u64>,
    /// `REALDRIFT_EVENT_BUS_ARN`: an Organization hub's findings bus; every
    /// transition is also put there (unset: SNS and Slack only).
    pub event_bus_arn: Option<String>,
    /// `REALDRIFT_SECURITY_HUB=1` (with `REALDRIFT_PARTITION`, the
    /// account's partition): every drift transition is also imported into
    /// this account's Security Hub as ASFF findings; `None` when off.
    pub security_hub_partition: Option<String>,
    /// `REALDRIFT_BASELINES_BUCKET`: the hub's bucket holding `baselines/`
    /// when it is not `REALDRIFT_BUCKET` (unset: the same bucket).
    pub baselines_bucket: Option<String>,
    /// `REALDRIFT_FLAP_WINDOW_SECONDS`: the window in which a value flipped
    /// back and forth is announced once and then summarized (unset: 600;
    /// 0 announces every transition).
    pub flap_window_seconds: Option<u64>,
    /// `REALDRIFT_STORM_WINDOW_SECONDS`: the window in which a burst of
    /// changed resources opens a storm, and the quiet time that closes it
    /// (unset: 60; 0 turns storms off).
    pub storm_window_seconds: Option<u64>,
    /// `REALDRIFT_STORM_THRESHOLD`: changed resources inside one window
    /// that open a storm (unset: 10; 0 turns storms off).
    pub storm_threshold: Option<u32>,
    /// `REALDRIFT_CHANGE_QUEUE_URL`: on-change's own change queue, where it
    /// sends the delayed flush of a held storm (unset: the scan flushes it).
    pub change_queue_url: Option<String>,
    /// `REALDRIFT_SCAN_VISIBILITY_SECONDS`: the scan work queue's visibility
    /// timeout; dispatch skips a stack queued less than this ago whose scan
    /// has not finished (unset: every stack is queued every time).
    pub scan_visibility_seconds: Option<u64>,
    /// `REALDRIFT_CUSTOM_METRICS=1`: the few figures of
    /// `metrics::CUSTOM_METRICS` also become CloudWatch custom metrics
    /// (billed per metric); unset or 0: every figure is a log field only.
    pub custom_metrics: bool,
}

/// A whole number in `range`, or `None` when unset.
fn number<T>(
    name: &'static str,
    value: Option<&str>,
    range: std::ops::RangeInclusive<T>,
    reason: &'static str,
) -> Result<Option<T>, ConfigError>
where
    T: std::str::FromStr + PartialOrd,
{
    let Some(v) = value else {
        return Ok(None);
    };
    match v.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(Some(n)),
        _ => Err(ConfigError::Invalid {
            name,
            value: v.to_string(),
            reason,
        }),
    }
}

/// A missing or malformed variable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A required variable is unset or empty.
    #[error("environment variable {0} is required")]
    Missing(&'static str),
    /// A variable does not parse.
    #[error("environment variable {name}={value:?}: {reason}")]
    Invalid {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// Why it is refused.
        reason: &'static str,
    },
}

/// A 0/1 switch: unset or 0 is off, 1 is on, anything else is refused.
fn switch<'a>(
    name: &'static str,
    get: &impl Fn(&str) -> Option<&'a str>,
    reason: &'static str,
) -> Result<bool, ConfigError> {
    match get(name) {
        None | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(v) => Err(ConfigError::Invalid {
            name,
            value: v.to_string(),
            reason,
        }),
    }
}

/// The partition Security Hub findings are imported in, when the channel is on.
fn security_hub<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<Option<String>, ConfigError> {
    match get("REALDRIFT_SECURITY_HUB") {
        None | Some("0") => Ok(None),
        Some("1") => match get("REALDRIFT_PARTITION") {
            Some(p)
                if p.starts_with("aws")
                    && p.chars().all(|c| c.is_ascii_lowercase() || c == '-') =>
            {
                Ok(Some(p.to_string()))
            }
            // Fail closed: a product ARN in a guessed partition is refused by Security Hub.
            Some(p) => Err(ConfigError::Invalid {
                name: "REALDRIFT_PARTITION",
                value: p.to_string(),
                reason: "an AWS partition (aws, aws-cn, aws-us-gov, ...)",
            }),
            None => Err(ConfigError::Missing("REALDRIFT_PARTITION")),
        },
        Some(v) => Err(ConfigError::Invalid {
            name: "REALDRIFT_SECURITY_HUB",
            value: v.to_string(),
            reason: "1 (import findings into Security Hub) or 0",
        }),
    }
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_vars(&std::env::vars().collect())
    }

    /// Reads a given environment (tests).
    pub fn from_vars(vars: &BTreeMap<String, String>) -> Result<Self, ConfigError> {
        let get = |k: &str| vars.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
        let required = |k: &'static str| get(k).map(str::to_string).ok_or(ConfigError::Missing(k));
        let concurrency = match get("REALDRIFT_CONCURRENCY") {
            None => None,
            Some(v) => match v.parse::<usize>() {
                Ok(n) if (1..=256).contains(&n) => Some(n),
                _ => {
                    return Err(ConfigError::Invalid {
                        name: "REALDRIFT_CONCURRENCY",
                        value: v.to_string(),
                        reason: "a whole number from 1 to 256",
                    })
                }
            },
        };
        Ok(Config {
            bucket: required("REALDRIFT_BUCKET")?,
            topic_arn: required("REALDRIFT_TOPIC_ARN")?,
            stacks: get("REALDRIFT_STACKS")
                .map(|s| {
                    s.split(',')
                        .map(str::trim)
                        .filter(|g| !g.is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            slack_secret_id: get("REALDRIFT_SLACK_SECRET_ID").map(str::to_string),
            concurrency,
            scan_queue_url: get("REALDRIFT_SCAN_QUEUE_URL").map(str::to_string),
            coverage_lost_after: number(
                "REALDRIFT_COVERAGE_LOST_AFTER",
                get("REALDRIFT_COVERAGE_LOST_AFTER"),
                1..=100,
                "a whole number from 1 to 100",
            )?,
            lookup_cache_seconds: number(
                "REALDRIFT_LOOKUP_CACHE_SECONDS",
                get("REALDRIFT_LOOKUP_CACHE_SECONDS"),
                0..=86_400,
                "a whole number of seconds from 0 to 86400",
            )?,
            event_bus_arn: match get("REALDRIFT_EVENT_BUS_ARN") {
                None => None,
                Some(v) if realdrift_aws::notify::bus_region(v).is_some() => Some(v.to_string()),
                Some(v) => {
                    return Err(ConfigError::Invalid {
                        name: "REALDRIFT_EVENT_BUS_ARN",
                        value: v.to_string(),
                        reason: "an event bus ARN (arn:aws:events:REGION:ACCOUNT:event-bus/NAME)",
                    })
                }
            },
            baselines_bucket: get("REALDRIFT_BASELINES_BUCKET").map(str::to_string),
            security_hub_partition: security_hub(&get)?,
            scan_visibility_seconds: number(
                "REALDRIFT_SCAN_VISIBILITY_SECONDS",
                get("REALDRIFT_SCAN_VISIBILITY_SECONDS"),
                1..=43_200,
                "a whole number of seconds from 1 to 43200",
            )?,
            flap_window_seconds: number(
                "REALDRIFT_FLAP_WINDOW_SECONDS",
                get("REALDRIFT_FLAP_WINDOW_SECONDS"),
                0..=86_400,
                "a whole number of seconds from 0 to 86400",
            )?,
            custom_metrics: switch(
                "REALDRIFT_CUSTOM_METRICS",
                &get,
                "1 (CloudWatch custom metrics) or 0 (log fields only)",
            )?,
            storm_window_seconds: number(
                "REALDRIFT_STORM_WINDOW_SECONDS",
                get("REALDRIFT_STORM_WINDOW_SECONDS"),
                0..=3_600,
                "a whole number of seconds from 0 to 3600",
            )?,
            storm_threshold: number(
                "REALDRIFT_STORM_THRESHOLD",
                get("REALDRIFT_STORM_THRESHOLD"),
                0..=10_000,
                "a whole number from 0 to 10000",
            )?,
            change_queue_url: get("REALDRIFT_CHANGE_QUEUE_URL").map(str::to_string),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn reads_the_hub_bus_and_baselines_bucket_and_refuses_a_bad_bus_arn() {
        let base = [
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "arn:aws:sns:eu-west-1:1:t"),
        ];
        let c = Config::from_vars(&vars(&base)).unwrap();
        assert_eq!((c.event_bus_arn, c.baselines_bucket), (None, None));
        let bus = "arn:aws:events:us-east-1:999999999999:event-bus/realdrift-findings";
        let mut with = base.to_vec();
        with.extend([
            ("REALDRIFT_EVENT_BUS_ARN", bus),
            ("REALDRIFT_BASELINES_BUCKET", "hub-bucket"),
        ]);
        let c = Config::from_vars(&vars(&with)).unwrap();
        assert_eq!(c.event_bus_arn.as_deref(), Some(bus));
        assert_eq!(c.baselines_bucket.as_deref(), Some("hub-bucket"));
        let mut bad = base.to_vec();
        bad.push(("REALDRIFT_EVENT_BUS_ARN", "realdrift-findings"));
        assert!(matches!(
            Config::from_vars(&vars(&bad)),
            Err(ConfigError::Invalid {
                name: "REALDRIFT_EVENT_BUS_ARN",
                ..
            })
        ));
    }

    #[test]
    fn security_hub_needs_the_partition() {
        let base = [
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "t"),
            ("REALDRIFT_SECURITY_HUB", "1"),
        ];
        assert_eq!(
            Config::from_vars(&vars(&base)).unwrap_err(),
            ConfigError::Missing("REALDRIFT_PARTITION")
        );
        let mut with = base.to_vec();
        with.push(("REALDRIFT_PARTITION", "aws-cn"));
        let c = Config::from_vars(&vars(&with)).unwrap();
        assert_eq!(c.security_hub_partition.as_deref(), Some("aws-cn"));
        let off = Config::from_vars(&vars(&base[..2])).unwrap();
        assert_eq!(off.security_hub_partition, None);
        let mut bad = base.to_vec();
        bad[2] = ("REALDRIFT_SECURITY_HUB", "yes");
        assert!(Config::from_vars(&vars(&bad)).is_err());
    }

    #[test]
    fn reads_globs_and_optional_values() {
        let c = Config::from_vars(&vars(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "arn:aws:sns:eu-west-1:1:t"),
            ("REALDRIFT_STACKS", " Prod*, Payments ,,"),
            ("REALDRIFT_SLACK_SECRET_ID", ""),
            ("REALDRIFT_CONCURRENCY", "8"),
        ]))
        .unwrap();
        assert_eq!(c.stacks, vec!["Prod*", "Payments"]);
        assert_eq!(c.slack_secret_id, None, "empty means no Slack");
        assert_eq!(c.concurrency, Some(8));
    }

    #[test]
    fn names_the_variable_that_is_wrong() {
        let e = Config::from_vars(&vars(&[("REALDRIFT_TOPIC_ARN", "t")])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "environment variable REALDRIFT_BUCKET is required"
        );
        let e = Config::from_vars(&vars(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "t"),
            ("REALDRIFT_CONCURRENCY", "0"),
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("REALDRIFT_CONCURRENCY=\"0\""), "{e}");
        let e = Config::from_vars(&vars(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "t"),
            ("REALDRIFT_COVERAGE_LOST_AFTER", "0"),
        ]))
        .unwrap_err();
        assert!(
            e.to_string().contains("REALDRIFT_COVERAGE_LOST_AFTER"),
            "{e}"
        );
    }

    #[test]
    fn reads_the_coverage_threshold_and_the_lookup_cache() {
        let c = Config::from_vars(&vars(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "t"),
            ("REALDRIFT_COVERAGE_LOST_AFTER", "3"),
            ("REALDRIFT_LOOKUP_CACHE_SECONDS", "0"),
        ]))
        .unwrap();
        assert_eq!(c.coverage_lost_after, Some(3));
        assert_eq!(c.lookup_cache_seconds, Some(0));
        assert_eq!(c.flap_window_seconds, None);
    }

    #[test]
    fn custom_metrics_are_off_unless_turned_on() {
        let base = [("REALDRIFT_BUCKET", "b"), ("REALDRIFT_TOPIC_ARN", "t")];
        assert!(!Config::from_vars(&vars(&base)).unwrap().custom_metrics);
        let with = |v: &'static str| {
            let mut w = base.to_vec();
            w.push(("REALDRIFT_CUSTOM_METRICS", v));
            Config::from_vars(&vars(&w))
        };
        assert!(!with("0").unwrap().custom_metrics);
        assert!(with("1").unwrap().custom_metrics);
        let e = with("true").unwrap_err();
        assert!(e.to_string().contains("REALDRIFT_CUSTOM_METRICS"), "{e}");
    }

    #[test]
    fn reads_the_storm_knobs_and_the_change_queue() {
        let base = [("REALDRIFT_BUCKET", "b"), ("REALDRIFT_TOPIC_ARN", "t")];
        let c = Config::from_vars(&vars(&base)).unwrap();
        assert_eq!(
            (
                c.storm_window_seconds,
                c.storm_threshold,
                c.change_queue_url
            ),
            (None, None, None)
        );
        let mut with = base.to_vec();
        with.extend([
            ("REALDRIFT_STORM_WINDOW_SECONDS", "120"),
            ("REALDRIFT_STORM_THRESHOLD", "0"),
            ("REALDRIFT_CHANGE_QUEUE_URL", "https://sqs/q"),
        ]);
        let c = Config::from_vars(&vars(&with)).unwrap();
        assert_eq!(c.storm_window_seconds, Some(120));
        assert_eq!(c.storm_threshold, Some(0));
        assert_eq!(c.change_queue_url.as_deref(), Some("https://sqs/q"));
        let mut bad = base.to_vec();
        bad.push(("REALDRIFT_STORM_WINDOW_SECONDS", "3601"));
        assert!(Config::from_vars(&vars(&bad)).is_err());
    }
}
