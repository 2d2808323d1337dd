//! Bytes -> [`CloudTrailEvent`], bounded and with errors that name the
//! offending field. Never panics on any input.

use super::record::{CloudTrailRecord, Envelope};
use serde_json::{Map, Value};

/// The largest event accepted, in bytes: 1 MiB.
///
/// EventBridge events are at most 256 KiB and SQS messages at most 1 MiB, so
/// nothing real is cut; anything bigger is refused before it is parsed, so
/// one message can cost at most a few MiB of memory. Nesting is bounded by
/// serde_json's recursion limit (128), so deep input cannot exhaust the stack.
pub const MAX_EVENT_BYTES: usize = 1024 * 1024;

/// Why an event could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Over [`MAX_EVENT_BYTES`].
    #[error("event is {size} bytes, over the {max}-byte cap")]
    TooLarge {
        /// The input size.
        size: usize,
        /// The cap.
        max: usize,
    },
    /// Not JSON (or nested deeper than the recursion limit).
    #[error("event is not valid JSON: {0}")]
    Json(String),
    /// A part that must be a JSON object is not.
    #[error("{what} is not a JSON object")]
    NotAnObject {
        /// Which part.
        what: &'static str,
    },
    /// A required field is absent or null.
    #[error("{field} is missing")]
    Missing {
        /// The field, as a path (`detail.eventName`).
        field: &'static str,
    },
    /// A required field has the wrong type or is empty.
    #[error("{field} must be {expected}")]
    WrongType {
        /// The field, as a path.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
}

/// A parsed event: the CloudTrail record and, when it came wrapped, the
/// EventBridge envelope.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CloudTrailEvent {
    /// The EventBridge envelope (`None` for a bare record).
    pub envelope: Option<Envelope>,
    /// The CloudTrail record.
    pub record: CloudTrailRecord,
}

/// Parses an EventBridge event (the body of an on-change SQS message).
pub fn parse_event(bytes: &[u8]) -> Result<CloudTrailEvent, ParseError> {
    event_from_value(read_json(bytes)?)
}

/// Parses a bare CloudTrail record (what EventBridge puts under `detail`).
pub fn parse_record(bytes: &[u8]) -> Result<CloudTrailEvent, ParseError> {
    Ok(CloudTrailEvent {
        envelope: None,
        record: record_from_value(read_json(bytes)?, RecordFields::BARE)?,
    })
}

/// An EventBridge event already parsed as JSON.
pub fn event_from_value(value: Value) -> Result<CloudTrailEvent, ParseError> {
    let Value::Object(mut obj) = value else {
        return Err(ParseError::NotAnObject { what: "event" });
    };
    require_string(&obj, "detail-type", "detail-type")?;
    let detail = match obj.remove("detail") {
        None | Some(Value::Null) => return Err(ParseError::Missing { field: "detail" }),
        Some(d @ Value::Object(_)) => d,
        Some(_) => return Err(ParseError::NotAnObject { what: "detail" }),
    };
    let envelope: Envelope = serde_json::from_value(Value::Object(obj))
        .map_err(|e| ParseError::Json(format!("envelope: {e}")))?;
    Ok(CloudTrailEvent {
        envelope: Some(envelope),
        record: record_from_value(detail, RecordFields::WRAPPED)?,
    })
}

/// Field paths used in errors, so a wrapped record's fields read `detail.*`.
struct RecordFields {
    what: &'static str,
    source: &'static str,
    name: &'static str,
}

impl RecordFields {
    const BARE: Self = Self {
        what: "record",
        source: "eventSource",
        name: "eventName",
    };
    const WRAPPED: Self = Self {
        what: "detail",
        source: "detail.eventSource",
        name: "detail.eventName",
    };
}

fn record_from_value(value: Value, fields: RecordFields) -> Result<CloudTrailRecord, ParseError> {
    let Value::Object(obj) = &value else {
        return Err(ParseError::NotAnObject { what: fields.what });
    };
    require_string(obj, "eventSource", fields.source)?;
    require_string(obj, "eventName", fields.name)?;
    // Every other field is lenient (see record.rs): this cannot fail on an object.
    serde_json::from_value(value).map_err(|e| ParseError::Json(format!("{}: {e}", fields.what)))
}

fn require_string(
    obj: &Map<String, Value>,
    key: &str,
    field: &'static str,
) -> Result<(), ParseError> {
    match obj.get(key) {
        None | Some(Value::Null) => Err(ParseError::Missing { field }),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(()),
        Some(_) => Err(ParseError::WrongType {
            field,
            expected: "a non-empty string",
        }),
    }
}

fn read_json(bytes: &[u8]) -> Result<Value, ParseError> {
    if bytes.len() > MAX_EVENT_BYTES {
        return Err(ParseError::TooLarge {
            size: bytes.len(),
            max: MAX_EVENT_BYTES,
        });
    }
    serde_json::from_slice(bytes).map_err(|e| ParseError::Json(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_field() {
        let e = parse_event(br#"{"detail-type":"x","detail":{"eventSource":"s3.amazonaws.com"}}"#);
        assert_eq!(
            e,
            Err(ParseError::Missing {
                field: "detail.eventName"
            })
        );
        let e = parse_record(br#"{"eventSource":"s3.amazonaws.com","eventName":7}"#);
        assert_eq!(
            e,
            Err(ParseError::WrongType {
                field: "eventName",
                expected: "a non-empty string"
            })
        );
        assert_eq!(
            parse_event(br#"{"detail-type":"x","detail":[]}"#),
            Err(ParseError::NotAnObject { what: "detail" })
        );
        assert_eq!(
            parse_event(br#"{"detail":{}}"#),
            Err(ParseError::Missing {
                field: "detail-type"
            })
        );
        assert!(matches!(parse_event(b"{"), Err(ParseError::Json(_))));
    }

    #[test]
    fn oversized_and_deep_inputs_are_refused() {
        let big = vec![b' '; MAX_EVENT_BYTES + 1];
        assert!(matches!(
            parse_event(&big),
            Err(ParseError::TooLarge { .. })
        ));
        let deep = "[".repeat(100_000);
        assert!(matches!(
            parse_record(deep.as_bytes()),
            Err(ParseError::Json(_))
        ));
    }

    #[test]
    fn lenient_fields_read_as_absent() {
        let e = parse_record(
            br#"{"eventSource":"s3.amazonaws.com","eventName":"PutBucketPolicy","readOnly":"false",
                 "userIdentity":"...","requestParameters":null,"resources":[1,{"ARN":"arn:aws:s3:::b"}],
                 "managementEvent":"true","sessionCredentialFromConsole":"true"}"#,
        )
        .unwrap();
        assert_eq!(e.record.read_only, Some(false));
        assert_eq!(e.record.management_event, Some(true));
        assert_eq!(e.record.session_credential_from_console, Some(true));
        assert_eq!(e.record.user_identity, None);
        assert_eq!(e.record.request_parameters, None);
        assert_eq!(e.record.resources.len(), 1);
    }
}
