//! Identity equivalences between a bare name and an ARN, and between a
//! KMS alias and the key it targets.

use std::collections::BTreeMap;

/// The parts of an ARN: `arn:partition:service:region:account:resource`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arn<'a> {
    /// The service segment.
    pub service: &'a str,
    /// The region segment (may be empty).
    pub region: &'a str,
    /// The account segment (may be empty).
    pub account: &'a str,
    /// Everything after the account segment.
    pub resource: &'a str,
}

/// Parses an ARN; `None` when the text is not one.
pub fn parse_arn(s: &str) -> Option<Arn<'_>> {
    let rest = s.strip_prefix("arn:")?;
    let mut parts = rest.splitn(5, ':');
    let _partition = parts.next()?;
    let service = parts.next()?;
    let region = parts.next()?;
    let account = parts.next()?;
    let resource = parts.next()?;
    Some(Arn {
        service,
        region,
        account,
        resource,
    })
}

/// True when exactly one side is an ARN and the other is its final name
/// segment, and (when known) the ARN's account and region are the stack's.
/// Never hides a change to a different name, account or region.
pub fn is_arn_name_match(a: &str, b: &str, account: Option<&str>, region: Option<&str>) -> bool {
    let (arn, name) = match (parse_arn(a), parse_arn(b)) {
        (Some(x), None) => (x, b),
        (None, Some(x)) => (x, a),
        _ => return false,
    };
    // An ARN with a wildcard is a pattern (a policy's `.../object/*`): its
    // tail is no resource's name, and `*` alone grants every resource.
    if name.is_empty() || is_pattern(name) || is_pattern(arn.resource) {
        return false;
    }
    if let Some(acct) = account {
        if !arn.account.is_empty() && arn.account != acct {
            return false;
        }
    }
    if let Some(reg) = region {
        if !arn.region.is_empty() && arn.region != reg {
            return false;
        }
    }
    names_in_resource(arn.resource).any(|n| n == name) || is_partial_arn(&arn, name)
}

/// The names a resource part answers to: the whole part (an SNS topic's or
/// an S3 bucket's), what follows its resource type (`function:fn:live` is
/// `fn:live`, a qualified name), and what follows each `/` (a path-style
/// name: a role under `/service-role/`, a service under its cluster). A
/// trailing `:` segment alone (a Lambda alias, a task-definition revision)
/// names no resource: `live` is not `function:other:live`.
fn names_in_resource(resource: &str) -> impl Iterator<Item = &str> {
    let after_type = resource.split_once(['/', ':']).map(|(_, rest)| rest);
    let after_slashes = resource.match_indices('/').map(|(i, _)| &resource[i + 1..]);
    std::iter::once(resource)
        .chain(after_type)
        .chain(after_slashes)
        .filter(|n| !n.is_empty())
}

/// True when `name` is the ARN's partial form, its account and resource
/// (`123456789012:function:fn`, as Lambda accepts a function).
fn is_partial_arn(arn: &Arn<'_>, name: &str) -> bool {
    !arn.account.is_empty()
        && name
            .strip_prefix(arn.account)
            .and_then(|rest| rest.strip_prefix(':'))
            == Some(arn.resource)
}

/// True for text with an IAM wildcard (`*` or `?`).
fn is_pattern(s: &str) -> bool {
    s.contains(['*', '?'])
}

/// The key id of a KMS key reference (bare id or key ARN).
fn kms_key_id(s: &str) -> Option<&str> {
    match parse_arn(s) {
        Some(a) if a.service == "kms" => a.resource.strip_prefix("key/"),
        Some(_) => None,
        // A bare key id is letters, digits and dashes (a UUID, `mrk-...`):
        // text that is neither an ARN nor such an id names no key.
        None => {
            (!s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')).then_some(s)
        }
    }
}

/// The `alias/<name>` of an alias reference (bare or alias ARN).
fn kms_alias(s: &str) -> Option<&str> {
    let alias = match parse_arn(s) {
        Some(a) if a.service == "kms" => a.resource,
        Some(_) => return None,
        None => s,
    };
    alias.starts_with("alias/").then_some(alias)
}

/// True when `declared` names a KMS alias and `live` is the key behind it.
/// With the account's alias map listing the alias, the live key must be its
/// target (a key swapped in is drift), for a customer alias as for an
/// AWS-managed (`alias/aws/*`) one. Without a map, a managed alias matches
/// by shape: a key id, or a key ARN of `account` in `region` (each when
/// known), as an AWS-managed key is always the account's own and an alias
/// names a key of its own region. An alias the map does not list names no
/// key it can prove: a managed alias gets its key on a service's first use,
/// so a key in use behind an unlisted managed alias is not shown to be it
/// (see [`is_unlisted_managed_alias`]).
pub fn is_kms_alias_match(
    declared: &str,
    live: &str,
    targets: Option<&BTreeMap<String, String>>,
    account: Option<&str>,
    region: Option<&str>,
) -> bool {
    let (Some(alias), Some(key)) = (kms_alias(declared), kms_key_id(live)) else {
        return false;
    };
    let foreign = parse_arn(live).is_some_and(|a| {
        account.is_some_and(|own| a.account != own) || region.is_some_and(|own| a.region != own)
    });
    if foreign {
        return false;
    }
    match targets {
        Some(map) => map
            .get(alias)
            .is_some_and(|t| kms_key_id(t).unwrap_or(t) == key),
        None => alias.starts_with("alias/aws/"),
    }
}

/// True when `declared` names an AWS-managed alias the account's alias map
/// (read) does not list, and `live` is a key: the managed key would be
/// listed had a service used it, but the map may predate that first use,
/// so the key is neither proven to be it nor proven another.
pub fn is_unlisted_managed_alias(
    declared: &str,
    live: &str,
    targets: Option<&BTreeMap<String, String>>,
) -> bool {
    let (Some(alias), Some(map)) = (kms_alias(declared), targets) else {
        return false;
    };
    alias.starts_with("alias/aws/") && !map.contains_key(alias) && kms_key_id(live).is_some()
}

/// True when `declared` names a customer KMS alias, `live` is a key, and
/// the account's alias map is unknown (its listing failed): whether the
/// key is the alias's target cannot be told, either way.
pub fn is_unknown_alias_target(
    declared: &str,
    live: &str,
    targets: Option<&BTreeMap<String, String>>,
) -> bool {
    targets.is_none()
        && kms_alias(declared).is_some_and(|a| !a.starts_with("alias/aws/"))
        && kms_key_id(live).is_some()
}

/// API Gateway expands the `execute-api:/<stage>/<verb>/<path>` shorthand of
/// a REST API resource policy to the full ARN of THIS API: equal only for
/// the stack's own account, region and API id.
pub fn is_execute_api_shorthand_match(
    declared: &str,
    live: &str,
    account: Option<&str>,
    region: Option<&str>,
    api_id: &str,
) -> bool {
    let (Some(rest), Some(acct), Some(reg)) =
        (declared.strip_prefix("execute-api:"), account, region)
    else {
        return false;
    };
    let Some(arn) = parse_arn(live) else {
        return false;
    };
    !api_id.is_empty()
        && arn.service == "execute-api"
        && arn.account == acct
        && arn.region == reg
        && arn.resource.strip_prefix(api_id) == Some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_matches_its_arn_in_the_same_account_and_region() {
        let arn = "arn:aws:lambda:us-east-1:111111111111:function:fn";
        assert!(is_arn_name_match(
            "fn",
            arn,
            Some("111111111111"),
            Some("us-east-1")
        ));
        assert!(is_arn_name_match(arn, "fn", None, None));
        assert!(!is_arn_name_match("other", arn, None, None));
        assert!(!is_arn_name_match("fn", arn, Some("222222222222"), None));
        assert!(!is_arn_name_match("fn", arn, None, Some("eu-west-1")));
        assert!(is_arn_name_match(
            "b",
            "arn:aws:s3:::b",
            Some("1"),
            Some("r")
        ));
    }

    #[test]
    fn a_qualified_or_partial_name_matches_but_a_qualifier_alone_does_not() {
        // Lambda takes a function as `fn:live` (an alias) or as a partial
        // ARN; both read back as the full ARN. The alias alone names no
        // function: `live` is not `other:live`, and `fn` is not `fn:live`.
        let aliased = "arn:aws:lambda:us-east-1:111111111111:function:fn:live";
        let acct = Some("111111111111");
        assert!(is_arn_name_match("fn:live", aliased, acct, None));
        assert!(!is_arn_name_match("live", aliased, acct, None));
        assert!(!is_arn_name_match("fn", aliased, acct, None));
        let plain = "arn:aws:lambda:us-east-1:111111111111:function:fn";
        assert!(is_arn_name_match(
            "111111111111:function:fn",
            plain,
            acct,
            None
        ));
        assert!(!is_arn_name_match(
            "222222222222:function:fn",
            plain,
            None,
            None
        ));
        // Path-style names still match by their last part and by the path.
        let role = "arn:aws:iam::111111111111:role/service-role/app";
        assert!(is_arn_name_match("app", role, acct, None));
        assert!(is_arn_name_match("service-role/app", role, acct, None));
        let svc = "arn:aws:ecs:us-east-1:111111111111:service/prod/web";
        assert!(is_arn_name_match("web", svc, acct, None));
        let td = "arn:aws:ecs:us-east-1:111111111111:task-definition/fam:3";
        assert!(is_arn_name_match("fam:3", td, acct, None));
        assert!(!is_arn_name_match("3", td, acct, None));
    }

    #[test]
    fn a_wildcard_is_no_name() {
        // A policy resource widened to `*` out of band is not the name of
        // the declared pattern `.../topic/app/*`.
        let pattern = "arn:aws:iot:us-east-1:111111111111:topic/app/*";
        assert!(!is_arn_name_match(pattern, "*", None, None));
        assert!(!is_arn_name_match(pattern, "app/*", None, None));
        assert!(!is_arn_name_match("arn:aws:s3:::b/*", "*", None, None));
        assert!(!is_arn_name_match("arn:aws:s3:::b", "b*", None, None));
    }

    #[test]
    fn execute_api_shorthand_is_this_api_only() {
        let live = "arn:aws:execute-api:us-east-1:111:abc123/*";
        assert!(is_execute_api_shorthand_match(
            "execute-api:/*",
            live,
            Some("111"),
            Some("us-east-1"),
            "abc123"
        ));
        assert!(!is_execute_api_shorthand_match(
            "execute-api:/*",
            live,
            Some("111"),
            Some("us-east-1"),
            "zzz"
        ));
        assert!(!is_execute_api_shorthand_match(
            "execute-api:/prod/*",
            live,
            Some("111"),
            Some("us-east-1"),
            "abc123"
        ));
    }

    #[test]
    fn alias_strict_when_targets_known() {
        let key = "arn:aws:kms:us-east-1:1:key/abc";
        // Neither the account nor the region known.
        let anywhere = |d: &str, l: &str, t: Option<&BTreeMap<String, String>>| {
            is_kms_alias_match(d, l, t, None, None)
        };
        let mut t = BTreeMap::new();
        t.insert("alias/aws/sqs".to_string(), "abc".to_string());
        assert!(anywhere("alias/aws/sqs", key, Some(&t)));
        assert!(!anywhere(
            "alias/aws/sqs",
            "arn:aws:kms:us-east-1:1:key/zzz",
            Some(&t)
        ));
        assert!(anywhere("alias/aws/sqs", "zzz", None));
        // Neither an ARN nor a key id: no key at all.
        assert!(!anywhere(
            "alias/aws/sqs",
            "changed-arn:aws:kms:us-east-1:111111111111:key/abc",
            None
        ));
        assert!(!anywhere("alias/custom", key, None));
        // A customer alias the map lists is its target, nothing else.
        t.insert("alias/custom".to_string(), "abc".to_string());
        assert!(anywhere("alias/custom", key, Some(&t)));
        assert!(anywhere(
            "arn:aws:kms:us-east-1:1:alias/custom",
            "abc",
            Some(&t)
        ));
        assert!(!anywhere(
            "alias/custom",
            "arn:aws:kms:us-east-1:1:key/zzz",
            Some(&t)
        ));
        assert!(!anywhere("alias/other", key, Some(&t)));
        // A managed alias the read map does not list has no key to match:
        // the key in use is unknown (an unused alias gets its key on first
        // use; the map may predate that).
        assert!(!anywhere("alias/aws/ssm", key, Some(&t)));
        assert!(is_unlisted_managed_alias("alias/aws/ssm", key, Some(&t)));
        assert!(!is_unlisted_managed_alias("alias/aws/sqs", key, Some(&t)));
        assert!(!is_unlisted_managed_alias("alias/aws/ssm", key, None));
        assert!(!is_unlisted_managed_alias("alias/custom2", key, Some(&t)));
        // Without the map a customer alias's key is unknown, not drift.
        assert!(is_unknown_alias_target("alias/custom", key, None));
        assert!(!is_unknown_alias_target("alias/custom", key, Some(&t)));
        assert!(!is_unknown_alias_target("alias/aws/sqs", key, None));
        assert!(!is_unknown_alias_target("alias/custom", "not a key!", None));
        // Without the alias map, a key of another account is no managed key.
        let own = |l: &str, region: Option<&str>| {
            is_kms_alias_match("alias/aws/sqs", l, None, Some("1"), region)
        };
        assert!(own(key, None));
        assert!(!own("arn:aws:kms:us-east-1:2:key/abc", None));
        // Nor is a key of another region the one an alias names here.
        assert!(own(key, Some("us-east-1")));
        assert!(!own(key, Some("eu-central-1")));
        assert!(!is_kms_alias_match(
            "alias/aws/sqs",
            key,
            Some(&t),
            Some("1"),
            Some("eu-central-1")
        ));
    }
}
