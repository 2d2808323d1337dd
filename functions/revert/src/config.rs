//! Configuration from the environment (set by infra/).

use anyhow::{bail, Context};

/// What the function is configured with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// `REALDRIFT_BUCKET`: the bucket holding `baselines/`.
    pub bucket: String,
    /// `REALDRIFT_TOPIC_ARN`: where every applied revert is published.
    pub topic_arn: String,
    /// `REALDRIFT_STACKS`: comma-separated stack-name globs; empty = every CDK stack.
    pub stacks: Vec<String>,
    /// `REALDRIFT_BASELINES_BUCKET`: an Organization hub's bucket holding
    /// `baselines/` (unset: `bucket`).
    pub baselines_bucket: Option<String>,
    /// `REALDRIFT_SCAN_QUEUE_URL`: the scan work queue an applied revert
    /// queues its stack on, so the drift-resolved alert follows at once;
    /// unset = no re-check (the next scheduled scan announces it).
    pub scan_queue_url: Option<String>,
}

impl Config {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> anyhow::Result<Config> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads the configuration through `get` (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let required = |k: &str| {
            get(k)
                .filter(|v| !v.trim().is_empty())
                .with_context(|| format!("{k} is not set"))
        };
        let bucket = required("REALDRIFT_BUCKET")?;
        let topic_arn = required("REALDRIFT_TOPIC_ARN")?;
        if !topic_arn.starts_with("arn:") {
            bail!("REALDRIFT_TOPIC_ARN is not an ARN: {topic_arn}");
        }
        let stacks = get("REALDRIFT_STACKS")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let baselines_bucket = get("REALDRIFT_BASELINES_BUCKET").filter(|v| !v.trim().is_empty());
        let scan_queue_url = get("REALDRIFT_SCAN_QUEUE_URL")
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty());
        Ok(Config {
            bucket,
            topic_arn,
            stacks,
            baselines_bucket,
            scan_queue_url,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn reads_bucket_topic_and_globs() {
        let c = Config::from_lookup(env(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "arn:aws:sns:us-east-1:1:t"),
            ("REALDRIFT_STACKS", " Prod* , App ,"),
        ]))
        .unwrap();
        assert_eq!(c.stacks, ["Prod*", "App"]);
        assert_eq!(c.scan_queue_url, None);
        let c = Config::from_lookup(env(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "arn:aws:sns:us-east-1:1:t"),
        ]))
        .unwrap();
        assert!(c.stacks.is_empty());
    }

    #[test]
    fn missing_or_malformed_settings_are_named() {
        let e = Config::from_lookup(env(&[("REALDRIFT_TOPIC_ARN", "arn:x")])).unwrap_err();
        assert!(e.to_string().contains("REALDRIFT_BUCKET"));
        let e = Config::from_lookup(env(&[
            ("REALDRIFT_BUCKET", "b"),
            ("REALDRIFT_TOPIC_ARN", "topic"),
        ]))
        .unwrap_err();
        assert!(e.to_string().contains("REALDRIFT_TOPIC_ARN"));
    }
}
