//! Which stack resources a raw template value refers to (`Ref`, `Fn::GetAtt`,
//! `Fn::Sub` variables), for matching a declared target that does not
//! resolve to the parent it names.

use super::model::Template;
use super::sub::{pieces, Piece};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Per top-level property of `logical_id`, the logical ids of the stack's
/// resources its raw value refers to (parameters and pseudo parameters left
/// out). Properties that refer to none are absent.
pub fn property_references(
    template: &Template,
    logical_id: &str,
) -> BTreeMap<String, BTreeSet<String>> {
    let Some(res) = template.resource(logical_id) else {
        return BTreeMap::new();
    };
    res.properties
        .iter()
        .filter_map(|(k, v)| {
            let mut refs = BTreeSet::new();
            collect(template, v, &mut refs);
            (!refs.is_empty()).then(|| (k.clone(), refs))
        })
        .collect()
}

fn collect(t: &Template, v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Array(items) => items.iter().for_each(|x| collect(t, x, out)),
        Value::Object(obj) => {
            for (k, x) in obj {
                match (k.as_str(), x) {
                    ("Ref", Value::String(name)) => add(t, name, out),
                    ("Fn::GetAtt", Value::String(s)) => {
                        add(t, s.split_once('.').map_or(s.as_str(), |(l, _)| l), out)
                    }
                    ("Fn::GetAtt", Value::Array(a)) => {
                        if let Some(Value::String(l)) = a.first() {
                            add(t, l, out);
                        }
                    }
                    ("Fn::Sub", Value::String(s)) => sub_refs(t, s, out),
                    ("Fn::Sub", Value::Array(a)) => {
                        if let Some(Value::String(s)) = a.first() {
                            sub_refs(t, s, out);
                        }
                        a.iter().skip(1).for_each(|x| collect(t, x, out));
                    }
                    _ => collect(t, x, out),
                }
            }
        }
        _ => {}
    }
}

fn sub_refs(t: &Template, s: &str, out: &mut BTreeSet<String>) {
    for p in pieces(s).unwrap_or_default() {
        if let Piece::Var(name) = p {
            add(t, name.split_once('.').map_or(name, |(l, _)| l), out);
        }
    }
}

fn add(t: &Template, name: &str, out: &mut BTreeSet<String>) {
    if t.resources.contains_key(name) {
        out.insert(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refs_getatts_and_sub_variables_name_stack_resources_only() {
        let t = Template::parse(
            &json!({
                "Parameters": {"P": {"Type": "String"}},
                "Resources": {
                    "A": {"Type": "AWS::SQS::Queue"},
                    "B": {"Type": "AWS::SQS::Queue"},
                    "C": {"Type": "AWS::SNS::Topic"},
                    "Policy": {"Type": "AWS::SQS::QueuePolicy", "Properties": {
                        "Queues": [{"Ref": "A"}, {"Fn::GetAtt": ["B", "QueueUrl"]}, {"Ref": "P"}],
                        "PolicyDocument": {"Statement": [{"Resource": {"Fn::Sub": "${C}-${AWS::Region}"}}]},
                        "Plain": "x"
                    }}
                }
            })
            .to_string(),
        )
        .unwrap();
        let refs = property_references(&t, "Policy");
        assert_eq!(
            refs,
            BTreeMap::from([
                (
                    "PolicyDocument".to_string(),
                    BTreeSet::from(["C".to_string()])
                ),
                (
                    "Queues".to_string(),
                    BTreeSet::from(["A".to_string(), "B".to_string()])
                ),
            ])
        );
    }
}
