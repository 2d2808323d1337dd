//! Values AWS or CloudFormation generated for THIS resource: its minted
//! physical name, a segment of its physical id, a CloudFormation auto-name
//! `<stack>-<logicalId>-<random>`. Only ever consulted for values the
//! template does not declare, so a declared name is never hidden.

use super::arn::parse_arn;

/// The minimum length of the random suffix CloudFormation appends.
const MIN_RANDOM_SUFFIX: usize = 10;

/// The name-like segments of a physical id: for an ARN the pieces of its
/// resource part, for a URL its path pieces, for a composite id its `|`
/// parts. Purely numeric pieces (versions, account ids) and very short ones
/// are left out: they carry no identity of their own.
pub fn physical_id_segments(physical_id: &str) -> Vec<&str> {
    let body = match parse_arn(physical_id) {
        Some(arn) => arn.resource,
        None => physical_id,
    };
    body.split(['|', '/', ':'])
        .filter(|s| s.len() >= 3 && !s.bytes().all(|b| b.is_ascii_digit()))
        .collect()
}

/// True when `value` is a name segment of the physical id (a topic's name
/// in its ARN, a queue's name in its URL, a parent id in a composite id).
pub fn is_physical_id_segment(value: &str, physical_id: &str) -> bool {
    value != physical_id && physical_id_segments(physical_id).contains(&value)
}

fn is_random_suffix(s: &str) -> bool {
    s.len() >= MIN_RANDOM_SUFFIX && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn prefix_of_ci(short: &str, long: &str) -> bool {
    short.len() <= long.len() && long[..short.len()].eq_ignore_ascii_case(short)
}

/// The head of a CloudFormation auto-minted name (`.fifo` allowed): what
/// comes before CloudFormation's 10+ character random suffix.
fn minted_head(value: &str) -> Option<&str> {
    let v = value.strip_suffix(".fifo").unwrap_or(value);
    let (head, suffix) = v.rsplit_once(['-', '_'])?;
    (is_random_suffix(suffix) && !head.is_empty()).then_some(head)
}

/// True when a minted name's head starts with this stack's name (possibly
/// truncated, possibly lower-cased) and names something after it.
fn starts_with_stack(head: &str, stack: Option<&str>) -> bool {
    let first = head.split('-').next().unwrap_or(head);
    stack.is_some_and(|s| first.len() >= 3 && prefix_of_ci(first, s) && head.len() > first.len())
}

/// True for a name CloudFormation minted for THIS resource:
/// `<stack>-<logicalId>-<random>` or `<logicalId>-<random>`, each part
/// possibly truncated or lower-cased. The logical id must be in it: a name
/// of this stack minted for another resource is a reference to that one.
pub fn is_cfn_minted_name(value: &str, stack: Option<&str>, logical_id: &str) -> bool {
    let Some(head) = minted_head(value) else {
        return false;
    };
    let lid = logical_id;
    let names_lid = |part: &str| {
        !part.is_empty() && !lid.is_empty() && (prefix_of_ci(part, lid) || prefix_of_ci(lid, part))
    };
    let first = head.split('-').next().unwrap_or(head);
    (head.len() >= 3 && prefix_of_ci(head, lid))
        || (lid.len() >= 3 && prefix_of_ci(lid, head))
        || (first.len() >= 3 && prefix_of_ci(first, lid))
        || (starts_with_stack(head, stack) && head.split('-').skip(1).any(names_lid))
}

/// True for a name CloudFormation minted for any resource of this stack
/// (`<stack>-<...>-<random>`): a sibling resource named in this one.
pub fn is_stack_minted_name(value: &str, stack: Option<&str>) -> bool {
    minted_head(value).is_some_and(|head| starts_with_stack(head, stack))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_of_arns_urls_and_composites() {
        assert!(is_physical_id_segment(
            "topic-name",
            "arn:aws:sns:us-east-1:111111111111:topic-name"
        ));
        assert!(is_physical_id_segment(
            "queue1",
            "https://sqs.us-east-1.amazonaws.com/111111111111/queue1"
        ));
        assert!(is_physical_id_segment("qu3ue7", "a1b2c3d4e5|qu3ue7|POST"));
        assert!(!is_physical_id_segment(
            "111111111111",
            "arn:aws:sns:us-east-1:111111111111:t"
        ));
        assert!(!is_physical_id_segment(
            "other",
            "arn:aws:sns:us-east-1:1:t"
        ));
    }

    #[test]
    fn minted_names_are_gated_on_stack_or_logical_id() {
        let st = Some("CdkrdIntegHarvest4");
        assert!(is_cfn_minted_name(
            "CdkrdIntegHarvest4-AlbSg1155C1BE-xPthhDznw5Ma",
            st,
            "AlbSg1155C1BE"
        ));
        assert!(is_cfn_minted_name(
            "CdkrdI-Web3C-B2EBJYBQ0UEJ",
            st,
            "Web3C8945DB"
        ));
        assert!(is_cfn_minted_name(
            "PoolD3F588B8-x2yLeeWNu9OW",
            st,
            "PoolD3F588B8"
        ));
        assert!(is_cfn_minted_name(
            "huntdmsri-q2z2kglbegpum1mf",
            st,
            "HuntDmsRi"
        ));
        assert!(!is_cfn_minted_name("my-custom-name", st, "Thing"));
        assert!(!is_cfn_minted_name(
            "OtherStack-Thing-abcdefghijkl",
            st,
            "Unrelated"
        ));
    }

    #[test]
    fn a_sibling_s_minted_name_is_of_the_stack_not_of_this_resource() {
        // An instance profile another resource of the stack minted, found
        // on an instance, names that profile: it is no name of the
        // instance's own.
        let st = Some("ProbeStack");
        let sibling = "ProbeStack-OtherProfile-ABCDEFGHIJ12";
        assert!(!is_cfn_minted_name(sibling, st, "Inst"));
        assert!(is_stack_minted_name(sibling, st));
        assert!(is_cfn_minted_name(
            "ProbeStack-Inst-ABCDEFGHIJ12",
            st,
            "Inst"
        ));
        assert!(!is_stack_minted_name("OtherStack-Inst-ABCDEFGHIJ12", st));
    }
}
