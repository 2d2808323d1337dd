//! A value folds only where what the template declares explains it: a
//! value read back in another form folds only while it still equals the
//! declared one, and surfaces once it differs.

use realdrift_core::classify::{classify, ClassifyContext, ResourceInput, SiblingPolicyNames};
use realdrift_core::declared::DeclaredValue;
use realdrift_core::schema::SchemaFacts;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Value};

fn resource(t: &str, declared: &Value) -> ResourceInput {
    ResourceInput {
        logical_id: "Res".into(),
        resource_type: t.into(),
        physical_id: Some("res-0123".into()),
        construct_path: Some("Stack/Res".into()),
        declared: declared
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), DeclaredValue::from_corpus_json(v)))
                    .collect()
            })
            .unwrap_or_default(),
        sibling_policy_names: SiblingPolicyNames::None,
    }
}

fn classify_in(t: &str, declared: Value, live: Value, schema: &SchemaFacts) -> Vec<Finding> {
    let ctx = ClassifyContext {
        account_id: Some("123456789012".into()),
        region: Some("eu-west-1".into()),
        stack_name: Some("Stack".into()),
        ..ClassifyContext::default()
    };
    classify(&resource(t, &declared), &live, schema, &ctx)
}

/// The tier of the finding at `path`, if any.
fn tier_at(t: &str, declared: Value, live: Value, path: &str) -> Option<Tier> {
    classify_in(t, declared, live, &SchemaFacts::default())
        .into_iter()
        .find(|f| f.path == path)
        .map(|f| f.tier)
}

// ---- values read back in another form ------------------------------------

fn write_only(keys: &[&str]) -> SchemaFacts {
    SchemaFacts {
        write_only: keys.iter().map(|k| k.to_string()).collect(),
        ..SchemaFacts::default()
    }
}

#[test]
fn a_write_only_object_read_back_as_json_text_folds_while_it_is_unchanged() {
    let t = "AWS::StepFunctions::StateMachine";
    let definition = json!({"StartAt": "Charge", "States": {"Charge": {"Type": "Task",
        "Resource": "arn:aws:states:::lambda:invoke", "End": true}}});
    let declared =
        json!({"Definition": definition, "RoleArn": "arn:aws:iam::123456789012:role/sm"});
    let text = "{\n  \"States\" : {\"Charge\" : {\"End\" : true, \"Resource\" : \"arn:aws:states:::lambda:invoke\", \"Type\" : \"Task\"}},\n  \"StartAt\" : \"Charge\"\n}";
    let schema = write_only(&["Definition"]);
    let tier = |s: &str| {
        classify_in(
            t,
            declared.clone(),
            json!({"RoleArn": "arn:aws:iam::123456789012:role/sm", "DefinitionString": s}),
            &schema,
        )
        .into_iter()
        .find(|f| f.path == "DefinitionString")
        .map(|f| f.tier)
    };
    assert_eq!(tier(text), Some(Tier::AtDefault));
    // Edited in the console: another state machine now runs.
    let edited = text.replace("\"Charge\"", "\"Refund\"");
    assert_eq!(tier(&edited), Some(Tier::Undeclared));
    // The same text is no restatement of a property the read does return.
    let readable = classify_in(
        t,
        declared.clone(),
        json!({"RoleArn": "arn:aws:iam::123456789012:role/sm", "Definition": definition, "DefinitionString": text}),
        &SchemaFacts::default(),
    );
    assert!(readable
        .iter()
        .any(|f| f.path == "DefinitionString" && f.tier == Tier::Undeclared));
}

#[test]
fn a_field_parsed_from_a_declared_document_folds_only_while_the_document_holds_it() {
    let t = "AWS::Cognito::UserPoolIdentityProvider";
    let metadata = "<md:EntityDescriptor entityID=\"urn:acme-idp\"><md:IDPSSODescriptor>\
        <md:SingleSignOnService Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect\" \
        Location=\"https://login.acme.example/saml/sso\"/></md:IDPSSODescriptor></md:EntityDescriptor>";
    let declared = json!({"ProviderName": "Acme", "ProviderType": "SAML", "UserPoolId": "eu-west-1_abc",
        "ProviderDetails": {"MetadataFile": metadata}});
    let tier = |uri: &str| {
        tier_at(
            t,
            declared.clone(),
            json!({"ProviderName": "Acme", "ProviderType": "SAML", "UserPoolId": "eu-west-1_abc",
                "ProviderDetails": {"MetadataFile": metadata, "SSORedirectBindingURI": uri}}),
            "ProviderDetails.SSORedirectBindingURI",
        )
    };
    assert_eq!(
        tier("https://login.acme.example/saml/sso"),
        Some(Tier::AtDefault)
    );
    assert_eq!(
        tier("https://evil.example/saml/sso"),
        Some(Tier::Undeclared)
    );
    // A piece of a longer value (the binding's URN) is not a value read
    // out of the document.
    assert_eq!(tier("tc:SAML:2.0:bindings"), Some(Tier::Undeclared));
}
