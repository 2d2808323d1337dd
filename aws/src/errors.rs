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
        // HTML 404, a proxy page): the status says enough, the body is noise.
        (None, _, SdkError::ServiceError(se)) => format!(
            "HTTP {} with a response that is not an AWS error (operation not supported by this endpoint?)",
            se.raw().status().as_u16()
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
