//! AWS adapters: the SDK-backed implementations of the pipeline traits.
//!
//! Build one [`AwsClients`] bundle per process (it counts every call), then
//! hand its adapters to the pipeline: [`CfnStackSource`], [`AwsLiveReader`],
//! [`AwsChildEnumerator`], [`AwsKmsAliases`].

mod children;
mod clients;
mod cloudcontrol;
mod cloudformation;
mod counter;
pub mod errors;
mod identifiers;
mod kms;
mod live_reader;
mod readers;

pub use children::{AwsChildEnumerator, ENUMERATORS};
pub use clients::{AwsClients, AwsOptions, ClientsError, CLOUDCONTROL_ENDPOINT_ENV};
pub use cloudcontrol::CloudControlReader;
pub use cloudformation::CfnStackSource;
pub use counter::{CallCounter, CountingInterceptor};
pub use identifiers::{cc_identifier, has_adapter, CcIdentifier};
pub use kms::AwsKmsAliases;
pub use live_reader::AwsLiveReader;
pub use readers::{reader_for, READERS};

impl AwsClients {
    /// Every pipeline adapter over this bundle, ready for [`crate::pipeline::Pipeline`].
    pub fn adapters(&self) -> AwsAdapters {
        AwsAdapters {
            stacks: CfnStackSource::new(self.cloudformation.clone()),
            reader: AwsLiveReader::new(self.clone()),
            children: AwsChildEnumerator::new(self.clone()),
            kms: AwsKmsAliases::new(self.clone()),
        }
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
