//! The client bundle: every SDK client, built once from one `aws_config` load,
//! with timeouts on every call and an explicit profile that always wins.

use crate::counter::CountingInterceptor;
use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};
use aws_smithy_runtime_api::client::interceptors::context::InterceptorContext;
use aws_smithy_runtime_api::client::retries::classifiers::{
    ClassifyRetry, RetryAction, RetryClassifierPriority,
};
use realdrift_core::pipeline::CallCounter;
use std::time::Duration;

/// The environment variable the SDK reads for a Cloud Control-only endpoint.
pub const CLOUDCONTROL_ENDPOINT_ENV: &str = "AWS_ENDPOINT_URL_CLOUDCONTROL";

/// How long a call may take. Every AWS call gets all four bounds, so an
/// endpoint that accepts connections and never answers cannot hang a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Establishing a TCP/TLS connection.
    pub connect: Duration,
    /// Waiting for the first byte of a response (and between reads).
    pub read: Duration,
    /// One attempt of a call, from send to the whole response.
    pub attempt: Duration,
    /// One call, all its retries included.
    pub call: Duration,
}

impl Timeouts {
    /// Defaults: connect 5 s, read 30 s, attempt 40 s, call 120 s.
    pub const DEFAULT: Timeouts = Timeouts {
        connect: Duration::from_secs(5),
        read: Duration::from_secs(30),
        attempt: Duration::from_secs(40),
        call: Duration::from_secs(120),
    };

    /// The SDK form.
    pub fn sdk_config(&self) -> TimeoutConfig {
        TimeoutConfig::builder()
            .connect_timeout(self.connect)
            .read_timeout(self.read)
            .operation_attempt_timeout(self.attempt)
            .operation_timeout(self.call)
            .build()
    }
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts::DEFAULT
    }
}

/// How to reach AWS (or the local emulator).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AwsOptions {
    /// Region; `None` resolves as the AWS CLI does (env, profile, IMDS).
    pub region: Option<String>,
    /// Named profile from the shared config files. When set, its credentials
    /// are used even if `AWS_ACCESS_KEY_ID` is set (as `aws --profile` does),
    /// and a profile that does not exist is an error.
    pub profile: Option<String>,
    /// Endpoint override for every service (the emulator).
    pub endpoint_url: Option<String>,
    /// Endpoint override for Cloud Control only; defaults to the
    /// `AWS_ENDPOINT_URL_CLOUDCONTROL` environment variable.
    pub cloudcontrol_endpoint_url: Option<String>,
    /// Maximum attempts per call under adaptive retry (default 6).
    pub max_attempts: Option<u32>,
    /// Per-call timeouts.
    pub timeouts: Timeouts,
}

/// Every SDK client the adapters use, sharing one call counter.
#[derive(Debug, Clone)]
pub struct AwsClients {
    /// CloudFormation (desired side, DescribeType).
    pub cloudformation: aws_sdk_cloudformation::Client,
    /// Cloud Control (default live reader).
    pub cloudcontrol: aws_sdk_cloudcontrol::Client,
    /// S3 (bucket policy reader/enumerator, baseline store).
    pub s3: aws_sdk_s3::Client,
    /// SNS (topic policy, subscriptions).
    pub sns: aws_sdk_sns::Client,
    /// SQS (queue policy).
    pub sqs: aws_sdk_sqs::Client,
    /// IAM (inline policies).
    pub iam: aws_sdk_iam::Client,
    /// Lambda (permissions, CodeSha256, URLs, aliases).
    pub lambda: aws_sdk_lambda::Client,
    /// EventBridge (bus rules).
    pub eventbridge: aws_sdk_eventbridge::Client,
    /// Security Hub (ASFF findings of transitions, when enabled).
    pub securityhub: aws_sdk_securityhub::Client,
    /// KMS (managed alias targets).
    pub kms: aws_sdk_kms::Client,
    /// EC2 (network ACL entries, launch template versions).
    pub ec2: aws_sdk_ec2::Client,
    /// CodeBuild (projects).
    pub codebuild: aws_sdk_codebuild::Client,
    /// Route 53 (record set groups).
    pub route53: aws_sdk_route53::Client,
    /// Elastic Load Balancing v2 (listener certificates).
    pub elbv2: aws_sdk_elasticloadbalancingv2::Client,
    /// CloudWatch (anomaly detectors).
    pub cloudwatch: aws_sdk_cloudwatch::Client,
    /// DocumentDB (clusters, instances).
    pub docdb: aws_sdk_docdb::Client,
    /// DAX (clusters).
    pub dax: aws_sdk_dax::Client,
    /// DMS (replication instances).
    pub dms: aws_sdk_databasemigration::Client,
    /// Lake Formation (registered resources).
    pub lakeformation: aws_sdk_lakeformation::Client,
    /// Secrets Manager (a secret's rotation, never its value).
    pub secretsmanager: aws_sdk_secretsmanager::Client,
    /// The region the clients talk to, when known.
    pub region: Option<String>,
    /// Counts every call made through these clients.
    pub counter: CallCounter,
}

/// Why the bundle could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ClientsError {
    /// No region was given and none could be resolved.
    #[error("no AWS region: pass --region, set AWS_REGION, or configure one in the profile")]
    NoRegion,
    /// The named profile does not exist or yields no credentials.
    #[error("--profile {profile}: cannot be used ({message}); is it defined in ~/.aws/config or ~/.aws/credentials?")]
    Profile {
        /// The profile name.
        profile: String,
        /// Why it cannot be used.
        message: String,
    },
}

impl AwsClients {
    /// Loads shared config (credentials, region, profile) the way the AWS CLI
    /// does, with adaptive retry and the given timeouts, and builds every
    /// client from it. A named profile's credentials are resolved up front,
    /// so an unknown profile fails here instead of a run going on quietly.
    pub async fn load(opts: &AwsOptions) -> Result<AwsClients, ClientsError> {
        let sdk = load_sdk_config(opts, None).await?;
        Ok(Self::from_options(&sdk, opts))
    }

    /// As [`AwsClients::load`], with these credentials instead of the
    /// caller's (an assumed role in another account).
    pub async fn load_as(
        opts: &AwsOptions,
        credentials: SharedCredentialsProvider,
    ) -> Result<AwsClients, ClientsError> {
        let sdk = load_sdk_config(opts, Some(credentials)).await?;
        Ok(Self::from_options(&sdk, opts))
    }

    /// The clients of a loaded config, Cloud Control's endpoint as `opts` say.
    fn from_options(sdk: &SdkConfig, opts: &AwsOptions) -> AwsClients {
        let cc_endpoint = opts
            .cloudcontrol_endpoint_url
            .clone()
            .or_else(|| std::env::var(CLOUDCONTROL_ENDPOINT_ENV).ok())
            .filter(|s| !s.is_empty());
        Self::from_sdk_config(sdk, cc_endpoint, CallCounter::new())
    }

    /// Builds every client from a loaded config. `cloudcontrol_endpoint`
    /// overrides Cloud Control's endpoint even when a global endpoint is set
    /// (the emulator serves Cloud Control apart from moto).
    pub fn from_sdk_config(
        sdk: &SdkConfig,
        cloudcontrol_endpoint: Option<String>,
        counter: CallCounter,
    ) -> AwsClients {
        let interceptor = CountingInterceptor::new(counter.clone());
        let cloudformation = aws_sdk_cloudformation::Client::from_conf(
            aws_sdk_cloudformation::config::Builder::from(sdk)
                .interceptor(interceptor.clone())
                .retry_classifier(RefusedConnection)
                .build(),
        );
        let mut cc = aws_sdk_cloudcontrol::config::Builder::from(sdk)
            .interceptor(interceptor.clone())
            .retry_classifier(RefusedConnection);
        if let Some(e) = cloudcontrol_endpoint {
            cc = cc.endpoint_url(e);
        }
        let cloudcontrol = aws_sdk_cloudcontrol::Client::from_conf(cc.build());
        let s3 = aws_sdk_s3::Client::from_conf(
            aws_sdk_s3::config::Builder::from(sdk)
                // Path style always: the emulator on 127.0.0.1/localhost has no
                // virtual-host DNS, and real S3 accepts both.
                .force_path_style(true)
                .interceptor(interceptor.clone())
                .retry_classifier(RefusedConnection)
                .build(),
        );
        macro_rules! client {
            ($krate:ident) => {
                $krate::Client::from_conf(
                    $krate::config::Builder::from(sdk)
                        .interceptor(interceptor.clone())
                        .retry_classifier(RefusedConnection)
                        .build(),
                )
            };
        }
        AwsClients {
            cloudformation,
            cloudcontrol,
            s3,
            sns: client!(aws_sdk_sns),
            sqs: client!(aws_sdk_sqs),
            iam: client!(aws_sdk_iam),
            lambda: client!(aws_sdk_lambda),
            eventbridge: client!(aws_sdk_eventbridge),
            securityhub: client!(aws_sdk_securityhub),
            kms: client!(aws_sdk_kms),
            ec2: client!(aws_sdk_ec2),
            codebuild: client!(aws_sdk_codebuild),
            route53: client!(aws_sdk_route53),
            elbv2: client!(aws_sdk_elasticloadbalancingv2),
            cloudwatch: client!(aws_sdk_cloudwatch),
            docdb: client!(aws_sdk_docdb),
            dax: client!(aws_sdk_dax),
            dms: client!(aws_sdk_databasemigration),
            lakeformation: client!(aws_sdk_lakeformation),
            secretsmanager: client!(aws_sdk_secretsmanager),
            region: sdk.region().map(|r| r.to_string()),
            counter,
        }
    }
}

/// Loads shared config (credentials, region, profile) the way the AWS CLI
/// does, with adaptive retry and the given timeouts; `credentials`, when
/// given, replace the caller's. A named profile's credentials are resolved
/// up front, so an unknown profile fails here instead of a run going on quietly.
pub async fn load_sdk_config(
    opts: &AwsOptions,
    credentials: Option<SharedCredentialsProvider>,
) -> Result<SdkConfig, ClientsError> {
    let retry = RetryConfig::adaptive().with_max_attempts(opts.max_attempts.unwrap_or(6));
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .retry_config(retry)
        .timeout_config(opts.timeouts.sdk_config());
    if let Some(r) = &opts.region {
        loader = loader.region(Region::new(r.clone()));
    }
    if let Some(p) = &opts.profile {
        loader = loader.profile_name(p);
        if credentials.is_none() {
            loader = loader.credentials_provider(profile_credentials(p).await?);
        }
    }
    if let Some(c) = credentials {
        loader = loader.credentials_provider(c);
    }
    if let Some(e) = &opts.endpoint_url {
        loader = loader.endpoint_url(e);
    }
    let sdk = loader.load().await;
    if sdk.region().is_none() {
        return Err(ClientsError::NoRegion);
    }
    Ok(sdk)
}

/// The credentials of a named profile, resolved now: an unknown profile (or
/// one without usable credentials) is an error before any AWS call.
async fn profile_credentials(
    profile: &str,
) -> Result<aws_config::profile::ProfileFileCredentialsProvider, ClientsError> {
    let provider = aws_config::profile::ProfileFileCredentialsProvider::builder()
        .profile_name(profile)
        .build();
    match provider.provide_credentials().await {
        Ok(_) => Ok(provider),
        Err(e) => Err(ClientsError::Profile {
            profile: profile.to_string(),
            message: crate::errors::chain_text(&e),
        }),
    }
}

/// Never retries a refused connection: nothing listens at the endpoint, and
/// retrying with backoff only turns an immediate answer into a long wait.
#[derive(Debug, Clone, Copy)]
struct RefusedConnection;

impl ClassifyRetry for RefusedConnection {
    fn classify_retry(&self, ctx: &InterceptorContext) -> RetryAction {
        let refused = ctx
            .output_or_error()
            .and_then(Result::err)
            .and_then(|e| e.as_connector_error())
            .is_some_and(|c| is_refused(c));
        if refused {
            RetryAction::RetryForbidden
        } else {
            RetryAction::NoActionIndicated
        }
    }

    fn name(&self) -> &'static str {
        "realdrift refused connection"
    }

    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::run_after(RetryClassifierPriority::transient_error_classifier())
    }
}

/// True when an error's cause chain holds a refused TCP connection.
fn is_refused(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        cur = err.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wrapped(std::io::Error);
    impl std::fmt::Display for Wrapped {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("connect error")
        }
    }
    impl std::error::Error for Wrapped {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn refused_connections_are_found_in_the_cause_chain() {
        let refused = Wrapped(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert!(is_refused(&refused));
        let reset = Wrapped(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        assert!(!is_refused(&reset));
    }

    #[test]
    fn default_timeouts_bound_every_stage() {
        let t = AwsOptions::default().timeouts.sdk_config();
        assert_eq!(t.connect_timeout(), Some(Duration::from_secs(5)));
        assert_eq!(t.read_timeout(), Some(Duration::from_secs(30)));
        assert_eq!(t.operation_attempt_timeout(), Some(Duration::from_secs(40)));
        assert_eq!(t.operation_timeout(), Some(Duration::from_secs(120)));
    }
}
