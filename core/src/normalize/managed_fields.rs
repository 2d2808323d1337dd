//! Cloud Control "managed" fields: timestamps and revision ids AWS maintains
//! on its own. They change without anyone changing configuration, so they
//! are removed by name at any depth — but never inside a free-form user map
//! (Lambda environment variables, Glue parameters, labels), where a key that
//! merely looks managed is the user's data.

use super::path::{Path, Pattern, Seg};
use serde_json::Value;

/// Removes keys named in `names` at any depth of `v`, skipping the contents
/// of free-form maps (paths matching `free_form`) and of tag maps.
pub fn strip_managed_fields(v: &mut Value, names: &[String], free_form: &[Pattern]) {
    if names.is_empty() {
        return;
    }
    walk(v, &Path::root(), names, free_form);
}

fn walk(v: &mut Value, at: &Path, names: &[String], free_form: &[Pattern]) {
    match v {
        Value::Object(o) => {
            if !at.is_empty()
                && (free_form.iter().any(|p| p.matches(at)) || at.last_key() == Some("Tags"))
            {
                return;
            }
            o.retain(|k, _| !names.iter().any(|n| n == k));
            for (k, child) in o.iter_mut() {
                if child.is_object() || child.is_array() {
                    walk(child, &at.with_key(k), names, free_form);
                }
            }
        }
        Value::Array(a) => {
            for (i, e) in a.iter_mut().enumerate() {
                if e.is_object() || e.is_array() {
                    walk(e, &at.child(Seg::Index(i)), names, free_form);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strips_everywhere_except_free_form_maps() {
        let mut v = json!({
            "CreationDate": "t", "Logging": {"CreatedAt": "t", "Level": "OFF"},
            "Environment": {"Variables": {"CreatedAt": "user value"}}
        });
        let names = vec!["CreationDate".to_string(), "CreatedAt".to_string()];
        strip_managed_fields(&mut v, &names, &[Pattern::parse("Environment.Variables")]);
        assert_eq!(
            v,
            json!({"Logging": {"Level": "OFF"}, "Environment": {"Variables": {"CreatedAt": "user value"}}})
        );
    }
}
