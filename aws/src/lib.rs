//! realdrift-aws: the AWS SDK implementations of realdrift-core's I/O traits.
//!
//! Build one [`AwsClients`] bundle per process (it counts every call), then
//! hand its adapters to the pipeline: [`CfnStackSource`], [`AwsLiveReader`],
//! [`AwsChildEnumerator`], [`AwsKmsAliases`]; revert plans are applied with
//! [`apply_revert`] (the writers in [`WRITERS`]).

mod account_names;
mod assume;
mod children;
mod clients;
mod cloudcontrol;
mod cloudformation;
mod counter;
pub mod errors;
mod identifiers;
mod kms;
mod live_reader;
pub mod notify;
mod organization;
mod queue;
mod read_routes;
mod readers;
mod revert_apply;
mod s3_store;
mod schema_source;
mod writers;

pub use account_names::{OrganizationsDirectory, NAME_LOOKUP_TIMEOUT};
pub use assume::{assume_role, caller_partition, role_arn, AssumeError, SESSION_NAME};
pub use aws_credential_types::provider::SharedCredentialsProvider;
pub use children::{AwsChildEnumerator, ENUMERATORS};
pub use clients::{
    load_sdk_config, AwsClients, AwsOptions, ClientsError, Timeouts, CLOUDCONTROL_ENDPOINT_ENV,
};
pub use cloudcontrol::CloudControlReader;
pub use cloudformation::CfnStackSource;
pub use counter::CountingInterceptor;
pub use identifiers::{cc_identifier, has_adapter, CcIdentifier};
pub use kms::AwsKmsAliases;
pub use live_reader::AwsLiveReader;
pub use organization::{org_accounts, OrgAccounts, OrgListError};
pub use queue::{SqsFlushQueue, SqsWorkQueue};
pub use read_routes::{read_route, reader_name};
pub use readers::{projection_for, reader_for, supplement_for, PROJECTIONS, READERS, SUPPLEMENTS};
pub use realdrift_core::pipeline::CallCounter;
pub use revert_apply::{apply_revert, TokioPause};
pub use s3_store::{S3BaselineStore, BASELINES_PREFIX};
pub use schema_source::DescribeTypeSchemas;
pub use writers::{writer_for, AwsRevertWriter, RetryPolicy, WriteCall, WRITERS};

use realdrift_core::pipeline::Pipeline;
use realdrift_core::schema::{BundledSchemas, SchemaChain, SchemaError, SchemaSource};
use std::sync::Arc;

impl AwsClients {
    /// Every pipeline adapter over this bundle, ready for [`Pipeline`].
    pub fn adapters(&self) -> AwsAdapters {
        AwsAdapters {
            stacks: CfnStackSource::new(self.cloudformation.clone()),
            reader: AwsLiveReader::new(self.clone()),
            children: AwsChildEnumerator::new(self.clone()),
            kms: AwsKmsAliases::new(self.clone()),
        }
    }
}

impl AwsClients {
    /// The pipeline over this bundle: CloudFormation stacks, AWS live reads,
    /// child enumerators, managed KMS aliases, and schema facts from the
    /// bundled snapshot with DescribeType for types it lacks. Per-stack call
    /// counts come from this bundle's counter.
    pub fn pipeline(&self) -> Result<Pipeline, SchemaError> {
        let bundled: Arc<dyn SchemaSource> = Arc::new(BundledSchemas::shared()?);
        let describe = Arc::new(DescribeTypeSchemas::new(self.clone()));
        let chain = SchemaChain::new().then(bundled).then(describe.clone());
        let a = self.adapters();
        Ok(
            Pipeline::new(Arc::new(a.stacks), Arc::new(a.reader), Arc::new(chain))
                .with_children(Arc::new(a.children))
                .with_kms(Arc::new(a.kms))
                .with_schema_prefetch(describe)
                .with_counter(self.counter.clone()),
        )
    }
}

/// The SDK-backed adapters for one bundle.
#[derive(Debug, Clone)]
pub struct AwsAdapters {
    /// CloudFormation stacks.
    pub stacks: CfnStackSource,
    /// Live reads.
    pub reader: AwsLiveReader,
    /// Child enumeration.
    pub children: AwsChildEnumerator,
    /// Managed KMS alias targets.
    pub kms: AwsKmsAliases,
}
