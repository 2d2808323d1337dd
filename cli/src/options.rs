//! Flags shared by the commands that talk to AWS or read baselines.

use clap::Args;
use realdrift_aws::{AwsOptions, Timeouts};
use realdrift_core::pipeline::DEFAULT_CONCURRENCY;
use std::path::PathBuf;
use std::time::Duration;

/// The default per-stack time budget (`--stack-timeout`), in seconds.
pub const DEFAULT_STACK_TIMEOUT_SECS: f64 = 900.0;

/// Where AWS is and how to reach it (resolved as the AWS CLI does otherwise).
#[derive(Debug, Clone, Args)]
pub struct AwsArgs {
    /// Region (default: AWS_REGION / AWS_DEFAULT_REGION, then the profile's region).
    #[arg(long, value_parser = non_blank)]
    pub region: Option<String>,
    /// Named profile from ~/.aws/config and ~/.aws/credentials; its
    /// credentials win over AWS_ACCESS_KEY_ID, and an unknown one is an error.
    #[arg(long, value_parser = non_blank)]
    pub profile: Option<String>,
    /// Endpoint for every AWS service (a local emulator); Cloud Control alone
    /// can be pointed elsewhere with AWS_ENDPOINT_URL_CLOUDCONTROL.
    #[arg(long, value_name = "URL", value_parser = non_blank)]
    pub endpoint_url: Option<String>,
    /// How many resources are read at once.
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY, value_parser = parse_concurrency)]
    pub concurrency: usize,
    /// Seconds to establish a connection to an AWS endpoint.
    #[arg(long, value_name = "SECS", default_value_t = Timeouts::DEFAULT.connect.as_secs_f64(), value_parser = parse_secs)]
    pub connect_timeout: f64,
    /// Seconds to wait for an answer once a request is sent (a silent endpoint fails after this).
    #[arg(long, value_name = "SECS", default_value_t = Timeouts::DEFAULT.read.as_secs_f64(), value_parser = parse_secs)]
    pub read_timeout: f64,
    /// Seconds one AWS call may take, its retries included.
    #[arg(long, value_name = "SECS", default_value_t = Timeouts::DEFAULT.call.as_secs_f64(), value_parser = parse_secs)]
    pub call_timeout: f64,
    /// Seconds all the calls for one stack may take; what is not read by
    /// then is reported as lost coverage.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_STACK_TIMEOUT_SECS, value_parser = parse_secs)]
    pub stack_timeout: f64,
}

impl AwsArgs {
    /// The adapter options these flags select.
    pub fn aws_options(&self) -> AwsOptions {
        let connect = Duration::from_secs_f64(self.connect_timeout);
        let read = Duration::from_secs_f64(self.read_timeout);
        let call = Duration::from_secs_f64(self.call_timeout);
        AwsOptions {
            region: self.region.clone(),
            profile: self.profile.clone(),
            endpoint_url: self.endpoint_url.clone(),
            timeouts: Timeouts {
                connect,
                read,
                // One attempt: connect, then the answer; never past the call.
                attempt: (connect + read).min(call),
                call,
            },
            ..AwsOptions::default()
        }
    }

    /// The per-stack time budget.
    pub fn stack_budget(&self) -> Duration {
        Duration::from_secs_f64(self.stack_timeout)
    }
}

/// Where baselines and ignore rules live.
#[derive(Debug, Clone, Args)]
pub struct BaselineArgs {
    /// Directory of baseline files and ignore.yaml.
    #[arg(long, value_name = "DIR", default_value = "baselines", value_parser = non_blank_path)]
    pub baseline_dir: PathBuf,
    /// Baselines in S3 instead (`s3://bucket/prefix`); ignore.yaml is read there too.
    #[arg(long, value_name = "S3_URL", conflicts_with = "baseline_dir", value_parser = non_blank)]
    pub baseline_s3: Option<String>,
}

/// Stack selectors: names or globs; none means every CDK stack in the region.
#[derive(Debug, Clone, Args)]
pub struct StackArgs {
    /// Stack names or globs (`'Dev*'`); none = every CDK stack in the region.
    #[arg(value_name = "STACK", value_parser = non_blank)]
    pub stacks: Vec<String>,
}

/// The default of `--sweep-concurrency`: account-region sections checked at once.
pub const DEFAULT_SWEEP_CONCURRENCY: usize = 4;

/// Checking other accounts through an assumed role (`--accounts` or `--org`).
#[derive(Debug, Clone, Args)]
#[command(group(clap::ArgGroup::new("sweep_target").args(["accounts", "org"]).multiple(false)))]
pub struct SweepArgs {
    /// Check these accounts (comma-separated 12-digit ids) through the role
    /// `--role-name`, assumed with your credentials; one report section per
    /// account and region.
    #[arg(long, value_name = "IDS", value_delimiter = ',', value_parser = parse_account, requires = "role_name")]
    pub accounts: Vec<String>,
    /// Check every active account of your AWS Organization (listed with your
    /// credentials: the management account or a delegated administrator),
    /// each through the role `--role-name`.
    #[arg(long, requires = "role_name")]
    pub org: bool,
    /// With `--org`: only the accounts in this OU (`ou-...`, or a root `r-...`)
    /// and in the OUs below it.
    #[arg(long, value_name = "OU", value_parser = parse_parent_id, requires = "org")]
    pub ou: Option<String>,
    /// The role to assume in each account of `--accounts` or `--org` (its
    /// name, or path/name).
    #[arg(long, value_name = "ROLE", value_parser = non_blank, requires = "sweep_target")]
    pub role_name: Option<String>,
    /// Regions to check in each account (comma-separated; default: the region
    /// resolved as without `--accounts`).
    #[arg(long, value_name = "REGIONS", value_delimiter = ',', value_parser = non_blank, requires = "sweep_target")]
    pub regions: Vec<String>,
    /// How many account-region sections are checked at once (each reads
    /// `--concurrency` resources at once).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SWEEP_CONCURRENCY, value_parser = parse_concurrency)]
    pub sweep_concurrency: usize,
}

/// Parses an account id: exactly 12 digits.
fn parse_account(s: &str) -> Result<String, String> {
    let s = s.trim();
    if s.len() == 12 && s.bytes().all(|b| b.is_ascii_digit()) {
        Ok(s.to_string())
    } else {
        Err(format!("{s} is not a 12-digit AWS account id"))
    }
}

impl SweepArgs {
    /// Whether this run checks other accounts (`--accounts` or `--org`).
    pub fn active(&self) -> bool {
        self.org || !self.accounts.is_empty()
    }
}

/// Parses an Organizations parent id: a root (`r-` and 4 to 32 lowercase
/// letters or digits) or an OU (`ou-`, 4 to 32, `-`, 8 to 32), the patterns
/// of ListOrganizationalUnitsForParent's `ParentId`.
fn parse_parent_id(s: &str) -> Result<String, String> {
    let s = s.trim();
    let part = |p: &str, min: usize| {
        (min..=32).contains(&p.len())
            && p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    let ok = match s.split('-').collect::<Vec<_>>().as_slice() {
        ["r", root] => part(root, 4),
        ["ou", root, unit] => part(root, 4) && part(unit, 8),
        _ => false,
    };
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s} is not an OU id (ou-xxxx-xxxxxxxx) or a root id (r-xxxx)"
        ))
    }
}

/// Parses `--concurrency`: 1 to 256.
fn parse_concurrency(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("{s} is not a number from 1 to 256")),
    }
}

/// Parses a timeout in seconds: more than 0, at most a day (fractions allowed).
fn parse_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(n) if n > 0.0 && n <= 86_400.0 => Ok(n),
        _ => Err(format!(
            "{s} is not a number of seconds from 0 (exclusive) to 86400"
        )),
    }
}

/// A value that is not empty or only whitespace (a blank one would
/// silently mean something else, such as "any" or "the default").
pub fn non_blank(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        Err("must not be empty or blank".into())
    } else {
        Ok(s.to_string())
    }
}

fn non_blank_path(s: &str) -> Result<PathBuf, String> {
    non_blank(s).map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ou_ids_follow_the_organizations_patterns() {
        assert_eq!(
            parse_parent_id("ou-ab12-abcdefgh"),
            Ok("ou-ab12-abcdefgh".into())
        );
        assert_eq!(parse_parent_id("r-ab12"), Ok("r-ab12".into()));
        for bad in [
            "ou-ab12",
            "ou-AB12-abcdefgh",
            "r-ab",
            "o-ab12cd34ef",
            "ou-ab12-abc",
        ] {
            assert!(parse_parent_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn concurrency_is_bounded() {
        assert_eq!(parse_concurrency("16"), Ok(16));
        assert!(parse_concurrency("0").is_err());
        assert!(parse_concurrency("257").is_err());
        assert!(parse_concurrency("x").is_err());
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_secs("0.5"), Ok(0.5));
        assert!(parse_secs("0").is_err());
        assert!(parse_secs("-1").is_err());
        assert!(parse_secs("NaN").is_err());
        assert!(parse_secs("inf").is_err());
    }

    #[test]
    fn account_ids_are_twelve_digits() {
        assert_eq!(parse_account(" 111111111111"), Ok("111111111111".into()));
        assert!(parse_account("11111111111").is_err());
        assert!(parse_account("11111111111a").is_err());
    }

    #[test]
    fn blank_values_are_refused() {
        assert!(non_blank("").is_err());
        assert!(non_blank("  \t").is_err());
        assert_eq!(non_blank("dev"), Ok("dev".into()));
    }
}
