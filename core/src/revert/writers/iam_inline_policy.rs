//! IAM inline policies, put or deleted by policy name: the whole declared
//! AWS::IAM::Policy on each declared principal, and single entries of a
//! role's / user's / group's `Policies` (which Cloud Control cannot write
//! without deleting the inline policies sibling AWS::IAM::Policy resources own).

use super::{declared_strings, missing, required_canonical};
use crate::baseline::Segment;
use crate::finding::Finding;
use crate::normalize::canonicalize_for_compare;
use crate::revert::address::{apply, remove_op, set_op};
use crate::revert::input::RevertResource;
use crate::revert::model::{IamPrincipal, PrincipalKind, RefusalReason, ServiceOp};
use crate::revert::rules::PropertyWriter;
use crate::revert::target::{Change, Refused};
use serde_json::Value;

/// The principal lists of an AWS::IAM::Policy, with the kind each names.
const PRINCIPAL_LISTS: [(&str, PrincipalKind); 3] = [
    ("Roles", PrincipalKind::Role),
    ("Users", PrincipalKind::User),
    ("Groups", PrincipalKind::Group),
];

/// The calls converging the declared AWS::IAM::Policy: put on every
/// declared principal, then deleted from every principal the live model
/// lists that the template does not (the policy attached to another role out
/// of band would otherwise keep granting it).
pub(super) fn converge_declared(res: &RevertResource) -> Result<Vec<ServiceOp>, Refused> {
    let put = put_declared(res)?;
    let ServiceOp::PutInlinePolicy { policy_name, .. } = &put else {
        return Ok(vec![put]);
    };
    let mut extra = Vec::new();
    for (prop, kind) in PRINCIPAL_LISTS {
        let declared = declared_strings(res, prop)?;
        let live = res.live.as_ref().and_then(|l| l.get(prop));
        for name in live.and_then(Value::as_array).into_iter().flatten() {
            let Some(name) = name.as_str() else { continue };
            // A principal read back as its ARN is still the declared one.
            let bare = name.rsplit('/').next().unwrap_or(name);
            if !declared.iter().any(|d| d == name || d == bare) {
                extra.push(IamPrincipal {
                    kind,
                    name: bare.to_string(),
                });
            }
        }
    }
    let delete = (!extra.is_empty()).then(|| delete(&extra, policy_name.clone()));
    Ok([Some(put), delete].into_iter().flatten().collect())
}

/// The call putting the declared AWS::IAM::Policy on every declared principal.
fn put_declared(res: &RevertResource) -> Result<ServiceOp, Refused> {
    let policy_name = match declared_strings(res, "PolicyName")?.as_slice() {
        [n] => n.clone(),
        _ => return Err(missing("PolicyName")),
    };
    let policy_document = required_canonical(res, "PolicyDocument")?;
    let mut principals = Vec::new();
    for (prop, kind) in PRINCIPAL_LISTS {
        for name in declared_strings(res, prop)? {
            principals.push(IamPrincipal { kind, name });
        }
    }
    if principals.is_empty() {
        return Err(missing("Roles, Users or Groups"));
    }
    Ok(ServiceOp::PutInlinePolicy {
        principals,
        policy_name,
        policy_document,
    })
}

/// The calls converging a finding under a principal's `Policies`; `rest` is
/// the finding path below the property.
pub(crate) fn property_ops(
    entry: &PropertyWriter,
    res: &RevertResource,
    f: &Finding,
    change: &Change,
    rest: &[Segment<'_>],
) -> Result<Vec<ServiceOp>, Refused> {
    let kind = match res.resource_type.as_str() {
        "AWS::IAM::Role" => PrincipalKind::Role,
        "AWS::IAM::User" => PrincipalKind::User,
        _ => PrincipalKind::Group,
    };
    let Some(name) = res.physical_id.clone() else {
        return Err((
            RefusalReason::NoTarget,
            "the principal's physical id (its name) is unknown".into(),
        ));
    };
    let principals = vec![IamPrincipal { kind, name }];
    let id = entry.identity.as_str();
    let live = live_entries(res, &entry.property, id);
    match (rest, change) {
        ([], Change::Set(Value::Array(wanted))) => {
            let mut ops = Vec::new();
            let mut names = Vec::new();
            for e in wanted {
                let (n, doc) = entry_parts(e, id)?;
                names.push(n.clone());
                let same = live
                    .iter()
                    .any(|(ln, ld)| ln == &n && canonicalize_for_compare(ld) == doc);
                if !same {
                    ops.push(put(&principals, n, doc));
                }
            }
            for n in reported_names(f, id) {
                if !names.contains(&n) {
                    ops.push(delete(&principals, n));
                }
            }
            Ok(ops)
        }
        ([], Change::Remove) => Ok(reported_names(f, id)
            .into_iter()
            .map(|n| delete(&principals, n))
            .collect()),
        ([Segment::Ident(n)], Change::Set(e)) => {
            let (en, doc) = entry_parts(e, id)?;
            if en != *n {
                return Err(shape(id));
            }
            Ok(vec![put(&principals, en, doc)])
        }
        ([Segment::Ident(n)], Change::Remove) => Ok(vec![delete(&principals, n.to_string())]),
        ([Segment::Ident(n), below @ ..], change) => {
            let doc = member_change(&live, n, id, below, change)?;
            Ok(vec![put(&principals, n.to_string(), doc)])
        }
        _ => Err((
            RefusalReason::ArrayElement,
            format!(
                "an entry of {} addressed by position; no writer can address it",
                entry.property
            ),
        )),
    }
}

/// Applies a change below one entry (`Policies[name].PolicyDocument...`) and
/// returns the entry's new document.
fn member_change(
    live: &[(String, Value)],
    name: &str,
    id: &str,
    below: &[Segment<'_>],
    change: &Change,
) -> Result<Value, Refused> {
    let Some((_, doc)) = live.iter().find(|(n, _)| n == name) else {
        return Err((
            RefusalReason::NoTarget,
            format!("the live model has no inline policy {id}={name} to change"),
        ));
    };
    let keys: Option<Vec<String>> = below
        .iter()
        .map(|s| match s {
            Segment::Key(k) => Some(k.to_string()),
            Segment::Ident(_) => None,
        })
        .collect();
    let keys = match keys.as_deref() {
        Some([first, rest @ ..]) if first == "PolicyDocument" => rest.to_vec(),
        _ => {
            return Err((
                RefusalReason::ArrayElement,
                "a path inside an inline policy no writer can address".into(),
            ))
        }
    };
    let updated = if keys.is_empty() {
        match change {
            Change::Set(v) => Some(v.clone()),
            _ => None,
        }
    } else {
        let op = match change {
            Change::Set(v) => set_op(doc, &keys, v.clone()),
            Change::Remove => remove_op(doc, &keys),
            Change::Delete => None,
        };
        op.and_then(|op| apply(doc, &[op]))
    };
    updated
        .filter(Value::is_object)
        .map(|d| canonicalize_for_compare(&d))
        .ok_or_else(|| {
            (
                RefusalReason::PatchInvalid,
                "the change does not apply to the live inline policy document".into(),
            )
        })
}

/// Live entries (name, document) of the property.
fn live_entries(res: &RevertResource, prop: &str, id: &str) -> Vec<(String, Value)> {
    res.live
        .as_ref()
        .and_then(|l| l.get(prop))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| entry_parts(e, id).ok())
        .collect()
}

/// The names the finding reported live (sibling-owned policies are not among them).
fn reported_names(f: &Finding, id: &str) -> Vec<String> {
    f.actual
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get(id).and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn entry_parts(e: &Value, id: &str) -> Result<(String, Value), Refused> {
    let name = e.get(id).and_then(Value::as_str).ok_or_else(|| shape(id))?;
    let doc = e
        .get("PolicyDocument")
        .filter(|d| d.is_object())
        .ok_or_else(|| shape(id))?;
    Ok((name.to_string(), canonicalize_for_compare(doc)))
}

fn shape(id: &str) -> Refused {
    (
        RefusalReason::PatchInvalid,
        format!("an inline policy entry without a {id} and a PolicyDocument object"),
    )
}

fn put(principals: &[IamPrincipal], policy_name: String, policy_document: Value) -> ServiceOp {
    ServiceOp::PutInlinePolicy {
        principals: principals.to_vec(),
        policy_name,
        policy_document,
    }
}

fn delete(principals: &[IamPrincipal], policy_name: String) -> ServiceOp {
    ServiceOp::DeleteInlinePolicy {
        principals: principals.to_vec(),
        policy_name,
    }
}
