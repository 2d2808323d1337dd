//! The in-memory shape of a CloudFormation template (raw, intrinsics unresolved).

use super::error::TemplateError;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A parsed template. Values are raw JSON with intrinsics in their long form.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Template {
    /// `AWSTemplateFormatVersion`, when present.
    pub format_version: Option<String>,
    /// `Description`, when present.
    pub description: Option<String>,
    /// `Transform` (a string or a list), when present.
    pub transform: Option<Value>,
    /// `Parameters` by name.
    pub parameters: BTreeMap<String, Parameter>,
    /// `Mappings` as written.
    pub mappings: Map<String, Value>,
    /// `Conditions` by name (each a condition expression).
    pub conditions: BTreeMap<String, Value>,
    /// `Resources` by logical id.
    pub resources: BTreeMap<String, TemplateResource>,
    /// `Outputs` as written.
    pub outputs: Map<String, Value>,
}

/// One template parameter declaration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parameter {
    /// The parameter `Type`, e.g. `String`, `CommaDelimitedList`.
    pub type_name: String,
    /// `Default`, when declared.
    pub default: Option<Value>,
    /// `NoEcho`: the deployed value is masked, so it is never known to us.
    pub no_echo: bool,
    /// `Description`, when declared.
    pub description: Option<String>,
}

/// One resource declaration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TemplateResource {
    /// `Type`, e.g. `AWS::S3::Bucket`.
    pub resource_type: String,
    /// `Properties` as written (intrinsics unresolved).
    pub properties: Map<String, Value>,
    /// `Condition` name gating the resource, when present.
    pub condition: Option<String>,
    /// `Metadata` as written.
    pub metadata: Map<String, Value>,
    /// CDK construct path from `Metadata."aws:cdk:path"`.
    pub construct_path: Option<String>,
    /// `DependsOn` logical ids.
    pub depends_on: Vec<String>,
    /// `DeletionPolicy` as written (a string, or an intrinsic under language extensions).
    pub deletion_policy: Option<Value>,
    /// `UpdateReplacePolicy` as written.
    pub update_replace_policy: Option<Value>,
}

impl Parameter {
    /// True for list-typed parameters, whose `Ref` is an array of strings.
    pub fn is_list(&self) -> bool {
        let t = self.type_name.as_str();
        t == "CommaDelimitedList" || t.starts_with("List<") || t.contains("<List<")
    }

    /// True for `AWS::SSM::Parameter::Value<..>` parameters: the value is an
    /// SSM lookup result, never the template `Default` (which names the SSM key).
    pub fn is_ssm_lookup(&self) -> bool {
        self.type_name.starts_with("AWS::SSM::Parameter::Value<")
    }
}

impl Template {
    /// Builds a template from an already-parsed JSON document, checking its shape.
    pub fn from_value(doc: Value) -> Result<Template, TemplateError> {
        let Value::Object(mut top) = doc else {
            return Err(TemplateError::shape(
                "(template)",
                "the document is not a JSON/YAML object",
            ));
        };
        let resources = match top.remove("Resources") {
            Some(Value::Object(r)) => read_resources(r)?,
            Some(_) => return Err(TemplateError::shape("Resources", "must be an object")),
            None => {
                return Err(TemplateError::shape(
                    "(template)",
                    "missing the Resources section",
                ))
            }
        };
        Ok(Template {
            format_version: optional_string(&mut top, "AWSTemplateFormatVersion", "")?,
            description: optional_string(&mut top, "Description", "")?,
            transform: top.remove("Transform"),
            parameters: read_parameters(section(&mut top, "Parameters")?)?,
            mappings: section(&mut top, "Mappings")?,
            conditions: section(&mut top, "Conditions")?.into_iter().collect(),
            resources,
            outputs: section(&mut top, "Outputs")?,
        })
    }

    /// The resource declared under `logical_id`, if any.
    pub fn resource(&self, logical_id: &str) -> Option<&TemplateResource> {
        self.resources.get(logical_id)
    }
}

/// Removes an optional top-level section that must be an object.
fn section(top: &mut Map<String, Value>, name: &str) -> Result<Map<String, Value>, TemplateError> {
    match top.remove(name) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m),
        Some(_) => Err(TemplateError::shape(name, "must be an object")),
    }
}

/// Removes an optional key that must be a string; `at` prefixes the error location.
fn optional_string(
    obj: &mut Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<String>, TemplateError> {
    match obj.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(TemplateError::shape(
            join_location(at, key),
            "must be a string",
        )),
    }
}

fn join_location(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

fn read_parameters(raw: Map<String, Value>) -> Result<BTreeMap<String, Parameter>, TemplateError> {
    let mut out = BTreeMap::new();
    for (name, decl) in raw {
        let at = format!("Parameters.{name}");
        let Value::Object(mut decl) = decl else {
            return Err(TemplateError::shape(at, "must be an object"));
        };
        let type_name = optional_string(&mut decl, "Type", &at)?
            .ok_or_else(|| TemplateError::shape(at.clone(), "missing Type"))?;
        // CloudFormation accepts NoEcho as a boolean or the string "true".
        let no_echo = match decl.get("NoEcho") {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s.eq_ignore_ascii_case("true"),
            _ => false,
        };
        let parameter = Parameter {
            type_name,
            default: decl.remove("Default"),
            no_echo,
            description: optional_string(&mut decl, "Description", &at)?,
        };
        out.insert(name, parameter);
    }
    Ok(out)
}

fn read_resources(
    raw: Map<String, Value>,
) -> Result<BTreeMap<String, TemplateResource>, TemplateError> {
    let mut out = BTreeMap::new();
    for (logical_id, decl) in raw {
        let resource = read_resource(&logical_id, decl)?;
        out.insert(logical_id, resource);
    }
    Ok(out)
}

fn read_resource(logical_id: &str, decl: Value) -> Result<TemplateResource, TemplateError> {
    let at = format!("Resources.{logical_id}");
    let Value::Object(mut decl) = decl else {
        return Err(TemplateError::shape(at, "a resource must be an object"));
    };
    let resource_type = optional_string(&mut decl, "Type", &at)?
        .ok_or_else(|| TemplateError::shape(at.clone(), "missing Type"))?;
    let properties = match decl.remove("Properties") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(_) => {
            return Err(TemplateError::shape(
                format!("{at}.Properties"),
                "must be an object",
            ))
        }
    };
    let metadata = match decl.remove("Metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(TemplateError::shape(
                format!("{at}.Metadata"),
                "must be an object",
            ))
        }
    };
    let construct_path = match metadata.get("aws:cdk:path") {
        Some(Value::String(p)) => Some(p.clone()),
        _ => None,
    };
    let depends_on = match decl.remove("DependsOn") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec![s],
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|i| match i {
                Value::String(s) => Ok(s),
                _ => Err(TemplateError::shape(
                    format!("{at}.DependsOn"),
                    "entries must be strings",
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(TemplateError::shape(
                format!("{at}.DependsOn"),
                "must be a string or a list of strings",
            ))
        }
    };
    Ok(TemplateResource {
        resource_type,
        properties,
        condition: optional_string(&mut decl, "Condition", &at)?,
        metadata,
        construct_path,
        depends_on,
        deletion_policy: decl.remove("DeletionPolicy"),
        update_replace_policy: decl.remove("UpdateReplacePolicy"),
    })
}
