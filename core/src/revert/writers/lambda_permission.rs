//! AWS::Lambda::Permission: one statement of the function's resource policy,
//! rebuilt (RemovePermission + AddPermission) from the declared properties.

use super::{declared_json, declared_strings, missing};
use crate::revert::input::RevertResource;
use crate::revert::model::{RefusalReason, ServiceOp};
use crate::revert::target::Refused;
use serde_json::Map;

/// The rebuild call carrying every declared property.
pub(super) fn put(res: &RevertResource) -> Result<ServiceOp, Refused> {
    let function_name = match declared_strings(res, "FunctionName")?.as_slice() {
        [f] => f.clone(),
        _ => return Err(missing("FunctionName")),
    };
    let Some(physical) = res.physical_id.as_deref() else {
        return Err((
            RefusalReason::NoTarget,
            "the permission's physical id (its statement id) is unknown".into(),
        ));
    };
    let mut permission = Map::new();
    for prop in res.declared.keys() {
        if let Some(v) = declared_json(res, prop)? {
            permission.insert(prop.clone(), v);
        }
    }
    Ok(ServiceOp::PutPermission {
        function_name,
        statement_id: statement_id(physical).to_string(),
        permission,
    })
}

/// The call removing an out-of-band statement, named `<function>|<sid>`.
pub(super) fn remove(identifier: &str) -> Result<ServiceOp, Refused> {
    match identifier.rsplit_once('|') {
        Some((function, sid)) if !function.is_empty() && !sid.is_empty() => {
            Ok(ServiceOp::RemovePermission {
                function_name: function.to_string(),
                statement_id: sid.to_string(),
            })
        }
        _ => Err((
            RefusalReason::NoTarget,
            "the permission identifier does not name a function and a statement id".into(),
        )),
    }
}

/// The statement id in a permission physical id (`<function>|<sid>` or a bare sid).
fn statement_id(physical_id: &str) -> &str {
    physical_id
        .rsplit_once('|')
        .map(|(_, s)| s)
        .unwrap_or(physical_id)
}
