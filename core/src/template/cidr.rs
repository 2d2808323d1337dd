//! `Fn::Cidr`: the deterministic IPv4 subnet split.

/// Splits `block` (e.g. `10.0.0.0/16`) into `count` consecutive subnets with
/// `cidr_bits` host bits each. `None` for anything CloudFormation would reject
/// or we cannot be sure about (IPv6, unaligned blocks, too many subnets).
pub(crate) fn split(block: &str, count: u64, cidr_bits: u64) -> Option<Vec<String>> {
    let (addr, prefix) = block.split_once('/')?;
    let prefix: u32 = parse_decimal(prefix)?;
    let base = parse_ipv4(addr)?;
    if prefix > 32 || !(1..=256).contains(&count) || cidr_bits == 0 || cidr_bits > 32 {
        return None;
    }
    let bits = u32::try_from(cidr_bits).ok()?;
    let new_prefix = 32 - bits;
    if new_prefix < prefix {
        return None;
    }
    let block_mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix)
    };
    if base & !block_mask != 0 {
        return None;
    }
    let available = 1u64 << (new_prefix - prefix);
    if count > available {
        return None;
    }
    let step = 1u64 << bits;
    (0..count)
        .map(|i| {
            let start = u64::from(base) + i * step;
            let start = u32::try_from(start).ok()?;
            Some(format!("{}/{}", format_ipv4(start), new_prefix))
        })
        .collect()
}

fn parse_decimal(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_ipv4(s: &str) -> Option<u32> {
    let mut out = 0u32;
    let mut parts = 0;
    for part in s.split('.') {
        let octet = parse_decimal(part)?;
        if octet > 255 || (part.len() > 1 && part.starts_with('0')) {
            return None;
        }
        out = (out << 8) | octet;
        parts += 1;
    }
    (parts == 4).then_some(out)
}

fn format_ipv4(a: u32) -> String {
    let [b0, b1, b2, b3] = a.to_be_bytes();
    format!("{b0}.{b1}.{b2}.{b3}")
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn documented_example() {
        // The CloudFormation docs example: 6 /27 subnets of a /24.
        assert_eq!(
            split("192.168.0.0/24", 6, 5).unwrap(),
            vec![
                "192.168.0.0/27",
                "192.168.0.32/27",
                "192.168.0.64/27",
                "192.168.0.96/27",
                "192.168.0.128/27",
                "192.168.0.160/27"
            ]
        );
        assert_eq!(
            split("10.0.0.0/16", 2, 8).unwrap(),
            vec!["10.0.0.0/24", "10.0.1.0/24"]
        );
    }

    #[test]
    fn refuses_what_is_not_certain() {
        assert_eq!(split("192.168.0.0/24", 9, 5), None); // only 8 fit
        assert_eq!(split("192.168.0.5/24", 1, 5), None); // unaligned
        assert_eq!(split("192.168.0.0/24", 1, 9), None); // bigger than block
        assert_eq!(split("2001:db8::/56", 1, 64), None); // IPv6
        assert_eq!(split("192.168.0.0", 1, 5), None);
        assert_eq!(split("192.168.0.0/24", 0, 5), None);
        assert_eq!(split("256.0.0.0/8", 1, 5), None);
        assert_eq!(split("0.0.0.0/0", 256, 24).unwrap().len(), 256);
    }
}
