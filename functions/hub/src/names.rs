//! `REALDRIFT_ACCOUNT_NAMES`: the operator's account id -> name map (the
//! hub's `accountNames` prop), which overrides the Organization's names.

use std::collections::BTreeMap;

/// The variable holding the map (a JSON object; unset = empty).
pub const ACCOUNT_NAMES_VAR: &str = "REALDRIFT_ACCOUNT_NAMES";

/// Parses the map: a JSON object of 12-digit account ids to names; anything
/// else is refused (fail closed: the function does not start).
pub fn account_names(value: Option<&str>) -> anyhow::Result<BTreeMap<String, String>> {
    let Some(text) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(BTreeMap::new());
    };
    let map: BTreeMap<String, String> = serde_json::from_str(text).map_err(|e| {
        anyhow::anyhow!("{ACCOUNT_NAMES_VAR}: not a JSON object of account id -> name ({e})")
    })?;
    if let Some(bad) = map
        .keys()
        .find(|k| k.len() != 12 || !k.bytes().all(|b| b.is_ascii_digit()))
    {
        anyhow::bail!("{ACCOUNT_NAMES_VAR}: {bad:?} is not a 12-digit account id");
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_parses_and_refuses_what_is_not_an_account() {
        assert!(account_names(None).unwrap().is_empty());
        let m = account_names(Some(r#"{"111111111111":"payments-prod"}"#)).unwrap();
        assert_eq!(m["111111111111"], "payments-prod");
        assert!(account_names(Some(r#"{"prod":"x"}"#)).is_err());
        assert!(account_names(Some("[1]")).is_err());
    }
}
