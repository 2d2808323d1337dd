//! The Lambda `CodeSha256` supplement: Cloud Control never returns the code,
//! so an out-of-band code swap is visible only through GetFunction's digest.

use super::AwsClients;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use realdrift_core::pipeline::{LiveModel, ReadRequest};
use serde_json::Value;

/// The declared property the digest verifies.
const CODE: &str = "Code";

/// The supplement-table form of [`supplement_code_sha256`].
pub fn supplement<'a>(
    clients: &'a AwsClients,
    req: &'a ReadRequest,
    model: &'a mut LiveModel,
) -> BoxFuture<'a, ()> {
    supplement_code_sha256(clients, &req.physical_id, model).boxed()
}

/// Adds `CodeSha256` from lambda:GetFunction to a Cloud Control function model.
/// A failure keeps the model (the rest of it is still compared) and records a
/// read gap on `Code`: the deployed code could not be verified.
async fn supplement_code_sha256(clients: &AwsClients, function: &str, model: &mut LiveModel) {
    let result = clients
        .lambda
        .get_function()
        .function_name(function)
        .send()
        .await;
    match result {
        Ok(out) => match out.configuration().and_then(|c| c.code_sha256()) {
            Some(sha) => {
                if let Value::Object(m) = &mut model.properties {
                    m.insert("CodeSha256".into(), Value::String(sha.to_string()));
                }
            }
            None => {
                model.gaps.insert(
                    CODE.into(),
                    format!("code digest not checked: lambda:GetFunction on {function} returned no CodeSha256"),
                );
            }
        },
        Err(e) => {
            let info = crate::errors::describe(&e, &[]);
            model.gaps.insert(
                CODE.into(),
                format!(
                    "code digest not checked: lambda:GetFunction on {function} failed: {}",
                    info.message
                ),
            );
        }
    }
}
