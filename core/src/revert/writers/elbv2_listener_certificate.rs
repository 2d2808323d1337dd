//! AWS::ElasticLoadBalancingV2::ListenerCertificate: AddListenerCertificates
//! for each declared certificate (the call takes one certificate), on the
//! declared listener. Adding an attached certificate again changes nothing,
//! so a declared certificate detached out of band is re-attached and the
//! others stay as they are. A
//! certificate attached out of band is not this resource's (the reader never
//! counts it), and removing one would be a delete the writer does not make.

use super::{declared_json, declared_text, missing};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Value;

/// One AddListenerCertificates call per declared certificate.
pub(super) fn add(res: &RevertResource) -> Result<Vec<ServiceOp>, Refused> {
    let listener_arn = declared_text(res, "ListenerArn")?;
    let Some(Value::Array(items)) = declared_json(res, "Certificates")? else {
        return Err(missing("Certificates"));
    };
    let mut certificate_arns = Vec::new();
    for (i, c) in items.iter().enumerate() {
        let m = c.as_object();
        if let Some(k) = m
            .into_iter()
            .flat_map(|m| m.keys())
            .find(|k| *k != "CertificateArn")
        {
            return Err((
                RefusalReason::NoWriter,
                format!("declared Certificates.{i}.{k} is not taken by AddListenerCertificates"),
            ));
        }
        match m
            .and_then(|m| m.get("CertificateArn"))
            .and_then(Value::as_str)
        {
            Some(arn) => certificate_arns.push(arn.to_string()),
            None => return Err(missing(&format!("Certificates.{i}.CertificateArn"))),
        }
    }
    if certificate_arns.is_empty() {
        return Err(missing("Certificates"));
    }
    Ok(certificate_arns
        .into_iter()
        .map(|certificate_arn| ServiceOp::AddListenerCertificate {
            listener_arn: listener_arn.clone(),
            certificate_arn,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::json;

    fn resource(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("SniCertificate-1".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn every_declared_certificate_is_added_to_the_listener() {
        let res = resource(json!({"ListenerArn": "arn:l", "Certificates": [
            {"CertificateArn": "arn:c1"}, {"CertificateArn": "arn:c2"}]}));
        let op = |c: &str| ServiceOp::AddListenerCertificate {
            listener_arn: "arn:l".into(),
            certificate_arn: c.into(),
        };
        assert_eq!(add(&res).unwrap(), vec![op("arn:c1"), op("arn:c2")]);
    }

    #[test]
    fn a_member_the_call_does_not_take_or_no_certificate_is_refused() {
        let res = resource(json!({"ListenerArn": "arn:l", "Certificates": [
            {"CertificateArn": "arn:c1", "IsDefault": true}]}));
        let (reason, message) = add(&res).unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(message.contains("Certificates.0.IsDefault"), "{message}");
        let none = resource(json!({"ListenerArn": "arn:l", "Certificates": [{}]}));
        assert_eq!(add(&none).unwrap_err().0, RefusalReason::NoTarget);
        let empty = resource(json!({"ListenerArn": "arn:l", "Certificates": []}));
        assert_eq!(add(&empty).unwrap_err().0, RefusalReason::NoTarget);
    }
}
