//! CloudFormation templates: parsing (JSON/YAML) and fail-closed intrinsic resolution.
//!
//! [`Template::parse`] reads a body into [`Template`] (YAML short tags become
//! their long JSON form); [`resolve_resource`] turns a resource's raw
//! properties into `DeclaredValue`s using a [`ResolverContext`];
//! [`sibling_policy_names`] maps principals to the IAM policies attached to them.

pub(crate) mod base64;
mod cidr;
mod conditions;
mod context;
mod error;
mod intrinsics;
mod model;
mod parse;
mod references;
mod resolve;
mod short_tags;
mod siblings;
mod sub;
mod yaml;
mod yaml_scalar;

pub use context::{partition_for_region, ResolverContext};
pub use error::TemplateError;
pub use model::{Parameter, Template, TemplateResource};
pub use parse::{parse_document, template_hash};
pub use references::property_references;
pub use resolve::{evaluate_condition, resolve_resource, resolve_value, ResolvedResource};
pub use siblings::sibling_policy_names;
pub(crate) use yaml::read_yaml;
