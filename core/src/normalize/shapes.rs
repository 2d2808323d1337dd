//! Canonical forms by SHAPE: equalities that hold for any resource type
//! because of what a value is (an identifier, an enum, a DNS name, a version,
//! a schedule, a set AWS returned sorted), never because of which type holds
//! it. Each one only ever equates two spellings of the same setting; none
//! can hide a change of value.

use super::arrays::SORT_IDENTITY_KEYS;
use super::scalars::{
    dns_unescape, is_access_string_equal, is_dns_name_equal, is_rate_expression_equal,
    is_same_ip_protocol, is_version_prefix_match,
};
use serde_json::{Map, Value};

/// The last segment of a property name, lower-cased, for shape decisions.
fn ends_with_any(key: &str, suffixes: &[&str]) -> bool {
    suffixes.iter().any(|s| key.ends_with(s))
}

/// True for a name spelled as CloudFormation spells a property: PascalCase
/// letters and digits (`DomainName`, `IpProtocol`), as opposed to a key a
/// user chose inside a document (`eventType`, `ec2:InstanceType`,
/// `method.request.header.Content-Type`).
fn is_property_name(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_uppercase())
        && key.chars().all(|c| c.is_ascii_alphanumeric())
}

/// True when `key` is the name half of a name/value pair in `obj` (`Name`
/// or `Key` beside `Value`, `ParameterName` beside `ParameterValue`): a
/// name the user chose (an environment variable, a metric dimension, a
/// parameter), which the service keeps as written, case included.
pub fn is_pair_name(key: &str, obj: &Map<String, Value>) -> bool {
    let stem = key.strip_suffix("Name").or_else(|| key.strip_suffix("Key"));
    stem.is_some_and(|stem| obj.contains_key(&format!("{stem}Value")))
}

/// True for a property that names or identifies something (`DBSubnetGroupName`,
/// `EndpointIdentifier`, `Family`, `Name`).
fn is_identifier_key(key: &str) -> bool {
    ends_with_any(key, &["Name", "Identifier", "Family"])
}

/// True for a property holding an enumerated keyword (`Type`, `Protocol`,
/// `EndpointType`, `InstanceProtocol`, a database `Engine`: RDS lists
/// `mysql` and stores a declared `MySQL` as that keyword).
fn is_enum_key(key: &str) -> bool {
    ends_with_any(key, &["Type", "Protocol", "Engine"])
}

/// True for text shaped like one keyword (`aurora-mysql`, `ipsec.1`,
/// `application/json`, `TargetTrackingScaling`): the property name alone
/// makes a keyword of it. Text with spaces or a namespace (an API Gateway
/// authorizer's free-form `AuthType`, a Verified Permissions entity type
/// `MyApp::Group`) is a name its owner wrote, case included.
fn is_keyword_shaped(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/+-".contains(&b))
}

/// True for a weekly window, `ddd:hh24:mi-ddd:hh24:mi` (RDS, ElastiCache,
/// Redshift and their kin document the days as `Mon`...`Sun` and read them
/// back lower-cased).
fn is_weekly_window(s: &str) -> bool {
    let b = s.as_bytes();
    let day_time = |t: &[u8]| {
        t.len() == 9
            && t[..3].iter().all(u8::is_ascii_alphabetic)
            && t[3] == b':'
            && t[4..6].iter().all(u8::is_ascii_digit)
            && t[6] == b':'
            && t[7..].iter().all(u8::is_ascii_digit)
    };
    b.len() == 19 && b[9] == b'-' && day_time(&b[..9]) && day_time(&b[10..])
}

/// True for a property holding HTTP header names, which HTTP defines as
/// case-insensitive: a list of them (`AllowHeaders`, `Headers`,
/// `HeadersAllowList`) or one (`HeaderName`). What a header carries keeps
/// its case: its value (CloudFront's `HeaderValue`, often a shared secret),
/// a header named by its role (`UserAgentHeader`, `TraceHeader`: the text
/// sent in it), or an id (`ResponseHeadersPolicyId`). A bare `Header` is
/// not one by its name: it is a CSV's column names (Glue) or an in-app
/// message's title (Pinpoint) as often as a header name; where the
/// documentation calls it a header name, a mined rule says so.
fn is_header_key(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    [
        "headers",
        "headername",
        "headernames",
        "headersallowlist",
        "headerallowlist",
    ]
    .iter()
    .any(|s| lower.ends_with(s))
}

/// True for text shaped like an HTTP header name (an RFC 9110 token), not
/// a document of header rules (Amplify's `CustomHeaders` YAML).
fn is_header_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// True when two spellings under a header-named property (`HeaderName`)
/// name one HTTP header: header names have no case.
pub fn is_header_name_equal(leaf: Option<&str>, declared: &str, live: &str) -> bool {
    leaf.is_some_and(is_header_key)
        && is_header_token(declared)
        && declared.eq_ignore_ascii_case(live)
}

/// True for a property naming a DNS name (`DomainName`, `DNSName`,
/// `HostName`, `Aliases`, `ZoneDomainName`, a certificate's
/// `SubjectAlternativeNames`): there a dotted value is a name whose case is
/// not part of it (RFC 4343). Elsewhere a dotted word (a Lambda `Handler`
/// such as `index.Handler`) is case-sensitive.
fn is_dns_key(key: &str) -> bool {
    [
        "Domain",
        "DNS",
        "Dns",
        "Host",
        "Fqdn",
        "Alias",
        "AlternativeName",
    ]
    .iter()
    .any(|k| contains_part(key, k))
}

/// `hay.contains(part)` for the short names and values these rules test:
/// a plain scan that compares a window only where its first byte matches,
/// without the general substring searcher's setup (called for most scalar
/// comparisons and lists).
pub(crate) fn contains_part(hay: &str, part: &str) -> bool {
    let (h, p) = (hay.as_bytes(), part.as_bytes());
    let Some(&first) = p.first() else {
        return true;
    };
    h.windows(p.len()).any(|w| w[0] == first && w == p)
}

/// True for a name written fully qualified, with the root's trailing dot
/// (as Route 53 returns record and zone names).
fn is_fully_qualified(s: &str) -> bool {
    s.len() > 1 && s.ends_with('.')
}

/// True for a hostname-shaped string (`api.example.com`, `example.com.`).
fn is_hostname(s: &str) -> bool {
    s.contains('.')
        && !s.starts_with('.')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*'))
}

/// Declared and live scalars that are one setting spelled two ways, judged
/// by the value's shape and the name of the property holding it (`leaf`).
///
/// - an identifier AWS stores lower-cased: live is exactly the lower-case
///   form of the declared name;
/// - an enumerated keyword AWS re-cases (`http` / `HTTP`, `SPARK` / `Spark`),
///   or an HTTP header name (case-insensitive by definition);
/// - a DNS name (under a DNS-named property, or written fully qualified):
///   case and the root's trailing dot are not part of the name;
/// - a weekly window: day names without case (`Sun:05:00-Sun:06:00`);
/// - text AWS normalises: trailing whitespace or newline;
/// - a version AWS resolved to its concrete patch (`8.0` / `8.0.45`), or a
///   track it reports (`1.6.22` / `1.6`);
/// - a schedule rate in other units (`rate(60 minutes)` / `rate(1 hour)`);
/// - an IP protocol by IANA number or keyword (`6` / `tcp`).
pub fn is_shape_equal(leaf: Option<&str>, declared: &str, live: &str) -> bool {
    if declared == live {
        return true;
    }
    // Only a property's own name says what its value is. A key inside a
    // user's JSON document (an SNS filter policy's `eventType`, an IAM
    // condition key `ec2:InstanceType`) is data whose values keep their case.
    let leaf = leaf.filter(|k| is_property_name(k));
    if declared.trim_end() == live.trim_end() && !declared.trim_end().is_empty() {
        return true;
    }
    if is_rate_expression_equal(declared, live) {
        return true;
    }
    if (is_fully_qualified(declared) || is_fully_qualified(live) || leaf.is_some_and(is_dns_key))
        && is_hostname(&dns_unescape(declared))
        && is_hostname(&dns_unescape(live))
        && is_dns_name_equal(declared, live)
    {
        return true;
    }
    if is_weekly_window(declared) && is_weekly_window(live) && declared.eq_ignore_ascii_case(live) {
        return true;
    }
    let Some(leaf) = leaf else {
        return false;
    };
    (is_identifier_key(leaf) && live == declared.to_ascii_lowercase())
        || (leaf == "AccessString" && is_access_string_equal(declared, live))
        || (is_enum_key(leaf) && is_keyword_shaped(declared) && declared.eq_ignore_ascii_case(live))
        || is_header_name_equal(Some(leaf), declared, live)
        || (leaf.ends_with("Protocol") && is_same_ip_protocol(declared, live))
        || (leaf.ends_with("Version") && is_version_prefix_match(declared, live))
}

/// True for an IPv4 or IPv6 address range in CIDR notation (`10.0.0.0/16`,
/// `2001:db8::/32`).
pub fn is_cidr(s: &str) -> bool {
    let Some((addr, len)) = s.split_once('/') else {
        return false;
    };
    let len_ok = !len.is_empty() && len.len() <= 3 && len.bytes().all(|b| b.is_ascii_digit());
    len_ok && addr.parse::<std::net::IpAddr>().is_ok()
}

/// True when both arrays hold only CIDR address ranges: a list of ranges is
/// matched by membership (an allow or deny list matches a request in any of
/// them), so it is a set whatever order AWS returns it in.
pub fn is_address_range_set(declared: &[Value], live: &[Value]) -> bool {
    let all = |a: &[Value]| !a.is_empty() && a.iter().all(|v| v.as_str().is_some_and(is_cidr));
    all(declared) && all(live)
}

/// True for the value list of a DNS record set (`ResourceRecords` of
/// strings): DNS defines an RRset as a set, whose order is not significant
/// (RFC 2181, section 5), so a name server returns it in any order.
pub fn is_dns_record_set(holder: Option<&str>, declared: &[Value], live: &[Value]) -> bool {
    holder == Some("ResourceRecords") && declared.iter().chain(live).all(Value::is_string)
}

/// True for a field name that names or keys an element of a set
/// (`Name`, `Key`, `ParameterName`, `DeviceName`, `OptionName`).
fn is_identity_field(k: &str) -> bool {
    SORT_IDENTITY_KEYS.contains(&k) || ends_with_any(k, &["Name", "Key", "Cidr"])
}

/// The identity of an element under `keys` (joined with `|`), when every
/// key holds a string.
pub fn identity_value(e: &Value, keys: &[&str]) -> Option<String> {
    let parts: Option<Vec<&str>> = keys.iter().map(|k| e.get(*k)?.as_str()).collect();
    parts.map(|p| p.join("|"))
}

/// The fields that key both object arrays as sets: one name or key field
/// (see [`shape_identity`]), else a pair of them (`Namespace` counts) whose
/// combination is unique within each array (`Namespace` + `OptionName`).
/// A name beside a `Namespace` is only unique within it, so such elements
/// are always keyed by the pair: the identity does not change when another
/// namespace adds an option of the same name.
pub fn shape_identity_keys<'v>(declared: &'v [Value], live: &[Value]) -> Option<Vec<&'v str>> {
    let first = declared.first()?.as_object()?;
    if !first.contains_key("Namespace") {
        if let Some(k) = shape_identity(declared, live) {
            return Some(vec![k]);
        }
    }
    let mut fields: Vec<&'v str> = first
        .keys()
        .map(String::as_str)
        .filter(|k| is_identity_field(k) || *k == "Namespace")
        .collect();
    fields.sort_unstable();
    let unique = |arr: &[Value], keys: &[&str]| {
        let mut seen = std::collections::BTreeSet::new();
        arr.iter()
            .all(|e| identity_value(e, keys).is_some_and(|id| seen.insert(id)))
    };
    for (i, a) in fields.iter().enumerate() {
        for b in &fields[i + 1..] {
            let keys = [*a, *b];
            if unique(declared, &keys) && unique(live, &keys) {
                return Some(keys.to_vec());
            }
        }
    }
    None
}

/// True for an attribute bag: every element is `{Key, Value}` with a unique
/// string `Key` (ELB attributes, parameter maps). Tags have the same shape
/// and their own rules, so a tag property is never a bag here.
pub fn is_attribute_bag(prop: Option<&str>, declared: &[Value], live: &[Value]) -> bool {
    let shaped = |arr: &[Value]| {
        let mut seen = std::collections::BTreeSet::new();
        arr.iter().all(|e| {
            e.as_object().is_some_and(|o| {
                o.len() <= 2
                    && o.keys().all(|k| k == "Key" || k == "Value")
                    && o.get("Key")
                        .and_then(Value::as_str)
                        .is_some_and(|k| seen.insert(k.to_string()))
            })
        })
    };
    !prop.is_some_and(|p| contains_part(p, "Tag"))
        && !declared.is_empty()
        && shaped(declared)
        && shaped(live)
}

/// The field that keys both object arrays as sets: present in every element
/// of both, a string, unique within each array, and named as a name or key.
/// Standard identity fields are preferred, then other names in sorted order.
pub fn shape_identity<'v>(declared: &'v [Value], live: &[Value]) -> Option<&'v str> {
    let first = declared.first()?.as_object()?;
    let unique = |arr: &[Value], k: &str| {
        let mut seen = std::collections::BTreeSet::new();
        arr.iter().all(|e| match e.get(k) {
            Some(Value::String(s)) => seen.insert(s.clone()),
            _ => false,
        })
    };
    let mut candidates: Vec<&'v str> = first
        .keys()
        .map(String::as_str)
        .filter(|k| is_identity_field(k))
        .collect();
    candidates.sort_by_key(|k| {
        (
            SORT_IDENTITY_KEYS
                .iter()
                .position(|s| s == k)
                .unwrap_or(SORT_IDENTITY_KEYS.len()),
            *k,
        )
    });
    candidates
        .into_iter()
        .find(|k| unique(declared, k) && unique(live, k))
}

/// True for an AWS resource id (`igw-0c78...`, `subnet-0a1b2c3d`) or an ARN.
fn is_resource_reference(s: &str) -> bool {
    if s.starts_with("arn:") {
        return super::arn::parse_arn(s).is_some();
    }
    super::arrays::is_aws_id(s)
}

/// True when a live top-level string names the same AWS resource (by id or
/// ARN) a declared property names, under a field for another kind of
/// resource: the read repeats the declared reference (Cloud Control's EC2
/// route echoes `GatewayId` as `VpcEndpointId`; an internet gateway is no
/// endpoint). Under a field for the same kind it is a setting of its own:
/// `PerformanceInsightsKmsKeyId` beside `KmsKeyId`, `TaskRoleArn` beside
/// `ExecutionRoleArn` set to the same key or role out of band. Only
/// identifiers count: a short word equal to a declared one by chance is a
/// setting.
pub fn is_restated_reference(
    live_key: &str,
    live: &Value,
    declared_key: &str,
    declared: &Value,
) -> bool {
    // The values first: the field names' kinds matter only for one value.
    match (live, declared) {
        (Value::String(l), Value::String(d)) => {
            l == d
                && is_resource_reference(l)
                && matches!((reference_kind(live_key), reference_kind(declared_key)),
                    (Some(a), Some(b)) if a != b)
        }
        _ => false,
    }
}

/// The kind of resource a reference field names: its last word before the
/// `Id`, `Arn` or `Name` (`VpcEndpointId` -> `Endpoint`, `KmsKeyId` ->
/// `Key`, `ExecutionRoleArn` -> `Role`).
fn reference_kind(key: &str) -> Option<&str> {
    let stem = ["Ids", "Id", "ARN", "Arn", "Name"]
        .iter()
        .find_map(|s| key.strip_suffix(s))?;
    let start = stem.rfind(|c: char| c.is_ascii_uppercase())?;
    Some(&stem[start..]).filter(|w| w.len() > 1)
}

/// The string leaves of a value, or `None` when it holds a number or a
/// boolean (a value that says more than names and ids).
fn string_leaves<'v>(v: &'v Value, out: &mut Vec<&'v str>) -> Option<()> {
    match v {
        Value::String(s) => out.push(s),
        Value::Null => {}
        Value::Array(a) => a.iter().try_for_each(|x| string_leaves(x, out))?,
        Value::Object(o) => o.values().try_for_each(|x| string_leaves(x, out))?,
        Value::Bool(_) | Value::Number(_) => return None,
    }
    Some(())
}

/// True when a live list or object (at `live_key`) only restates declared
/// references in another arrangement: its leaves are all AWS resource ids
/// or ARNs and, as a multiset, exactly the declared value's (ELB
/// `SubnetMappings` of `{SubnetId}` beside declared `Subnets`), or, where
/// the two properties name one thing (`Subnets`, `SubnetMappings`), exactly
/// its ids of their one kind. It names nothing the declared value does not,
/// and that value is compared on its own. Words never count:
/// `{AccelerationStatus: Enabled}` beside a declared `{Status: Enabled}` is
/// a setting of its own.
pub fn is_restatement(live_key: &str, live: &Value, declared_key: &str, declared: &Value) -> bool {
    LiveReferences::new(live_key, live).is_some_and(|r| r.restated_by(declared_key, declared))
}

/// The live side of [`is_restatement`]: the sorted references a live list
/// or object holds, worked out once for all the declared properties it is
/// held against.
pub struct LiveReferences<'v> {
    key: &'v str,
    leaves: Vec<&'v str>,
}

impl<'v> LiveReferences<'v> {
    /// `None` when the live value restates nothing: not a list or object,
    /// or a leaf that is no AWS resource id or ARN. The live side is tested
    /// first: it is rarely all references, and then no declared value need
    /// be walked.
    pub fn new(live_key: &'v str, live: &'v Value) -> Option<Self> {
        if !(live.is_array() || live.is_object()) {
            return None;
        }
        let mut leaves = Vec::new();
        if string_leaves(live, &mut leaves).is_none()
            || !leaves.iter().all(|s| is_resource_reference(s))
        {
            return None;
        }
        leaves.sort_unstable();
        Some(LiveReferences {
            key: live_key,
            leaves,
        })
    }

    /// True when these references restate `declared` (see
    /// [`is_restatement`]).
    pub fn restated_by(&self, declared_key: &str, declared: &Value) -> bool {
        let mut d = Vec::new();
        if string_leaves(declared, &mut d).is_none() || d.is_empty() {
            return false;
        }
        d.sort_unstable();
        let l = &self.leaves;
        // The ids of one kind the declared value holds beside others (an
        // NLB's `Subnets` read back for declared `SubnetMappings` of
        // `{SubnetId, AllocationId}`): the same subnets, said with less.
        *l == d
            || (names_one_thing(self.key, declared_key)
                && one_id_kind(l).is_some_and(|k| d.iter().filter(|s| id_kind(s) == Some(k)).eq(l)))
    }
}

/// True when two property names name one thing in two forms: one, less a
/// plural `s`, begins the other (`Subnets`, `SubnetMappings`).
fn names_one_thing(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_end_matches('s'), b.trim_end_matches('s'));
    !a.is_empty() && !b.is_empty() && (a.starts_with(b) || b.starts_with(a))
}

/// The kind of a plain AWS id, its prefix (`subnet` of `subnet-0abc…`).
fn id_kind(s: &str) -> Option<&str> {
    super::arrays::is_aws_id(s)
        .then(|| s.split_once('-').map(|(k, _)| k))
        .flatten()
}

/// The one kind every id of `ids` has, if they are plain ids of one kind.
fn one_id_kind<'s>(ids: &[&'s str]) -> Option<&'s str> {
    let k = id_kind(ids.first()?)?;
    ids.iter().all(|s| id_kind(s) == Some(k)).then_some(k)
}

/// True when a live member `<X>Base64` holds the standard base64 encoding
/// of its sibling `<X>`: the service returns one value in two spellings (WAF
/// `SearchString` and `SearchStringBase64`). The sibling is compared on its
/// own, so the encoded copy says nothing more; a different encoding is kept.
pub fn is_encoded_sibling(key: &str, v: &Value, parent: &Map<String, Value>) -> bool {
    let (Some(stem), Some(enc)) = (key.strip_suffix("Base64"), v.as_str()) else {
        return false;
    };
    parent
        .get(stem)
        .and_then(Value::as_str)
        .is_some_and(|src| enc == super::scalars::base64_encode(src))
}

/// The scalar leaves of a value with the member name that holds each (an
/// array's items take the array's name), or `None` for a leaf that is not a
/// string. Unset leaves (`false`, `""`, `{}`) say nothing and are skipped.
fn named_leaves<'v>(name: &'v str, v: &'v Value, out: &mut Vec<(&'v str, &'v str)>) -> Option<()> {
    match v {
        Value::Null => {}
        _ if super::empty::is_trivially_empty(v) => {}
        Value::String(s) => out.push((name, s)),
        Value::Array(a) => a.iter().try_for_each(|x| named_leaves(name, x, out))?,
        Value::Object(o) => o.iter().try_for_each(|(k, x)| named_leaves(k, x, out))?,
        Value::Bool(_) | Value::Number(_) => return None,
    }
    Some(())
}

/// True when a live object or list under `key` only restates, member name
/// for member name, the resource references its siblings already state: an
/// ELBv2 action's `ForwardConfig {TargetGroups: [{TargetGroupArn}],
/// TargetGroupStickinessConfig: {Enabled: false}}` beside the action's own
/// `TargetGroupArn`. Every set leaf must be an AWS id or ARN equal to the
/// sibling of the same name, so another target, a weight or a switch turned
/// on is kept.
pub fn restates_siblings(key: &str, v: &Value, parent: &Map<String, Value>) -> bool {
    if !(v.is_array() || v.is_object()) {
        return false;
    }
    let mut leaves = Vec::new();
    if named_leaves(key, v, &mut leaves).is_none() || leaves.is_empty() {
        return false;
    }
    leaves.iter().all(|(name, s)| {
        *name != key
            && is_resource_reference(s)
            && parent.get(*name).and_then(Value::as_str) == Some(*s)
    })
}

/// True when a live list under `key` repeats, element for element, the
/// member of the same name in a sibling object: one setting read back twice
/// (an ELBv2 rule condition's `Values` beside `PathPatternConfig.Values`).
/// The sibling's member is compared on its own, so a list that differs
/// from it is kept.
pub fn mirrors_sibling_member(key: &str, v: &Value, parent: &Map<String, Value>) -> bool {
    let Some(items) = v.as_array().filter(|a| !a.is_empty()) else {
        return false;
    };
    parent
        .iter()
        .any(|(k, s)| k != key && s.get(key).and_then(Value::as_array) == Some(items))
}

/// True when a live object under `key` only wraps a sibling list: its one
/// set member is a non-empty list equal, element for element, to the
/// parent's member of the same name (an ELBv2 rule condition's
/// `PathPatternConfig {Values}` beside the declared legacy `Values`). The
/// mirror image of [`mirrors_sibling_member`]; any other member, or a list
/// that differs, is kept.
pub fn wraps_sibling_list(key: &str, v: &Value, parent: &Map<String, Value>) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let mut set = o
        .iter()
        .filter(|(_, x)| !super::empty::is_trivially_empty(x));
    let (Some((name, items)), None) = (set.next(), set.next()) else {
        return false;
    };
    name != key
        && items.as_array().is_some_and(|a| !a.is_empty())
        && parent.get(name) == Some(items)
}

/// True when a live string only joins two or more declared top-level values
/// with `_` or `|` (an EC2 transit gateway route's `Id`
/// `tgw-rtb-0abc_10.99.0.0/16` of its declared route table and CIDR): the
/// resource's own composite identity, which says nothing its declared parts
/// do not. A part that is no declared value keeps it.
pub fn joins_declared_values(v: &Value, declared: &Map<String, Value>) -> bool {
    let Some(s) = v.as_str() else {
        return false;
    };
    let is_declared =
        |part: &str| !part.is_empty() && declared.values().any(|d| d.as_str() == Some(part));
    ['_', '|'].iter().any(|sep| {
        let parts: Vec<&str> = s.split(*sep).collect();
        parts.len() > 1 && parts.iter().all(|p| is_declared(p))
    })
}

/// The sibling lists whose length a count member named `key` states:
/// `Ipv4PrefixCount` beside `Ipv4Prefixes`, `SecondaryPrivateIpAddressCount`
/// beside `SecondaryPrivateIpAddresses`, CloudFront's `Quantity` beside
/// `Items`.
fn counted_lists(key: &str) -> Vec<String> {
    if key == "Quantity" {
        return vec!["Items".to_string()];
    }
    let Some(stem) = key.strip_suffix("Count").filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let mut out = vec![format!("{stem}s"), format!("{stem}es")];
    if let Some(base) = stem.strip_suffix('y') {
        out.push(format!("{base}ies"));
    }
    out
}

/// True when a live number under `key` is the length of the sibling list it
/// counts (`Ipv4PrefixCount: 0` beside `Ipv4Prefixes: []`): the same setting
/// stated twice. The list is judged on its own, so a count that differs
/// from it, or one with no such list beside it, is kept.
pub fn restates_sibling_count(key: &str, v: &Value, parent: &Map<String, Value>) -> bool {
    let Some(n) = v.as_u64() else {
        return false;
    };
    counted_lists(key).iter().any(|name| {
        parent
            .get(name)
            .and_then(Value::as_array)
            .is_some_and(|a| a.len() as u64 == n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn contains_part_is_contains() {
        for hay in [
            "",
            "a",
            "Tag",
            "Tags",
            "xTag",
            "DomainName",
            "HostedZone",
            "Ta",
            "TTag",
        ] {
            for part in ["", "T", "Tag", "Domain", "Host", "ag", "TTag", "Tags"] {
                assert_eq!(
                    contains_part(hay, part),
                    hay.contains(part),
                    "{hay:?} {part:?}"
                );
            }
        }
    }

    #[test]
    fn only_header_names_fold_their_case() {
        let same = |leaf: &str, d: &str, l: &str| is_shape_equal(Some(leaf), d, l);
        assert!(same("AllowHeaders", "Content-Type", "content-type"));
        assert!(same("HeaderName", "X-Origin-Verify", "x-origin-verify"));
        // A bare `Header` may be a title or column names: only the
        // documentation says it is a header name (a mined rule).
        assert!(!same("Header", "Sale", "SALE"));
        // What a header carries, an id, or a document of header rules.
        assert!(!same("UserAgentHeader", "MyCrawler/1.0", "mycrawler/1.0"));
        assert!(!same("TraceHeader", "Root=1-abc", "root=1-abc"));
        assert!(!same(
            "ResponseHeadersPolicyId",
            "67f7725c-AB",
            "67f7725c-ab"
        ));
        assert!(!same("HeaderValue", "Zq8Rt", "zq8rt"));
        assert!(!same(
            "CustomHeaders",
            "customHeaders:\n  - pattern: '**'",
            "customheaders:\n  - pattern: '**'"
        ));
    }

    #[test]
    fn a_join_of_declared_values_is_the_resources_own_id() {
        let d = json!({"TransitGatewayRouteTableId": "tgw-rtb-0abc",
            "DestinationCidrBlock": "10.99.0.0/16", "Name": "a_b"});
        let m = d.as_object().cloned().unwrap_or_default();
        assert!(joins_declared_values(
            &json!("tgw-rtb-0abc_10.99.0.0/16"),
            &m
        ));
        assert!(joins_declared_values(
            &json!("10.99.0.0/16|tgw-rtb-0abc"),
            &m
        ));
        // Another CIDR, a lone value, or a part nobody declared.
        assert!(!joins_declared_values(
            &json!("tgw-rtb-0abc_10.98.0.0/16"),
            &m
        ));
        assert!(!joins_declared_values(&json!("tgw-rtb-0abc"), &m));
        assert!(!joins_declared_values(&json!("tgw-rtb-0abc_"), &m));
        assert!(!joins_declared_values(&json!(5), &m));
    }

    #[test]
    fn a_count_of_its_sibling_list_restates_it() {
        let eni = json!({"Ipv4PrefixCount": 0, "Ipv4Prefixes": [],
            "SecondaryPrivateIpAddressCount": 2,
            "SecondaryPrivateIpAddresses": ["10.0.0.5", "10.0.0.6"],
            "Quantity": 1, "Items": ["a"], "EntryCount": 3});
        let m = eni.as_object().cloned().unwrap_or_default();
        assert!(restates_sibling_count("Ipv4PrefixCount", &json!(0), &m));
        assert!(restates_sibling_count(
            "SecondaryPrivateIpAddressCount",
            &json!(2),
            &m
        ));
        assert!(restates_sibling_count("Quantity", &json!(1), &m));
        // A count the list does not bear out, or with no list beside it.
        assert!(!restates_sibling_count(
            "SecondaryPrivateIpAddressCount",
            &json!(3),
            &m
        ));
        assert!(!restates_sibling_count("EntryCount", &json!(3), &m));
        assert!(!restates_sibling_count("Ipv4PrefixCount", &json!("0"), &m));
    }

    #[test]
    fn an_object_wrapping_a_sibling_list_is_a_mirror_but_another_is_not() {
        let o = |cfg: Value| {
            json!({"Field": "path-pattern", "Values": ["/alpha/*", "/zebra/*"],
                "PathPatternConfig": cfg})
        };
        let same = o(json!({"Values": ["/alpha/*", "/zebra/*"]}));
        let obj = same.as_object().expect("object");
        assert!(wraps_sibling_list(
            "PathPatternConfig",
            &obj["PathPatternConfig"],
            obj
        ));
        for other in [
            json!({"Values": ["/alpha/*"]}),
            json!({"Values": ["/zebra/*", "/alpha/*"]}),
            json!({"Values": ["/alpha/*", "/zebra/*"], "HttpHeaderName": "X-A"}),
            json!({"Values": []}),
            json!({}),
        ] {
            let changed = o(other);
            let obj = changed.as_object().expect("object");
            assert!(!wraps_sibling_list(
                "PathPatternConfig",
                &obj["PathPatternConfig"],
                obj
            ));
        }
    }

    #[test]
    fn a_list_repeating_a_siblings_member_is_a_mirror_but_another_is_not() {
        let o = |v: Value| {
            json!({"Field": "path-pattern", "Values": v,
                "PathPatternConfig": {"Values": ["/alpha/*", "/zebra/*"]}})
        };
        let same = o(json!(["/alpha/*", "/zebra/*"]));
        let obj = same.as_object().expect("object");
        assert!(mirrors_sibling_member("Values", &obj["Values"], obj));
        for other in [
            json!(["/alpha/*"]),
            json!(["/zebra/*", "/alpha/*"]),
            json!([]),
        ] {
            let changed = o(other);
            let obj = changed.as_object().expect("object");
            assert!(!mirrors_sibling_member("Values", &obj["Values"], obj));
        }
    }

    #[test]
    fn identifiers_aws_lower_cases_fold_but_a_rename_does_not() {
        assert!(is_shape_equal(
            Some("DBSubnetGroupName"),
            "Orders-DB-Subnets",
            "orders-db-subnets"
        ));
        assert!(is_shape_equal(
            Some("ClusterIdentifier"),
            "Analytics1",
            "analytics1"
        ));
        assert!(!is_shape_equal(
            Some("DBSubnetGroupName"),
            "Orders-DB-Subnets",
            "billing-db-subnets"
        ));
        // Not lower-cased by AWS: the live side keeps other capitals.
        assert!(!is_shape_equal(Some("GroupName"), "abc", "ABC"));
        // A description is not an identifier.
        assert!(!is_shape_equal(Some("Description"), "Hello", "hello"));
    }

    #[test]
    fn cidr_lists_are_sets_but_other_lists_are_not() {
        let d = [json!("192.0.2.0/24"), json!("2001:db8::/32")];
        let l = [json!("2001:db8::/32"), json!("192.0.2.0/24")];
        assert!(is_address_range_set(&d, &l));
        // Plain addresses (DNS servers, in priority order) are not ranges.
        let ips = [json!("10.0.0.2"), json!("10.0.0.3")];
        assert!(!is_address_range_set(&ips, &ips));
        assert!(!is_address_range_set(
            &d,
            &[json!("192.0.2.0/24"), json!("x")]
        ));
        assert!(!is_address_range_set(
            &[json!("10.0.0.0/")],
            &[json!("10.0.0.0/")]
        ));
    }

    #[test]
    fn dns_record_values_are_a_set_only_under_resource_records() {
        let d = [json!("\"a\""), json!("\"b\"")];
        assert!(is_dns_record_set(Some("ResourceRecords"), &d, &d));
        assert!(!is_dns_record_set(Some("Layers"), &d, &d));
        assert!(!is_dns_record_set(
            Some("ResourceRecords"),
            &[json!({"a": 1})],
            &d
        ));
    }

    #[test]
    fn an_acl_baseline_folds_only_before_the_first_rule() {
        let eq = |d, l| is_shape_equal(Some("AccessString"), d, l);
        assert!(eq("on ~app:* +@read", "on ~app:* -@all +@read"));
        // After a grant, -@all revokes it: a different ACL.
        assert!(!eq(
            "on ~app:* +@write +@read",
            "on ~app:* +@write -@all +@read"
        ));
        assert!(!eq("on ~app:* +@read", "on ~app:* -@all +@write"));
        assert!(!is_shape_equal(Some("Description"), "a +b", "a -@all +b"));
    }

    #[test]
    fn enum_keywords_compare_without_case() {
        assert!(is_shape_equal(Some("InstanceProtocol"), "https", "HTTPS"));
        assert!(is_shape_equal(Some("Type"), "SPARK", "Spark"));
        assert!(!is_shape_equal(Some("Type"), "SPARK", "HIVE"));
        assert!(is_shape_equal(Some("IpProtocol"), "6", "tcp"));
        assert!(!is_shape_equal(Some("IpProtocol"), "6", "udp"));
        assert!(!is_shape_equal(Some("Description"), "6", "tcp"));
        assert!(is_shape_equal(Some("Engine"), "MySQL", "mysql"));
        assert!(!is_shape_equal(Some("Engine"), "MySQL", "mariadb"));
        // A name its owner wrote under a `...Type` key keeps its case.
        assert!(!is_shape_equal(
            Some("GroupEntityType"),
            "MyApp::Group",
            "myapp::group"
        ));
        assert!(!is_shape_equal(
            Some("AuthType"),
            "Partner SSO",
            "partner sso"
        ));
    }

    #[test]
    fn weekly_windows_compare_days_without_case() {
        let eq = |d, l| is_shape_equal(Some("PreferredMaintenanceWindow"), d, l);
        assert!(eq("Sun:05:00-Sun:06:00", "sun:05:00-sun:06:00"));
        assert!(eq("MON:23:30-TUE:00:00", "mon:23:30-tue:00:00"));
        assert!(!eq("Sun:05:00-Sun:06:00", "mon:05:00-mon:06:00"));
        assert!(!eq("Sun:05:00-Sun:06:00", "sun:05:30-sun:06:30"));
        // Only the window shape folds case.
        assert!(!is_shape_equal(Some("Description"), "Sunday", "sunday"));
    }

    #[test]
    fn header_names_compare_without_case() {
        assert!(is_shape_equal(
            Some("AllowHeaders"),
            "X-Api-Key",
            "x-api-key"
        ));
        assert!(!is_shape_equal(
            Some("AllowHeaders"),
            "X-Api-Key",
            "x-api-id"
        ));
    }

    #[test]
    fn dns_names_ignore_case_and_the_root_dot() {
        assert!(is_shape_equal(
            None,
            "Corp.Example.org",
            "corp.example.org."
        ));
        assert!(!is_shape_equal(
            None,
            "corp.example.org",
            "corp.example.net."
        ));
        assert!(is_shape_equal(
            Some("DomainName"),
            "API.Example.org",
            "api.example.org"
        ));
        assert!(is_shape_equal(
            Some("SubjectAlternativeNames"),
            "www.Example.org",
            "www.example.org"
        ));
        // An e-mail name keeps its case: it is not a DNS name.
        assert!(!is_shape_equal(
            Some("SubjectAlternativeNames"),
            "Ops@example.org",
            "ops@example.org"
        ));
        // A dotted word elsewhere keeps its case: a handler is not a name.
        assert!(!is_shape_equal(
            Some("Handler"),
            "index.handler",
            "index.Handler"
        ));
    }

    #[test]
    fn trailing_whitespace_is_normalised_text() {
        assert!(is_shape_equal(Some("Script"), "echo hi", "echo hi\n"));
        assert!(!is_shape_equal(Some("Script"), "echo hi", "echo ho\n"));
        assert!(!is_shape_equal(Some("Script"), "echo hi", " echo hi"));
    }

    #[test]
    fn versions_fold_only_within_the_declared_track() {
        assert!(is_shape_equal(Some("EngineVersion"), "15", "15.7"));
        assert!(is_shape_equal(Some("KafkaVersion"), "3.5.1", "3.5"));
        assert!(!is_shape_equal(Some("EngineVersion"), "15", "16.1"));
        assert!(!is_shape_equal(Some("EngineVersion"), "1.1", "1.10"));
        assert!(!is_shape_equal(Some("Description"), "15", "15.7"));
    }

    #[test]
    fn rate_expressions_in_other_units_are_one_schedule() {
        assert!(is_shape_equal(None, "rate(120 minutes)", "rate(2 hours)"));
        assert!(!is_shape_equal(None, "rate(90 minutes)", "rate(2 hours)"));
    }

    #[test]
    fn a_namespaced_option_list_is_keyed_by_the_pair() {
        let d = [json!({"Namespace": "a", "OptionName": "X", "Value": "1"})];
        let l = [
            json!({"Namespace": "a", "OptionName": "X", "Value": "1"}),
            json!({"Namespace": "b", "OptionName": "X", "Value": "2"}),
        ];
        assert_eq!(
            shape_identity_keys(&d, &l),
            Some(vec!["Namespace", "OptionName"])
        );
        // Also when each name is unique so far: the identity must not move
        // when another namespace adds an option of the same name.
        let one = [json!({"Namespace": "b", "OptionName": "X", "Value": "2"})];
        assert_eq!(
            shape_identity_keys(&d, &one),
            Some(vec!["Namespace", "OptionName"])
        );
    }

    #[test]
    fn key_value_lists_are_bags_but_tags_are_not() {
        let d = [json!({"Key": "idle_timeout.timeout_seconds", "Value": "120"})];
        let l = [
            json!({"Key": "deletion_protection.enabled", "Value": "false"}),
            json!({"Key": "idle_timeout.timeout_seconds", "Value": "60"}),
        ];
        assert!(is_attribute_bag(Some("LoadBalancerAttributes"), &d, &l));
        assert!(!is_attribute_bag(Some("Tags"), &d, &l));
        let dup = [
            json!({"Key": "a", "Value": "1"}),
            json!({"Key": "a", "Value": "2"}),
        ];
        assert!(!is_attribute_bag(Some("Attributes"), &dup, &l));
    }

    #[test]
    fn a_declared_reference_repeated_under_another_field_is_a_restatement() {
        let igw = json!("igw-0c7816775f3353a51");
        let echo = |l: &Value, d: &Value| is_restated_reference("VpcEndpointId", l, "GatewayId", d);
        assert!(echo(&igw, &igw));
        let arn = json!("arn:aws:lambda:eu-west-1:123456789012:function:f");
        assert!(is_restated_reference(
            "TargetArn",
            &arn,
            "FunctionArn",
            &arn
        ));
        assert!(!echo(&json!("igw-0c7816775f3353a52"), &igw));
        // Words and names are settings, even when equal by chance.
        assert!(!echo(&json!("admin"), &json!("admin")));
        assert!(!echo(&json!("my-queue"), &json!("my-queue")));
        assert!(!echo(&json!("true"), &json!("true")));
        // A second field for the same kind, set to the same resource, is a
        // setting of its own.
        let key =
            json!("arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab");
        assert!(!is_restated_reference(
            "PerformanceInsightsKmsKeyId",
            &key,
            "KmsKeyId",
            &key
        ));
        let role = json!("arn:aws:iam::123456789012:role/app");
        assert!(!is_restated_reference(
            "TaskRoleArn",
            &role,
            "ExecutionRoleArn",
            &role
        ));
    }

    #[test]
    fn a_restatement_carries_only_the_declared_strings() {
        let declared = json!(["subnet-0aaa1111", "subnet-0bbb2222"]);
        let live = json!([{"SubnetId": "subnet-0bbb2222"}, {"SubnetId": "subnet-0aaa1111"}]);
        assert!(is_restatement(
            "SubnetMappings",
            &live,
            "Subnets",
            &declared
        ));
        // A third subnet, a weight or an allocation id says more.
        let more = json!([{"SubnetId": "subnet-0aaa1111"}, {"SubnetId": "subnet-0bbb2222"}, {"SubnetId": "subnet-0ccc3333"}]);
        assert!(!is_restatement(
            "SubnetMappings",
            &more,
            "Subnets",
            &declared
        ));
        let weighted =
            json!([{"SubnetId": "subnet-0aaa1111", "Weight": 5}, {"SubnetId": "subnet-0bbb2222"}]);
        assert!(!is_restatement(
            "SubnetMappings",
            &weighted,
            "Subnets",
            &declared
        ));
        let eip = json!([{"SubnetId": "subnet-0aaa1111", "AllocationId": "eipalloc-0123abcd"}, {"SubnetId": "subnet-0bbb2222"}]);
        assert!(!is_restatement(
            "SubnetMappings",
            &eip,
            "Subnets",
            &declared
        ));
        // Words are settings, whatever they equal.
        let versioning = json!({"Status": "Enabled"});
        assert!(!is_restatement(
            "AccelerateConfiguration",
            &json!({"AccelerationStatus": "Enabled"}),
            "VersioningConfiguration",
            &versioning
        ));
        // A scalar is compared as itself, never as a restatement.
        assert!(!is_restatement(
            "SubnetId",
            &json!("subnet-0aaa1111"),
            "Subnet",
            &json!("subnet-0aaa1111")
        ));
        assert!(!is_restatement(
            "Subnets",
            &json!([]),
            "Subnets",
            &json!([])
        ));
    }

    #[test]
    fn a_plain_list_restates_the_ids_of_its_kind_in_a_richer_form() {
        // An NLB declared with `SubnetMappings` (an Elastic IP per subnet)
        // reads back `Subnets` as well: the same subnets, said with less.
        let declared = json!([
            {"SubnetId": "subnet-0aaa1111", "AllocationId": "eipalloc-0123abcd"},
            {"SubnetId": "subnet-0bbb2222", "AllocationId": "eipalloc-0456abcd"}
        ]);
        let same = json!(["subnet-0bbb2222", "subnet-0aaa1111"]);
        assert!(is_restatement(
            "Subnets",
            &same,
            "SubnetMappings",
            &declared
        ));
        // A subnet more, or one fewer, is another placement.
        let more = json!(["subnet-0aaa1111", "subnet-0bbb2222", "subnet-0ccc3333"]);
        assert!(!is_restatement(
            "Subnets",
            &more,
            "SubnetMappings",
            &declared
        ));
        assert!(!is_restatement(
            "Subnets",
            &json!(["subnet-0aaa1111"]),
            "SubnetMappings",
            &declared
        ));
        // Under a property that names another thing, the same ids are a
        // setting of their own.
        assert!(!is_restatement(
            "ExtraSubnets",
            &same,
            "SubnetMappings",
            &declared
        ));
    }

    #[test]
    fn name_and_key_fields_key_a_set() {
        let d = [json!({"ParameterName": "b", "ParameterValue": "1"})];
        let l = [
            json!({"ParameterName": "a", "ParameterValue": "0"}),
            json!({"ParameterName": "b", "ParameterValue": "1"}),
        ];
        assert_eq!(shape_identity(&d, &l), Some("ParameterName"));
        let dup = [json!({"Name": "a"}), json!({"Name": "a"})];
        assert_eq!(shape_identity(&dup, &l), None);
        let no_name = [json!({"FromPort": 443, "Description": "https"})];
        assert_eq!(shape_identity(&no_name, &no_name), None);
        let cidrs = [json!({"Cidr": "10.0.0.0/16", "Description": "a"})];
        assert_eq!(shape_identity(&cidrs, &cidrs), Some("Cidr"));
    }

    #[test]
    fn an_encoded_copy_of_a_sibling_is_not_a_setting() {
        let parent = json!({"SearchString": "cdkrd-hunt", "PositionalConstraint": "CONTAINS"});
        let parent = parent.as_object().unwrap();
        assert!(is_encoded_sibling(
            "SearchStringBase64",
            &json!("Y2RrcmQtaHVudA=="),
            parent
        ));
        // Another string's encoding, or a key without a sibling, stays.
        assert!(!is_encoded_sibling(
            "SearchStringBase64",
            &json!("eA=="),
            parent
        ));
        assert!(!is_encoded_sibling(
            "PatternBase64",
            &json!("Y2RrcmQtaHVudA=="),
            parent
        ));
        assert!(!is_encoded_sibling(
            "SearchString",
            &json!("cdkrd-hunt"),
            parent
        ));
    }

    #[test]
    fn a_member_restating_its_siblings_references_is_not_a_setting() {
        let tg =
            "arn:aws:elasticloadbalancing:eu-west-1:111111111111:targetgroup/web/0123456789abcdef";
        let other =
            "arn:aws:elasticloadbalancing:eu-west-1:111111111111:targetgroup/api/fedcba9876543210";
        let action = json!({"Type": "forward", "TargetGroupArn": tg});
        let action = action.as_object().unwrap();
        let same = json!({"TargetGroups": [{"TargetGroupArn": tg}]});
        assert!(restates_siblings("ForwardConfig", &same, action));
        // Another target group, a second one, or a weight is configuration.
        let moved = json!({"TargetGroups": [{"TargetGroupArn": other}]});
        assert!(!restates_siblings("ForwardConfig", &moved, action));
        let two = json!({"TargetGroups": [{"TargetGroupArn": tg}, {"TargetGroupArn": other}]});
        assert!(!restates_siblings("ForwardConfig", &two, action));
        let weighted = json!({"TargetGroups": [{"TargetGroupArn": tg, "Weight": 1}]});
        assert!(!restates_siblings("ForwardConfig", &weighted, action));
        // An unset switch beside the restated reference says nothing more;
        // the same switch turned on does.
        let off = json!({"TargetGroups": [{"TargetGroupArn": tg}],
            "TargetGroupStickinessConfig": {"Enabled": false}});
        assert!(restates_siblings("ForwardConfig", &off, action));
        let on = json!({"TargetGroups": [{"TargetGroupArn": tg}],
            "TargetGroupStickinessConfig": {"Enabled": true, "DurationSeconds": 3600}});
        assert!(!restates_siblings("ForwardConfig", &on, action));
        // Words never count, even under a same-named sibling.
        let words = json!({"Type": "forward"});
        assert!(!restates_siblings("Extra", &words, action));
    }
}
