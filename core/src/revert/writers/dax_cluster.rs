//! AWS::DAX::Cluster: UpdateCluster with one declared setting per call. Only
//! what UpdateCluster takes is written (the data row's `writes`); the node
//! count, node type, role, subnets and encryption are not (the row's
//! `refuses` says why for each).

use super::{declared_json, physical_id};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;

/// The UpdateCluster call writing the declared `top` of the cluster.
pub(super) fn update(res: &RevertResource, top: &str) -> Result<ServiceOp, Refused> {
    let cluster_name = physical_id(res, "the cluster name")?;
    let Some(value) = declared_json(res, top)? else {
        return Err((
            RefusalReason::NoTarget,
            format!("the template declares no {top}; UpdateCluster cannot remove a setting"),
        ));
    };
    Ok(ServiceOp::UpdateDaxCluster {
        cluster_name,
        property: top.to_string(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declared::DeclaredValue;
    use serde_json::{json, Value};

    fn cluster(declared: Value) -> RevertResource {
        let mut res = RevertResource {
            physical_id: Some("readers-cache".into()),
            ..RevertResource::default()
        };
        if let DeclaredValue::Object(m) = DeclaredValue::from_json(&declared) {
            res.declared = m;
        }
        res
    }

    #[test]
    fn one_declared_setting_per_call() {
        let res = cluster(json!({"Description": "cache", "SecurityGroupIds": ["sg-1"]}));
        assert_eq!(
            update(&res, "SecurityGroupIds").unwrap(),
            ServiceOp::UpdateDaxCluster {
                cluster_name: "readers-cache".into(),
                property: "SecurityGroupIds".into(),
                value: json!(["sg-1"])
            }
        );
    }

    #[test]
    fn an_undeclared_setting_or_an_unknown_cluster_is_refused() {
        let res = cluster(json!({"Description": "cache"}));
        assert_eq!(
            update(&res, "ParameterGroupName").unwrap_err().0,
            RefusalReason::NoTarget
        );
        let mut nameless = cluster(json!({"Description": "cache"}));
        nameless.physical_id = None;
        assert_eq!(
            update(&nameless, "Description").unwrap_err().0,
            RefusalReason::NoTarget
        );
    }
}
