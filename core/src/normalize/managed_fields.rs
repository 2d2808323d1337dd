//! Cloud Control "managed" fields: timestamps and revision ids AWS maintains
//! on its own. They change without anyone changing configuration, so they
//! are removed by name at any depth — but never inside a free-form user map
//! (Lambda environment variables, Glue parameters, labels), where a key that
//! merely looks managed is the user's data.

use super::path::{Path, Seg};
use serde_json::Value;

/// Removes keys named in `names` at any depth of `v`, skipping the contents
/// of free-form maps (paths matching the dotted `free_form` patterns) and of
/// tag maps.
pub fn strip_managed_fields<S: AsRef<str>>(v: &mut Value, names: &[String], free_form: &[S]) {
    if names.is_empty() {
        return;
    }
    if free_form.is_empty() {
        walk_plain(v, names);
    } else {
        walk(v, &mut Path::root(), names, free_form);
    }
}

/// The walk when no free-form map exists: no paths to track.
fn walk_plain(v: &mut Value, names: &[String]) {
    match v {
        Value::Object(o) => {
            o.retain(|k, _| !names.iter().any(|n| n == k));
            for (k, child) in o.iter_mut() {
                if (child.is_object() && k != "Tags") || child.is_array() {
                    walk_plain(child, names);
                }
            }
        }
        Value::Array(a) => a
            .iter_mut()
            .filter(|e| e.is_object() || e.is_array())
            .for_each(|e| walk_plain(e, names)),
        _ => {}
    }
}

fn walk<S: AsRef<str>>(v: &mut Value, at: &mut Path, names: &[String], free_form: &[S]) {
    match v {
        Value::Object(o) => {
            if !at.is_empty()
                && (at.last_key() == Some("Tags")
                    || free_form.iter().any(|p| at.matches_dotted(p.as_ref())))
            {
                return;
            }
            o.retain(|k, _| !names.iter().any(|n| n == k));
            for (k, child) in o.iter_mut() {
                if child.is_object() || child.is_array() {
                    at.push_key(k);
                    walk(child, at, names, free_form);
                    at.pop();
                }
            }
        }
        Value::Array(a) => {
            for (i, e) in a.iter_mut().enumerate() {
                if e.is_object() || e.is_array() {
                    at.push(Seg::Index(i));
                    walk(e, at, names, free_form);
                    at.pop();
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
        strip_managed_fields(&mut v, &names, &["Environment.Variables"]);
        assert_eq!(
            v,
            json!({"Logging": {"Level": "OFF"}, "Environment": {"Variables": {"CreatedAt": "user value"}}})
        );
    }
}
