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

/// True for a CloudFormation auto-minted name: `<stack>-<...>-<random>` or
/// `<logicalId>-<random>` (either possibly truncated, possibly lower-cased,
/// `.fifo` allowed), ending in CloudFormation's 10+ character random
/// suffix. Strictly gated on this stack's name or this resource's logical id.
pub fn is_cfn_minted_name(value: &str, stack: Option<&str>, logical_id: &str) -> bool {
    let v = value.strip_suffix(".fifo").unwrap_or(value);
    let Some((head, suffix)) = v.rsplit_once(['-', '_']) else {
        return false;
    };
    if !is_random_suffix(suffix) || head.is_empty() {
        return false;
    }
    let first = head.split('-').next().unwrap_or(head);
    let by_stack = stack
        .is_some_and(|s| first.len() >= 3 && prefix_of_ci(first, s) && head.len() > first.len());
    let by_logical = {
        let lid = logical_id;
        (head.len() >= 3 && prefix_of_ci(head, lid))
            || (lid.len() >= 3 && prefix_of_ci(lid, head))
            || (first.len() >= 3 && prefix_of_ci(first, lid))
    };
    by_stack || by_logical
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
}
