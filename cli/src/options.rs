//! Flags shared by the commands that talk to AWS or read baselines.

use clap::Args;
use realdrift_aws::AwsOptions;
use realdrift_core::pipeline::DEFAULT_CONCURRENCY;
use std::path::PathBuf;

/// Where AWS is and how to reach it (resolved as the AWS CLI does otherwise).
#[derive(Debug, Clone, Args)]
pub struct AwsArgs {
    /// Region (default: AWS_REGION / AWS_DEFAULT_REGION, then the profile's region).
    #[arg(long)]
    pub region: Option<String>,
    /// Named profile from ~/.aws/config and ~/.aws/credentials.
    #[arg(long)]
    pub profile: Option<String>,
    /// Endpoint for every AWS service (a local emulator); Cloud Control alone
    /// can be pointed elsewhere with AWS_ENDPOINT_URL_CLOUDCONTROL.
    #[arg(long, value_name = "URL")]
    pub endpoint_url: Option<String>,
    /// How many resources are read at once.
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY, value_parser = parse_concurrency)]
    pub concurrency: usize,
}

impl AwsArgs {
    /// The adapter options these flags select.
    pub fn aws_options(&self) -> AwsOptions {
        AwsOptions {
            region: self.region.clone(),
            profile: self.profile.clone(),
            endpoint_url: self.endpoint_url.clone(),
            ..AwsOptions::default()
        }
    }
}

/// Where baselines and ignore rules live.
#[derive(Debug, Clone, Args)]
pub struct BaselineArgs {
    /// Directory of baseline files and ignore.yaml.
    #[arg(long, value_name = "DIR", default_value = "baselines")]
    pub baseline_dir: PathBuf,
    /// Baselines in S3 instead (`s3://bucket/prefix`); ignore.yaml is read there too.
    #[arg(long, value_name = "S3_URL", conflicts_with = "baseline_dir")]
    pub baseline_s3: Option<String>,
}

/// Stack selectors: names or globs; none means every CDK stack in the region.
#[derive(Debug, Clone, Args)]
pub struct StackArgs {
    /// Stack names or globs (`'Dev*'`); none = every CDK stack in the region.
    #[arg(value_name = "STACK")]
    pub stacks: Vec<String>,
}

/// Parses `--concurrency`: 1 to 256.
fn parse_concurrency(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("{s} is not a number from 1 to 256")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrency_is_bounded() {
        assert_eq!(parse_concurrency("16"), Ok(16));
        assert!(parse_concurrency("0").is_err());
        assert!(parse_concurrency("257").is_err());
        assert!(parse_concurrency("x").is_err());
    }
}
