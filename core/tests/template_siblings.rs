//! Sibling AWS::IAM::Policy names per role / user / group.

use realdrift_core::classify::SiblingPolicyNames;
use realdrift_core::template::{sibling_policy_names, ResolverContext, Template};
use serde_json::json;

fn ctx() -> ResolverContext {
    ResolverContext::new("111111111111", "us-east-1", "App")
}

fn template() -> Template {
    Template::parse(
        &json!({
            "Parameters": {"Env": {"Type": "String", "Default": "prod"}, "Free": {"Type": "String"}},
            "Conditions": {
                "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
                "IsDev": {"Fn::Equals": [{"Ref": "Env"}, "dev"]},
                "Unknown": {"Fn::Equals": [{"Ref": "Free"}, "x"]}
            },
            "Resources": {
                "Role": {"Type": "AWS::IAM::Role"},
                "OtherRole": {"Type": "AWS::IAM::Role"},
                "Lonely": {"Type": "AWS::IAM::Role"},
                "User": {"Type": "AWS::IAM::User"},
                "Group": {"Type": "AWS::IAM::Group"},
                "Default": {"Type": "AWS::IAM::Policy", "Properties": {
                    "PolicyName": "RoleDefaultPolicy", "Roles": [{"Ref": "Role"}, {"Ref": "OtherRole"}],
                    "Users": [{"Ref": "User"}], "Groups": [{"Ref": "Group"}]}},
                "Second": {"Type": "AWS::IAM::Policy", "Properties": {
                    "PolicyName": {"Fn::Sub": "${AWS::StackName}-second"}, "Roles": [{"Ref": "Role"}]}},
                "DevOnly": {"Type": "AWS::IAM::Policy", "Condition": "IsDev", "Properties": {
                    "PolicyName": "dev", "Roles": [{"Ref": "Role"}]}},
                "Dynamic": {"Type": "AWS::IAM::Policy", "Properties": {
                    "PolicyName": {"Fn::Join": ["-", [{"Ref": "Free"}, "p"]]}, "Roles": [{"Ref": "OtherRole"}]}},
                "MaybeThere": {"Type": "AWS::IAM::Policy", "Condition": "Unknown", "Properties": {
                    "PolicyName": "maybe", "Users": [{"Ref": "User"}]}},
                "ByName": {"Type": "AWS::IAM::Policy", "Properties": {
                    "PolicyName": "by-name", "Groups": ["App-Group-XYZ", "external-group"]}},
                "Managed": {"Type": "AWS::IAM::ManagedPolicy", "Properties": {"Roles": [{"Ref": "Lonely"}]}}
            }
        })
        .to_string(),
    )
    .unwrap()
}

#[test]
fn maps_each_principal_to_its_policy_names() {
    let mut c = ctx();
    c.physical_ids
        .insert("Group".into(), "App-Group-XYZ".into());
    let map = sibling_policy_names(&template(), &c);
    assert_eq!(
        map.get("Role"),
        Some(&SiblingPolicyNames::Known(vec![
            "App-second".to_string(),
            "RoleDefaultPolicy".to_string()
        ])),
        "a policy whose condition is false is not attached"
    );
    assert_eq!(
        map.get("OtherRole"),
        Some(&SiblingPolicyNames::Unresolved),
        "an unresolvable name fails open"
    );
    assert_eq!(
        map.get("User"),
        Some(&SiblingPolicyNames::Unresolved),
        "a policy that may or may not exist fails open"
    );
    assert_eq!(
        map.get("Group"),
        Some(&SiblingPolicyNames::Known(vec![
            "RoleDefaultPolicy".to_string(),
            "by-name".to_string()
        ]))
    );
    assert_eq!(
        map.get("Lonely"),
        None,
        "managed policies are not inline siblings"
    );
    assert_eq!(map.len(), 4);
}

#[test]
fn no_policies_no_entries() {
    let t = Template::parse(r#"{"Resources": {"R": {"Type": "AWS::IAM::Role"}}}"#).unwrap();
    assert!(sibling_policy_names(&t, &ctx()).is_empty());
}
