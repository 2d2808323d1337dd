//! The client bundle: every SDK client, built once from one `aws_config` load.

use crate::counter::CountingInterceptor;
use aws_config::retry::RetryConfig;
use aws_config::{BehaviorVersion, Region, SdkConfig};
use realdrift_core::pipeline::CallCounter;

/// The environment variable the SDK reads for a Cloud Control-only endpoint.
pub const CLOUDCONTROL_ENDPOINT_ENV: &str = "AWS_ENDPOINT_URL_CLOUDCONTROL";

/// How to reach AWS (or the local emulator).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AwsOptions {
    /// Region; `None` resolves as the AWS CLI does (env, profile, IMDS).
    pub region: Option<String>,
    /// Named profile from the shared config files.
    pub profile: Option<String>,
    /// Endpoint override for every service (the emulator).
    pub endpoint_url: Option<String>,
    /// Endpoint override for Cloud Control only; defaults to the
    /// `AWS_ENDPOINT_URL_CLOUDCONTROL` environment variable.
    pub cloudcontrol_endpoint_url: Option<String>,
    /// Maximum attempts per call under adaptive retry (default 6).
    pub max_attempts: Option<u32>,
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
    /// KMS (managed alias targets).
    pub kms: aws_sdk_kms::Client,
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
}

impl AwsClients {
    /// Loads shared config (credentials, region, profile) the way the AWS CLI
    /// does, with adaptive retry, and builds every client from it.
    pub async fn load(opts: &AwsOptions) -> Result<AwsClients, ClientsError> {
        let retry = RetryConfig::adaptive().with_max_attempts(opts.max_attempts.unwrap_or(6));
        let mut loader = aws_config::defaults(BehaviorVersion::latest()).retry_config(retry);
        if let Some(r) = &opts.region {
            loader = loader.region(Region::new(r.clone()));
        }
        if let Some(p) = &opts.profile {
            loader = loader.profile_name(p);
        }
        if let Some(e) = &opts.endpoint_url {
            loader = loader.endpoint_url(e);
        }
        let sdk = loader.load().await;
        if sdk.region().is_none() {
            return Err(ClientsError::NoRegion);
        }
        let cc_endpoint = opts
            .cloudcontrol_endpoint_url
            .clone()
            .or_else(|| std::env::var(CLOUDCONTROL_ENDPOINT_ENV).ok())
            .filter(|s| !s.is_empty());
        Ok(Self::from_sdk_config(&sdk, cc_endpoint, CallCounter::new()))
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
                .build(),
        );
        let mut cc =
            aws_sdk_cloudcontrol::config::Builder::from(sdk).interceptor(interceptor.clone());
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
                .build(),
        );
        macro_rules! client {
            ($krate:ident) => {
                $krate::Client::from_conf(
                    $krate::config::Builder::from(sdk)
                        .interceptor(interceptor.clone())
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
            kms: client!(aws_sdk_kms),
            region: sdk.region().map(|r| r.to_string()),
            counter,
        }
    }
}
