//! Maps SDK errors to the few outcomes the pipeline distinguishes.

use aws_smithy_runtime_api::client::result::SdkError;
use aws_smithy_runtime_api::http::Response as HttpResponse;
use aws_smithy_types::error::display::DisplayErrorContext;
use aws_smithy_types::error::metadata::ProvideErrorMetadata;

/// The class of an AWS error, as far as drift detection cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// The resource does not exist.
    NotFound,
    /// The credentials may not make this call.
    AccessDenied,
    /// Rate limited (still failing after the SDK's adaptive retries).
    Throttled,
    /// Anything else.
    Other,
}

/// An SDK error reduced to its code, message and class.
#[derive(Debug, Clone, PartialEq)]
pub struct AwsErrorInfo {
    /// The service error code, when the service returned one.
    pub code: Option<String>,
    /// A readable message (the service's, or the transport error chain).
    pub message: String,
    /// The class.
    pub class: ErrorClass,
}

/// Codes that mean "not allowed", across services.
const ACCESS_DENIED_CODES: &[&str] = &[
    "AccessDenied",
    "AccessDeniedException",
    "AuthorizationError",
    "UnauthorizedOperation",
    "UnauthorizedException",
    "InvalidClientTokenId",
    "UnrecognizedClientException",
];

/// Codes that mean "slow down", across services.
const THROTTLING_CODES: &[&str] = &[
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "TooManyRequestsException",
    "RequestLimitExceeded",
    "SlowDown",
];

/// The message for a response that is not an AWS error. Only the statuses
/// that mean "no such operation here" get that hint; a success that did not
/// parse and a server error are said as what they are.
fn unreadable_response(status: u16, detail: &str) -> String {
    match status {
        200..=299 => format!("HTTP {status}, but the response could not be parsed: {detail}"),
        404 | 405 | 501 => format!(
            "HTTP {status} with a response that is not an AWS error (operation not supported by this endpoint?)"
        ),
        500..=599 => format!("HTTP {status}: server error with a response that is not an AWS error"),
        _ => format!("HTTP {status} with a response that is not an AWS error"),
    }
}

/// An error and its causes on one line, nothing said twice.
pub fn chain_text(e: &(dyn std::error::Error + 'static)) -> String {
    realdrift_core::pipeline::error_chain(e)
}

/// Describes an SDK error; `not_found_codes` are the service codes meaning "gone".
pub fn describe<E>(err: &SdkError<E, HttpResponse>, not_found_codes: &[&str]) -> AwsErrorInfo
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    let code = err.code().map(str::to_string);
    let message = match (err.code(), err.message(), err) {
        (Some(c), Some(m), _) => format!("{c}: {m}"),
        (Some(c), None, _) => c.to_string(),
        // A response the SDK could not read as an AWS error (an emulator's
        // HTML 404, a proxy page, a body that does not parse): the status
        // and the parse error say enough, the body is noise.
        (None, _, SdkError::ServiceError(se)) => unreadable_response(
            se.raw().status().as_u16(),
            &DisplayErrorContext(err).to_string(),
        ),
        (None, _, SdkError::TimeoutError(_)) => {
            "timed out: no answer within the call timeout".to_string()
        }
        (None, _, SdkError::DispatchFailure(d)) if d.is_timeout() => {
            "timed out: no answer within the connect or read timeout".to_string()
        }
        // Transport failures: the cause chain as one readable line (the
        // SDK's own rendering appends a Rust debug dump).
        (None, _, SdkError::DispatchFailure(_) | SdkError::ResponseError(_)) => {
            format!("cannot reach the endpoint: {}", chain_text(err))
        }
        _ => DisplayErrorContext(err).to_string(),
    };
    let class = match code.as_deref() {
        Some(c) if not_found_codes.contains(&c) => ErrorClass::NotFound,
        Some(c) if ACCESS_DENIED_CODES.contains(&c) => ErrorClass::AccessDenied,
        Some(c) if THROTTLING_CODES.contains(&c) => ErrorClass::Throttled,
        _ => ErrorClass::Other,
    };
    AwsErrorInfo {
        code,
        message,
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::unreadable_response;

    #[test]
    fn only_missing_operations_get_the_unsupported_hint() {
        assert!(unreadable_response(404, "x").contains("operation not supported"));
        assert!(unreadable_response(501, "x").contains("operation not supported"));
        for status in [200, 500, 502, 400] {
            let m = unreadable_response(status, "expected value at line 1");
            assert!(!m.contains("not supported"), "{status}: {m}");
        }
        assert!(
            unreadable_response(200, "expected value at line 1").contains("could not be parsed")
        );
        assert!(unreadable_response(500, "").contains("server error"));
    }
}
