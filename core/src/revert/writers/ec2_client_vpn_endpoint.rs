//! AWS::EC2::ClientVpnEndpoint: ModifyClientVpnEndpoint with one declared
//! top-level setting. The call takes a settings structure whole, so a
//! declared `ConnectionLogOptions` is written only when the writer maps every
//! member the template declares in it; otherwise the revert is refused.

use super::declared_json;
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Map;

/// The members of `ConnectionLogOptions` the writer maps (CloudFormation
/// names; aws/src/writers/ec2_client_vpn_endpoint.rs converts exactly these).
pub(super) const LOG_MEMBERS: &[&str] = &["Enabled", "CloudwatchLogGroup", "CloudwatchLogStream"];

/// Settings EC2 takes together: security groups apply to the endpoint's VPC.
const TOGETHER: &[(&str, &str)] = &[("SecurityGroupIds", "VpcId"), ("VpcId", "SecurityGroupIds")];

/// The ModifyClientVpnEndpoint call writing the declared `top` of the endpoint.
pub(super) fn modify(res: &RevertResource, top: &str) -> Result<ServiceOp, Refused> {
    let Some(endpoint_id) = res.physical_id.clone().filter(|n| !n.is_empty()) else {
        return Err((
            RefusalReason::NoTarget,
            "the endpoint's physical id (its cvpn-endpoint id) is unknown".into(),
        ));
    };
    let Some(value) = declared_json(res, top)? else {
        return Err((
            RefusalReason::NoTarget,
            format!(
                "the template declares no {top}; ModifyClientVpnEndpoint cannot remove a setting"
            ),
        ));
    };
    if top == "ConnectionLogOptions" {
        let declared = value.as_object().map(|m| m.keys()).into_iter().flatten();
        if let Some(unmapped) = declared
            .into_iter()
            .find(|k| !LOG_MEMBERS.contains(&k.as_str()))
        {
            return Err((
                RefusalReason::NoWriter,
                format!(
                    "declared ConnectionLogOptions.{unmapped} is not written by the \
                     ec2ClientVpnEndpoint writer, and ModifyClientVpnEndpoint replaces \
                     ConnectionLogOptions whole"
                ),
            ));
        }
    }
    let mut settings = Map::new();
    settings.insert(top.to_string(), value);
    if let Some((_, other)) = TOGETHER.iter().find(|(t, _)| *t == top) {
        if let Some(v) = declared_json(res, other)? {
            settings.insert((*other).to_string(), v);
        }
    }
    Ok(ServiceOp::ModifyClientVpnEndpoint {
        endpoint_id,
        settings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::{json, Value};

    fn endpoint(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("cvpn-endpoint-0abc".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn one_declared_setting_per_call_security_groups_with_their_vpc() {
        let res = endpoint(json!({"SplitTunnel": false, "VpcId": "vpc-1",
                                  "SecurityGroupIds": ["sg-1"]}));
        let op = modify(&res, "SplitTunnel").unwrap();
        let ServiceOp::ModifyClientVpnEndpoint { settings, .. } = op else {
            panic!("{op:?}")
        };
        assert_eq!(Value::Object(settings), json!({"SplitTunnel": false}));
        let op = modify(&res, "SecurityGroupIds").unwrap();
        assert_eq!(
            op,
            ServiceOp::ModifyClientVpnEndpoint {
                endpoint_id: "cvpn-endpoint-0abc".into(),
                settings: json!({"SecurityGroupIds": ["sg-1"], "VpcId": "vpc-1"})
                    .as_object()
                    .cloned()
                    .unwrap()
            }
        );
    }

    #[test]
    fn an_unmapped_log_member_or_an_undeclared_setting_is_refused() {
        let res = endpoint(json!({"ConnectionLogOptions": {"Enabled": true,
            "IncludeAuthorizationPolicyContext": true}}));
        let (reason, message) = modify(&res, "ConnectionLogOptions").unwrap_err();
        assert_eq!(reason, RefusalReason::NoWriter);
        assert!(
            message.contains("ConnectionLogOptions.IncludeAuthorizationPolicyContext"),
            "{message}"
        );
        assert_eq!(
            modify(&res, "SplitTunnel").unwrap_err().0,
            RefusalReason::NoTarget
        );
        let mut unnamed = endpoint(json!({"SplitTunnel": true}));
        unnamed.physical_id = None;
        assert_eq!(
            modify(&unnamed, "SplitTunnel").unwrap_err().0,
            RefusalReason::NoTarget
        );
    }
}
