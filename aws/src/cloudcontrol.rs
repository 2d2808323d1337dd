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
            Ok(out) => model_outcome(
                type_name,
                identifier,
                out.resource_description().and_then(|d| d.properties()),
            ),
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

/// The outcome of a successful GetResource. An answer without a model, or
/// with one that is not a JSON object, is a failed read (lost coverage):
/// reading it as `{}` would report every declared property as missing.
fn model_outcome(type_name: &str, identifier: &str, properties: Option<&str>) -> ReadOutcome {
    let Some(props) = properties else {
        return ReadOutcome::denied(format!(
            "Cloud Control answered GetResource for {type_name} {identifier} without properties"
        ));
    };
    match serde_json::from_str::<Value>(props) {
        Ok(v @ Value::Object(_)) => ReadOutcome::found(v),
        Ok(_) => ReadOutcome::denied(format!(
            "Cloud Control returned a non-object model for {type_name} {identifier}"
        )),
        Err(e) => ReadOutcome::denied(format!(
            "Cloud Control returned a malformed model for {type_name} {identifier}: {e}"
        )),
    }
}

/// Maps a Cloud Control failure (after retries) to an outcome. Only a type
/// Cloud Control cannot read at all is a benign skip; every other failure
/// (InternalFailure, a handler error, a transport failure) is a read we
/// expected to make and did not: lost coverage.
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
                return ReadOutcome::unsupported(format!(
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
            ReadOutcome::denied(format!(
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
    fn answers_without_a_model_are_lost_coverage() {
        for props in [None, Some("[]"), Some("{not json")] {
            let o = model_outcome("AWS::SQS::Queue", "q", props);
            assert!(
                matches!(
                    o,
                    ReadOutcome::Skipped {
                        coverage_lost: true,
                        ..
                    }
                ),
                "{props:?}: {o:?}"
            );
        }
        assert_eq!(
            model_outcome("AWS::SQS::Queue", "q", Some("{}")),
            ReadOutcome::found(serde_json::json!({}))
        );
    }

    #[test]
    fn service_failures_are_lost_coverage() {
        for code in [
            "InternalFailure",
            "GeneralServiceException",
            "ServiceInternalError",
        ] {
            let o = map_cc_error(
                "AWS::S3::Bucket",
                "b",
                ErrorClass::Other,
                Some(code),
                "boom",
            );
            assert!(
                matches!(
                    o,
                    ReadOutcome::Skipped {
                        coverage_lost: true,
                        ..
                    }
                ),
                "{code}: {o:?}"
            );
        }
    }

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
        assert!(matches!(o, ReadOutcome::Unsupported { .. }));
    }
}
