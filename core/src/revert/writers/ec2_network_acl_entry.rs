//! AWS::EC2::NetworkAclEntry: ReplaceNetworkAclEntry with the whole declared
//! entry (EC2 cannot modify an entry in place; replace rewrites it under the
//! same rule number and direction).

use super::{declared_json, missing};
use crate::revert::input::RevertResource;
use crate::revert::model::ServiceOp;
use crate::revert::target::Refused;
use serde_json::Map;

/// The properties that address the entry; each must be declared.
const ADDRESS: &[&str] = &["NetworkAclId", "RuleNumber", "Protocol", "RuleAction"];

/// The replace call carrying every declared property.
pub(super) fn replace(res: &RevertResource) -> Result<ServiceOp, Refused> {
    let mut entry = Map::new();
    for prop in res.declared.keys() {
        if let Some(v) = declared_json(res, prop)? {
            entry.insert(prop.clone(), v);
        }
    }
    if let Some(absent) = ADDRESS.iter().find(|p| !entry.contains_key(**p)) {
        return Err(missing(absent));
    }
    Ok(ServiceOp::ReplaceNetworkAclEntry { entry })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::json;

    #[test]
    fn the_whole_declared_entry_is_replaced() {
        let mut res = RevertResource::default();
        let d = json!({"NetworkAclId": "acl-1", "RuleNumber": 100, "Protocol": 6,
                       "RuleAction": "allow", "CidrBlock": "10.0.0.0/8",
                       "PortRange": {"From": 443, "To": 443}});
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&d) {
            res.declared = m;
        }
        let ServiceOp::ReplaceNetworkAclEntry { entry } = replace(&res).unwrap() else {
            panic!("wrong op");
        };
        assert_eq!(serde_json::Value::Object(entry), d);
        res.declared.remove("RuleAction");
        assert!(replace(&res).is_err());
    }
}
