//! Cloud Control GetResource: the default live reader, with error mapping.

use super::errors::{describe, ErrorClass};
use aws_sdk_cloudcontrol::Client;
use realdrift_core::pipeline::ReadOutcome;
use serde_json::Value;

/// Cloud Control error codes that mean "this type cannot be read here".
const UNREADABLE_TYPE_CODES: &[&str] = &[
    "UnsupportedActionException",
    "TypeNotFoundException",
    "PrivateTypeException",
];

/// Reads resources through Cloud Control.
#[derive(Debug, Clone)]
pub struct CloudControlReader {
    client: Client,
}

impl CloudControlReader {
    /// A reader over an existing client.
    pub fn new(client: Client) -> Self {
        CloudControlReader { client }
    }

    /// GetResource for one identifier, mapped to a [`ReadOutcome`].
    pub async fn get(&self, type_name: &str, identifier: &str) -> ReadOutcome {
        let result = self
            .client
            .get_resource()
            .type_name(type_name)
            .identifier(identifier)
            .send()
            .await;
        match result {
            Ok(out) => {
                let props = out
                    .resource_description()
                    .and_then(|d| d.properties())
                    .unwrap_or("{}");
                match serde_json::from_str::<Value>(props) {
                    Ok(v @ Value::Object(_)) => ReadOutcome::found(v),
                    Ok(_) => ReadOutcome::skipped(format!(
                        "Cloud Control returned a non-object model for {type_name} {identifier}"
                    )),
                    Err(e) => ReadOutcome::skipped(format!(
                        "Cloud Control returned a malformed model for {type_name} {identifier}: {e}"
                    )),
                }
            }
            Err(err) => {
                let info = describe(&err, &["ResourceNotFoundException"]);
                map_cc_error(
                    type_name,
                    identifier,
                    info.class,
                    info.code.as_deref(),
                    &info.message,
                )
            }
        }
    }
}

/// Maps a Cloud Control failure (after retries) to an outcome.
fn map_cc_error(
    type_name: &str,
    identifier: &str,
    class: ErrorClass,
    code: Option<&str>,
    message: &str,
) -> ReadOutcome {
    match class {
        ErrorClass::NotFound => ReadOutcome::NotFound,
        ErrorClass::AccessDenied => ReadOutcome::denied(format!(
            "cloudcontrol:GetResource denied for {type_name} {identifier}: {message}"
        )),
        ErrorClass::Throttled => ReadOutcome::denied(format!(
            "cloudcontrol:GetResource still throttled after retries for {type_name} {identifier}: {message}"
        )),
        ErrorClass::Other => {
            if code.is_some_and(|c| UNREADABLE_TYPE_CODES.contains(&c)) {
                return ReadOutcome::skipped(format!(
                    "Cloud Control cannot read {type_name}: {message}"
                ));
            }
            // Handlers wrap the downstream service's error; a denial inside
            // one is still lost coverage, not an unsupported type.
            if looks_denied(message) {
                return ReadOutcome::denied(format!(
                    "read of {type_name} {identifier} denied inside the Cloud Control handler: {message}"
                ));
            }
            if code.is_none() {
                // Transport failure (connection refused, timeout): a read we
                // expected to make did not happen.
                return ReadOutcome::denied(format!(
                    "cloudcontrol:GetResource failed for {type_name} {identifier}: {message}"
                ));
            }
            ReadOutcome::skipped(format!(
                "cloudcontrol:GetResource failed for {type_name} {identifier}: {message}"
            ))
        }
    }
}

/// True when a handler message reports a permission refusal.
fn looks_denied(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("accessdenied") || m.contains("access denied") || m.contains("not authorized")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handler_denials_are_lost_coverage() {
        let o = map_cc_error(
            "AWS::S3::Bucket",
            "b",
            ErrorClass::Other,
            Some("GeneralServiceException"),
            "User is not authorized to perform s3:GetBucketTagging",
        );
        assert!(matches!(
            o,
            ReadOutcome::Skipped {
                coverage_lost: true,
                ..
            }
        ));
        let o = map_cc_error(
            "AWS::X::Y",
            "b",
            ErrorClass::Other,
            Some("UnsupportedActionException"),
            "Resource type AWS::X::Y does not support READ action",
        );
        assert!(matches!(
            o,
            ReadOutcome::Skipped {
                coverage_lost: false,
                ..
            }
        ));
    }
}
