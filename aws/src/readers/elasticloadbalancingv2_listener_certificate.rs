//! AWS::ElasticLoadBalancingV2::ListenerCertificate: the declared listener's
//! certificates (DescribeListenerCertificates), the declared ones that are
//! still attached, in declared order.

use super::{declared_target, AwsClients, Model};
use crate::errors::{describe, ErrorClass};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::declared::DeclaredValue;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::json;
use std::collections::BTreeSet;

/// Both properties of the type.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::ElasticLoadBalancingV2::ListenerCertificate",
    reads: &["ListenerArn", "Certificates"],
    leaves_out: "not a property of a listener certificate",
};

/// Pages read at most: a listener holds at most a few hundred certificates.
const MAX_PAGES: usize = 50;

/// Reads the listener's certificate list. The listener's default certificate
/// is the listener's own, not this resource's, and is left out; another
/// certificate attached out of band belongs to no declared value here.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let listener = match declared_target(req, "ListenerArn") {
            Ok(l) => l.to_string(),
            Err(o) => return *o,
        };
        let attached = match attached(clients, &listener).await {
            Ok(Some(a)) => a,
            Ok(None) => return ReadOutcome::NotFound,
            Err(o) => return *o,
        };
        let declared = match declared_arns(req) {
            Some(d) => d,
            None => {
                return ReadOutcome::TargetUnresolved {
                    reason: format!("{} Certificates is not resolved", req.resource_type),
                }
            }
        };
        let kept: Vec<_> = declared
            .iter()
            .filter(|a| attached.contains(*a))
            .map(|a| json!({"CertificateArn": a}))
            .collect();
        if kept.is_empty() && !declared.is_empty() {
            return ReadOutcome::NotFound;
        }
        let m = json!({"ListenerArn": listener, "Certificates": kept});
        Model::new(PROJECTION, req, m).found()
    }
    .boxed()
}

/// The non-default certificates of the listener; `None` when it is gone.
async fn attached(
    clients: &AwsClients,
    listener: &str,
) -> Result<Option<BTreeSet<String>>, Box<ReadOutcome>> {
    let mut out = BTreeSet::new();
    let mut marker: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let answer = clients
            .elbv2
            .describe_listener_certificates()
            .listener_arn(listener)
            .set_marker(marker.take())
            .send()
            .await;
        let page = match answer {
            Ok(p) => p,
            Err(e) => {
                let info = describe(&e, &["ListenerNotFound"]);
                return match info.class {
                    ErrorClass::NotFound => Ok(None),
                    _ => Err(Box::new(ReadOutcome::denied(format!(
                        "elasticloadbalancing:DescribeListenerCertificates on {listener}: {}",
                        info.message
                    )))),
                };
            }
        };
        for c in page.certificates() {
            if c.is_default() != Some(true) {
                out.extend(c.certificate_arn().map(str::to_string));
            }
        }
        match page.next_marker() {
            Some(m) if !m.is_empty() => marker = Some(m.to_string()),
            _ => return Ok(Some(out)),
        }
    }
    Err(Box::new(ReadOutcome::denied(format!(
        "elasticloadbalancing:DescribeListenerCertificates on {listener}: more than {MAX_PAGES} pages"
    ))))
}

/// The declared certificate ARNs; `None` when one is not resolved.
fn declared_arns(req: &ReadRequest) -> Option<Vec<String>> {
    let Some(DeclaredValue::Array(items)) = req.declared.get("Certificates") else {
        return (!req.declared.contains_key("Certificates")).then(Vec::new);
    };
    items
        .iter()
        .map(|i| match i {
            DeclaredValue::Object(m) => match m.get("CertificateArn") {
                Some(DeclaredValue::String(s)) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
