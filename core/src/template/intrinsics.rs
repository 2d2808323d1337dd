//! The intrinsic functions: `Ref`, `Fn::GetAtt`, `Fn::Sub`, `Fn::Join`, ...
//!
//! Every function is fail-closed: a missing input, a wrong shape or any
//! unresolved argument makes the result `Unresolved`.

use super::base64;
use super::cidr;
use super::resolve::{Out, Resolver};
use super::sub::{pieces, Piece};
use crate::declared::DeclaredValue;
use serde_json::Value;

impl Resolver<'_> {
    /// Dispatches one intrinsic whose output lands at `path`.
    pub(crate) fn intrinsic(&mut self, name: &str, arg: &Value, path: &str) -> Out {
        let v = match name {
            "Ref" => return self.reference(arg, path),
            "Fn::If" => return self.fn_if(arg, path),
            "Fn::GetAtt" => self.get_att(arg, path),
            "Fn::Sub" => self.sub(arg, path),
            "Fn::Join" => self.join(arg, path),
            "Fn::Select" => self.select(arg, path),
            "Fn::Split" => self.split(arg, path),
            "Fn::FindInMap" => self.find_in_map(arg, path),
            "Fn::ImportValue" => self.import_value(arg, path),
            "Fn::Base64" => self.base64(arg, path),
            "Fn::Cidr" => self.cidr(arg, path),
            // Fn::GetAZs depends on the account's view of the region; anything
            // else (Fn::Transform, Fn::Length, unknown tags) is not ours to guess.
            "Fn::GetAZs" => {
                self.fail(|| "Fn::GetAZs: depends on the account's view of the region".into());
                DeclaredValue::Unresolved
            }
            other => {
                self.fail(|| format!("{other}: not resolved by realdrift"));
                DeclaredValue::Unresolved
            }
        };
        Out::Value(v)
    }

    /// `Ref`: parameters, pseudo parameters, then resources (physical id).
    fn reference(&mut self, arg: &Value, path: &str) -> Out {
        let Value::String(name) = arg else {
            return Out::unresolved();
        };
        if let Some(pseudo) = name.strip_prefix("AWS::") {
            return self.pseudo(pseudo);
        }
        if let Some(param) = self.template.parameters.get(name) {
            if param.no_echo {
                // DescribeStacks masks NoEcho values; the real value is unknowable.
                self.mark_secret(path);
                self.fail(|| format!("Ref {name}: a NoEcho parameter, its value is masked"));
                return Out::unresolved();
            }
            let text = match self.ctx.parameter_values.get(name) {
                Some(v) => Some(v.clone()),
                // The Default of an SSM-typed parameter is the SSM key, not the value.
                None if param.is_ssm_lookup() => None,
                None => param.default.as_ref().and_then(scalar_json_text),
            };
            let Some(text) = text else {
                self.fail(|| format!("Ref {name}: the parameter has no known value"));
                return Out::unresolved();
            };
            let v = if param.is_list() {
                // CloudFormation trims each member of a comma-delimited list.
                DeclaredValue::Array(
                    text.split(',')
                        .map(|s| DeclaredValue::String(s.trim().to_string()))
                        .collect(),
                )
            } else {
                DeclaredValue::String(text)
            };
            return Out::Value(v);
        }
        match self.ctx.physical_ids.get(name) {
            Some(id) => Out::Value(DeclaredValue::String(id.clone())),
            None => {
                self.fail(|| {
                    format!("Ref {name}: no parameter, and no created resource of that name")
                });
                Out::unresolved()
            }
        }
    }

    /// `AWS::*` pseudo parameters (name without the prefix).
    fn pseudo(&mut self, name: &str) -> Out {
        let ctx = self.ctx;
        let v = match name {
            "NoValue" => return Out::Removed,
            "AccountId" => ctx.account_id.as_ref(),
            "Region" => ctx.region.as_ref(),
            "Partition" => ctx.partition.as_ref(),
            "URLSuffix" => ctx.url_suffix.as_ref(),
            "StackName" => ctx.stack_name.as_ref(),
            "StackId" => ctx.stack_id.as_ref(),
            // NotificationARNs and anything newer: not known to us.
            _ => None,
        };
        match v {
            Some(s) => Out::Value(DeclaredValue::String(s.clone())),
            None => {
                self.fail(|| format!("Ref AWS::{name}: not known for this stack"));
                Out::unresolved()
            }
        }
    }

    /// `Fn::If [cond, then, else]`: only the chosen branch is resolved.
    fn fn_if(&mut self, arg: &Value, path: &str) -> Out {
        let Some([Value::String(cond), then, other]) = as_array::<3>(arg) else {
            return Out::unresolved();
        };
        match self.condition(cond) {
            Some(true) => self.resolve(then, path),
            Some(false) => self.resolve(other, path),
            None => {
                self.fail(|| format!("Fn::If {cond}: the condition cannot be evaluated"));
                Out::unresolved()
            }
        }
    }

    /// `Fn::GetAtt [logical, attr]` or `"logical.attr"` against the live model.
    fn get_att(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let (logical, attr) = match arg {
            Value::String(s) => match s.split_once('.') {
                Some((l, a)) => (l.to_string(), a.to_string()),
                None => return DeclaredValue::Unresolved,
            },
            Value::Array(items) if items.len() == 2 => {
                let Value::String(l) = &items[0] else {
                    return DeclaredValue::Unresolved;
                };
                // The attribute name may itself be a Ref to a parameter.
                let Some(a) = text(&self.arg_value(&items[1], path)) else {
                    return DeclaredValue::Unresolved;
                };
                (l.clone(), a)
            }
            _ => return DeclaredValue::Unresolved,
        };
        self.live_attribute(&logical, &attr)
    }

    /// An attribute of a read resource: exact key first, then a dotted path.
    pub(crate) fn live_attribute(&mut self, logical: &str, attr: &str) -> DeclaredValue {
        let Some(model) = self.ctx.live_attrs.get(logical) else {
            self.fail(|| format!("Fn::GetAtt {logical}.{attr}: {logical} was not read"));
            return DeclaredValue::Unresolved;
        };
        let found = model
            .get(attr)
            .or_else(|| dotted_lookup(model, attr))
            .filter(|v| !v.is_null());
        match found {
            Some(v) => DeclaredValue::from_json(v),
            None => {
                self.fail(|| {
                    format!(
                        "Fn::GetAtt {logical}.{attr}: the live model of {logical} has no {attr}"
                    )
                });
                DeclaredValue::Unresolved
            }
        }
    }

    /// `Fn::Sub "str"` or `Fn::Sub ["str", {vars}]`.
    fn sub(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let (template, vars) = match arg {
            Value::String(s) => (s, None),
            Value::Array(items) if items.len() == 2 => match (&items[0], &items[1]) {
                (Value::String(s), Value::Object(vars)) => (s, Some(vars)),
                _ => return DeclaredValue::Unresolved,
            },
            _ => return DeclaredValue::Unresolved,
        };
        let Some(parts) = pieces(template) else {
            return DeclaredValue::Unresolved;
        };
        let mut out = String::new();
        for part in parts {
            let piece = match part {
                Piece::Text(t) => Some(t.to_string()),
                Piece::Var(name) => {
                    let v = match vars.and_then(|m| m.get(name)) {
                        Some(raw) => self.arg_value(raw, path),
                        None => self.sub_variable(name, path),
                    };
                    text(&v)
                }
            };
            match piece {
                Some(p) => out.push_str(&p),
                None => return DeclaredValue::Unresolved,
            }
        }
        DeclaredValue::String(out)
    }

    /// A `${Name}` / `${Res.Attr}` variable not given in the Sub map.
    fn sub_variable(&mut self, name: &str, path: &str) -> DeclaredValue {
        if !name.starts_with("AWS::") {
            if let Some((logical, attr)) = name.split_once('.') {
                return self.live_attribute(logical, attr);
            }
        }
        let mut reference = serde_json::Map::new();
        reference.insert("Ref".to_string(), Value::String(name.to_string()));
        match self.arg(&Value::Object(reference), path) {
            Out::Value(v) => v,
            Out::Removed => DeclaredValue::Unresolved,
        }
    }

    /// `Fn::Join [delimiter, [items]]`.
    fn join(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Some([delimiter, list]) = as_array::<2>(arg) else {
            return DeclaredValue::Unresolved;
        };
        let Some(delimiter) = text(&self.arg_value(delimiter, path)) else {
            return DeclaredValue::Unresolved;
        };
        let DeclaredValue::Array(items) = self.arg_value(list, path) else {
            return DeclaredValue::Unresolved;
        };
        let parts: Option<Vec<String>> = items.iter().map(text).collect();
        parts.map_or(DeclaredValue::Unresolved, |p| {
            DeclaredValue::String(p.join(&delimiter))
        })
    }

    /// `Fn::Select [index, [items]]`; out of range is unresolved.
    fn select(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Some([index, list]) = as_array::<2>(arg) else {
            return DeclaredValue::Unresolved;
        };
        let Some(index) = index_of(&self.arg_value(index, path)) else {
            return DeclaredValue::Unresolved;
        };
        let list = self.arg_value(list, path);
        // Any unresolved member might have been NoValue, shifting every index.
        if !list.is_fully_resolved() {
            return DeclaredValue::Unresolved;
        }
        match list {
            DeclaredValue::Array(items) => items
                .into_iter()
                .nth(index)
                .unwrap_or(DeclaredValue::Unresolved),
            _ => DeclaredValue::Unresolved,
        }
    }

    /// `Fn::Split [delimiter, source]`.
    fn split(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Some([delimiter, source]) = as_array::<2>(arg) else {
            return DeclaredValue::Unresolved;
        };
        let delimiter = self.arg_value(delimiter, path);
        let source = self.arg_value(source, path);
        match (delimiter, source) {
            (DeclaredValue::String(d), DeclaredValue::String(s)) if !d.is_empty() => {
                DeclaredValue::Array(
                    s.split(d.as_str())
                        .map(|p| DeclaredValue::String(p.to_string()))
                        .collect(),
                )
            }
            _ => DeclaredValue::Unresolved,
        }
    }

    /// `Fn::FindInMap [map, top, second]` (+ an optional `{DefaultValue}`).
    fn find_in_map(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Value::Array(items) = arg else {
            return DeclaredValue::Unresolved;
        };
        if items.len() != 3 && items.len() != 4 {
            return DeclaredValue::Unresolved;
        }
        let mut keys = Vec::with_capacity(3);
        for raw in &items[..3] {
            match text(&self.arg_value(raw, path)) {
                Some(k) => keys.push(k),
                None => return DeclaredValue::Unresolved,
            }
        }
        let found = self
            .template
            .mappings
            .get(&keys[0])
            .and_then(|m| m.get(&keys[1]))
            .and_then(|m| m.get(&keys[2]));
        match (found, items.get(3)) {
            (Some(v), _) => DeclaredValue::from_json(v),
            (None, Some(Value::Object(opts))) => match opts.get("DefaultValue") {
                Some(d) if opts.len() == 1 => self.arg_value(d, path),
                _ => DeclaredValue::Unresolved,
            },
            (None, _) => DeclaredValue::Unresolved,
        }
    }

    /// `Fn::ImportValue name` against the prefetched exports.
    fn import_value(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Some(name) = text(&self.arg_value(arg, path)) else {
            return DeclaredValue::Unresolved;
        };
        match self.ctx.exports.as_ref().map(|e| e.get(&name)) {
            Some(Some(v)) => DeclaredValue::String(v.clone()),
            Some(None) => {
                self.fail(|| format!("Fn::ImportValue {name}: no such export"));
                DeclaredValue::Unresolved
            }
            None => {
                self.fail(|| format!("Fn::ImportValue {name}: exports unavailable"));
                DeclaredValue::Unresolved
            }
        }
    }

    /// `Fn::Base64 string`: a pure transform, so it is resolved.
    fn base64(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        match self.arg_value(arg, path) {
            DeclaredValue::String(s) => DeclaredValue::String(base64::encode(s.as_bytes())),
            _ => DeclaredValue::Unresolved,
        }
    }

    /// `Fn::Cidr [ipBlock, count, cidrBits]`.
    fn cidr(&mut self, arg: &Value, path: &str) -> DeclaredValue {
        let Some([block, count, bits]) = as_array::<3>(arg) else {
            return DeclaredValue::Unresolved;
        };
        let block = self.arg_value(block, path);
        let count = self.arg_value(count, path);
        let bits = self.arg_value(bits, path);
        let (DeclaredValue::String(block), Some(count), Some(bits)) =
            (block, index_of(&count), index_of(&bits))
        else {
            return DeclaredValue::Unresolved;
        };
        let (Ok(count), Ok(bits)) = (u64::try_from(count), u64::try_from(bits)) else {
            return DeclaredValue::Unresolved;
        };
        cidr::split(&block, count, bits).map_or(DeclaredValue::Unresolved, |subnets| {
            DeclaredValue::Array(subnets.into_iter().map(DeclaredValue::String).collect())
        })
    }
}

/// An argument that must be an array of exactly `N` items.
fn as_array<const N: usize>(v: &Value) -> Option<&[Value; N]> {
    match v {
        Value::Array(items) => items.as_slice().try_into().ok(),
        _ => None,
    }
}

/// The text of a resolved scalar (CloudFormation stringifies numbers and booleans).
pub(crate) fn text(v: &DeclaredValue) -> Option<String> {
    match v {
        DeclaredValue::String(s) => Some(s.clone()),
        DeclaredValue::Number(n) => Some(n.to_string()),
        DeclaredValue::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The text of a raw JSON scalar (a parameter `Default`).
fn scalar_json_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A non-negative integer index given as a number or a decimal string.
fn index_of(v: &DeclaredValue) -> Option<usize> {
    match v {
        DeclaredValue::Number(n) => n.as_u64().and_then(|i| usize::try_from(i).ok()),
        DeclaredValue::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().ok()
        }
        _ => None,
    }
}

/// Follows `a.b.0.c` through objects and arrays.
fn dotted_lookup<'v>(model: &'v Value, attr: &str) -> Option<&'v Value> {
    attr.split('.').try_fold(model, |node, segment| match node {
        Value::Object(o) => o.get(segment),
        Value::Array(a) => segment.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}
