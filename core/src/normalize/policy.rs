//! IAM policy documents in a canonical form, so representational noise
//! (scalar vs one-element array, statement order, account id vs `:root` ARN,
//! Condition value sets) never reads as drift. `Version` is kept as it is:
//! it is never fabricated on either side.

use serde_json::{Map, Value};

/// Policy fields whose value is a set of strings (scalar or array).
const SET_FIELDS: [&str; 4] = ["Action", "NotAction", "Resource", "NotResource"];

/// A policy document's own metadata: members that name or date the document
/// rather than grant anything.
pub const POLICY_METADATA: [&str; 2] = ["Id", "Version"];

/// A lone statement's own metadata: its `Sid` names it and grants nothing
/// (EventBridge writes a bus policy statement's `StatementId` there).
pub const STATEMENT_METADATA: [&str; 1] = ["Sid"];

/// True when an object is one IAM policy statement standing on its own, not
/// inside a document (an EventBridge bus policy's `Statement`): an `Effect`
/// of `Allow` or `Deny` with an `Action` or `NotAction`. A WAF rule's
/// `Statement` or a firewall rule's `Action` carries no `Effect`.
pub fn is_policy_statement(o: &Map<String, Value>) -> bool {
    matches!(
        o.get("Effect").and_then(Value::as_str),
        Some("Allow" | "Deny")
    ) && (o.contains_key("Action") || o.contains_key("NotAction"))
        && !o.contains_key("Statement")
}

/// The members of a policy document or a lone statement that grant nothing
/// (see [`POLICY_METADATA`], [`STATEMENT_METADATA`]); None for any other
/// object.
pub fn policy_metadata(o: &Map<String, Value>) -> Option<&'static [&'static str]> {
    if is_policy_document(o) {
        Some(&POLICY_METADATA)
    } else if is_policy_statement(o) {
        Some(&STATEMENT_METADATA)
    } else {
        None
    }
}

/// True when an object looks like an IAM policy document: a `Statement`
/// (object or array) whose statements carry an `Effect`. Other shapes that
/// merely use the word (a WAF rule's `Statement`) are left alone.
pub fn is_policy_document(o: &Map<String, Value>) -> bool {
    let is_stmt = |s: &Value| s.get("Effect").is_some_and(Value::is_string);
    match o.get("Statement") {
        Some(Value::Array(a)) => !a.is_empty() && a.iter().all(is_stmt),
        Some(s @ Value::Object(_)) => is_stmt(s),
        _ => false,
    }
}

/// Canonicalizes every policy document found anywhere inside `v`, in place.
pub fn canonicalize_policies_deep(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if is_policy_document(o) {
                canonicalize_document(o);
            } else {
                o.values_mut().for_each(canonicalize_policies_deep);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(canonicalize_policies_deep),
        _ => {}
    }
}

/// Canonicalizes one policy document in place.
pub fn canonicalize_document(doc: &mut Map<String, Value>) {
    let Some(stmt) = doc.get_mut("Statement") else {
        return;
    };
    let mut list = match stmt.take() {
        Value::Array(a) => a,
        other => vec![other],
    };
    for s in list.iter_mut() {
        if let Value::Object(o) = s {
            canonicalize_statement(o);
        }
    }
    sort_by_canonical_text(&mut list);
    *stmt = Value::Array(list);
}

/// Canonicalizes one statement in place (its string sets, principals and
/// condition values), as inside a document.
pub fn canonicalize_statement(s: &mut Map<String, Value>) {
    for f in SET_FIELDS {
        if let Some(v) = s.get_mut(f) {
            to_sorted_string_set(v);
        }
    }
    for f in ["Principal", "NotPrincipal"] {
        if let Some(principal) = s.get_mut(f) {
            canonicalize_principal(principal);
        }
    }
    if let Some(Value::Object(c)) = s.get_mut("Condition") {
        for ops in c.values_mut() {
            if let Value::Object(keys) = ops {
                for vals in keys.values_mut() {
                    stringify_scalars(vals);
                    to_sorted_string_set(vals);
                }
            }
        }
    }
}

/// Canonicalizes one `Principal` / `NotPrincipal` value: each kind's ids as
/// a sorted set, an account's root ARN as the account id, and
/// `{"AWS": "*"}` as `"*"`, which the IAM policy reference documents as the
/// same (anonymous) principal.
fn canonicalize_principal(principal: &mut Value) {
    let Value::Object(p) = principal else {
        return;
    };
    for (kind, ids) in p.iter_mut() {
        if kind == "AWS" {
            map_strings(ids, root_arn_to_account);
        }
        to_sorted_string_set(ids);
    }
    let everyone = p.len() == 1
        && p.get("AWS")
            .and_then(Value::as_array)
            .is_some_and(|ids| ids.len() == 1 && ids[0] == "*");
    if everyone {
        *principal = Value::String("*".into());
    }
}

/// The principal ARN S3 reports for CloudFront origin access identity `oai`
/// in `partition` (`aws`, `aws-cn`).
pub fn oai_principal_arn(partition: &str, oai: &str) -> String {
    format!("arn:{partition}:iam::cloudfront:user/CloudFront Origin Access Identity {oai}")
}

/// Rewrites `{"CanonicalUser": <id>}` principals that belong to a CloudFront
/// origin access identity (per `oai_of`: canonical user id -> the OAI's
/// principal ARN, see [`oai_principal_arn`]) into the ARN form S3 reports,
/// so the two spellings of the same principal compare equal. Unknown
/// canonical ids are left as they are.
pub fn rewrite_oai_principals(v: &mut Value, oai_of: &dyn Fn(&str) -> Option<String>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Object(p)) = o.get_mut("Principal") {
                let ids: Vec<Value> = match p.get("CanonicalUser") {
                    Some(Value::Array(a)) => a.clone(),
                    Some(x @ Value::String(_)) => vec![x.clone()],
                    _ => Vec::new(),
                };
                let arns: Vec<Option<String>> =
                    ids.iter().map(|id| id.as_str().and_then(oai_of)).collect();
                if !ids.is_empty() && arns.iter().all(Option::is_some) {
                    p.remove("CanonicalUser");
                    let mut aws: Vec<Value> = match p.remove("AWS") {
                        Some(Value::Array(a)) => a,
                        Some(x) => vec![x],
                        None => Vec::new(),
                    };
                    aws.extend(arns.into_iter().flatten().map(Value::String));
                    p.insert("AWS".to_string(), Value::Array(aws));
                }
            }
            o.values_mut()
                .for_each(|x| rewrite_oai_principals(x, oai_of));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rewrite_oai_principals(x, oai_of)),
        _ => {}
    }
}

/// `arn:aws:iam::123456789012:root` -> `123456789012` (IAM treats both as the
/// same principal); any other value is returned unchanged.
pub fn root_arn_to_account(s: &str) -> Option<String> {
    let rest = s.strip_prefix("arn:")?;
    let mut parts = rest.splitn(5, ':');
    let _partition = parts.next()?;
    let service = parts.next()?;
    let region = parts.next()?;
    let account = parts.next()?;
    let resource = parts.next()?;
    (service == "iam" && region.is_empty() && resource == "root" && !account.is_empty())
        .then(|| account.to_string())
}

fn map_strings(v: &mut Value, f: fn(&str) -> Option<String>) {
    match v {
        Value::String(s) => {
            if let Some(n) = f(s) {
                *s = n;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| map_strings(x, f)),
        _ => {}
    }
}

fn stringify_scalars(v: &mut Value) {
    match v {
        Value::Bool(b) => *v = Value::String(b.to_string()),
        Value::Number(n) => *v = Value::String(n.to_string()),
        Value::Array(a) => a.iter_mut().for_each(stringify_scalars),
        _ => {}
    }
}

/// Scalar -> one-element array; arrays of strings sorted and de-duplicated.
/// A `"*"` wildcard scalar principal is left alone by the caller.
fn to_sorted_string_set(v: &mut Value) {
    let mut list = match v.take() {
        Value::Array(a) => a,
        other => vec![other],
    };
    if list.iter().all(Value::is_string) {
        list.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        list.dedup();
    } else {
        sort_by_canonical_text(&mut list);
    }
    *v = Value::Array(list);
}

fn sort_by_canonical_text(list: &mut [Value]) {
    super::arrays::sort_canonical(list);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn canon(v: Value) -> Value {
        let mut v = v;
        canonicalize_policies_deep(&mut v);
        v
    }

    #[test]
    fn representational_noise_folds() {
        let declared = json!({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*",
             "Principal": {"AWS": "arn:aws:iam::111111111111:root"}},
            {"Effect": "Allow", "Action": ["sqs:B", "sqs:A"], "Resource": "*",
             "Condition": {"Bool": {"aws:SecureTransport": false}}}
        ]});
        let live = json!({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": ["sqs:A", "sqs:B"], "Resource": ["*"],
             "Condition": {"Bool": {"aws:SecureTransport": "false"}}},
            {"Effect": "Allow", "Action": ["s3:GetObject"], "Resource": ["*"],
             "Principal": {"AWS": "111111111111"}}
        ]});
        assert_eq!(canon(declared), canon(live));
    }

    #[test]
    fn the_anonymous_principal_in_either_spelling_is_one() {
        let star = |p: Value| {
            canon(
                json!({"Statement": {"Effect": "Allow", "Action": "sqs:SendMessage", "Principal": p}}),
            )
        };
        assert_eq!(star(json!("*")), star(json!({"AWS": "*"})));
        assert_eq!(star(json!("*")), star(json!({"AWS": ["*"]})));
        // Everyone in an account, or every service, is another principal.
        assert_ne!(
            star(json!("*")),
            star(json!({"AWS": ["*", "111111111111"]}))
        );
        assert_ne!(star(json!("*")), star(json!({"Service": "*"})));
    }

    #[test]
    fn a_real_change_still_differs() {
        let a =
            json!({"Statement": {"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}});
        let b = json!({"Statement": {"Effect": "Allow", "Action": "s3:*", "Resource": "*"}});
        assert_ne!(canon(a), canon(b));
        let c = json!({"Statement": {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::222222222222:root"}}});
        let d = json!({"Statement": {"Effect": "Allow", "Principal": {"AWS": "111111111111"}}});
        assert_ne!(canon(c), canon(d));
    }

    #[test]
    fn version_is_never_fabricated() {
        let v = canon(json!({"Statement": [{"Effect": "Allow"}]}));
        assert!(v.get("Version").is_none());
    }

    #[test]
    fn oai_canonical_user_equals_its_arn_but_not_another_identity() {
        let lookup = |c: &str| (c == "canon-1").then(|| oai_principal_arn("aws", "E1"));
        let mut declared = json!({"Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
            "Principal": {"CanonicalUser": "canon-1"}, "Resource": "*"}]});
        rewrite_oai_principals(&mut declared, &lookup);
        let live = json!({"Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
            "Principal": {"AWS": "arn:aws:iam::cloudfront:user/CloudFront Origin Access Identity E1"},
            "Resource": "*"}]});
        assert_eq!(canon(declared), canon(live.clone()));
        let mut other = json!({"Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
            "Principal": {"CanonicalUser": "canon-2"}, "Resource": "*"}]});
        rewrite_oai_principals(&mut other, &lookup);
        assert_ne!(canon(other), canon(live));
    }

    #[test]
    fn non_iam_statements_are_untouched() {
        let waf = json!({"Name": "r", "Statement": {"RateBasedStatement": {"Limit": 1}}});
        assert_eq!(canon(waf.clone()), waf);
    }
}
