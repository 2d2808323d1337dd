//! The SDK-backed [`LiveReader`]: per-type reader first, else Cloud Control,
//! then per-type supplements.

use super::clients::AwsClients;
use super::cloudcontrol::CloudControlReader;
use super::identifiers::{cc_identifier, CcIdentifier};
use super::readers::{reader_for, supplement_for};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{is_unreadable_type, LiveReader, ReadOutcome, ReadRequest};

/// Reads live resources through AWS.
#[derive(Debug, Clone)]
pub struct AwsLiveReader {
    clients: AwsClients,
    cc: CloudControlReader,
}

impl AwsLiveReader {
    /// A reader over a client bundle.
    pub fn new(clients: AwsClients) -> Self {
        let cc = CloudControlReader::new(clients.cloudcontrol.clone());
        AwsLiveReader { clients, cc }
    }
}

impl LiveReader for AwsLiveReader {
    fn read<'a>(&'a self, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
        async move {
            if let Some(reason) = is_unreadable_type(&req.resource_type) {
                return ReadOutcome::skipped(reason);
            }
            if let Some(reader) = reader_for(&req.resource_type) {
                return reader(&self.clients, req).await;
            }
            let identifier = match cc_identifier(req) {
                CcIdentifier::Ready(id) => id,
                CcIdentifier::Unresolved(reason) => {
                    return ReadOutcome::TargetUnresolved { reason }
                }
                // A declared resource we cannot address: lost, not benign.
                CcIdentifier::Impossible(reason) => return ReadOutcome::denied(reason),
            };
            let mut outcome = self.cc.get(&req.resource_type, &identifier).await;
            if let ReadOutcome::Found(model) = &mut outcome {
                // What Cloud Control never returns (Lambda's code digest, a
                // launch template's default version data) comes from the service.
                if let Some(supplement) = supplement_for(&req.resource_type) {
                    supplement(&self.clients, req, model).await;
                }
            }
            outcome
        }
        .boxed()
    }
}
