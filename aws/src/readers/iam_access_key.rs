//! AWS::IAM::AccessKey: the key's user and status from ListAccessKeys. The
//! secret is never read (IAM returns it only once, at creation) and never
//! stored: the model has no `SecretAccessKey`.

use super::{declared_target, failed_read, AwsClients, Model};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{Projection, ReadOutcome, ReadRequest};
use serde_json::json;

/// The user and the status; `Serial` exists only in CloudFormation.
pub const PROJECTION: Projection = Projection {
    resource_type: "AWS::IAM::AccessKey",
    reads: &["UserName", "Status"],
    leaves_out: "Serial is a CloudFormation rotation counter IAM does not keep",
};

/// Reads the key whose id is the physical id among the declared user's keys.
pub fn read<'a>(clients: &'a AwsClients, req: &'a ReadRequest) -> BoxFuture<'a, ReadOutcome> {
    async move {
        let user = match declared_target(req, "UserName") {
            Ok(u) => u.to_string(),
            Err(o) => return *o,
        };
        let mut keys = clients
            .iam
            .list_access_keys()
            .user_name(&user)
            .into_paginator()
            .items()
            .send();
        while let Some(item) = keys.next().await {
            match item {
                Ok(k) if k.access_key_id() == Some(req.physical_id.as_str()) => {
                    let mut m = json!({ "UserName": k.user_name().unwrap_or(&user) });
                    if let Some(s) = k.status() {
                        m["Status"] = json!(s.as_str());
                    }
                    return Model::new(PROJECTION, req, m).found();
                }
                Ok(_) => {}
                Err(e) => {
                    // NoSuchEntity: the user is gone, and its keys with it.
                    return failed_read(
                        &e,
                        &["NoSuchEntity"],
                        &format!("iam:ListAccessKeys for {user}"),
                    );
                }
            }
        }
        ReadOutcome::NotFound
    }
    .boxed()
}
