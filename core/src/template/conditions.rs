//! Condition evaluation: `Fn::Equals`, `Fn::And`, `Fn::Or`, `Fn::Not`, `Condition`.
//!
//! Three-valued: `None` means "cannot tell". `And`/`Or` still give a
//! certain answer when a known operand decides it (false AND x = false).

use super::intrinsics::text;
use super::resolve::Resolver;
use crate::declared::DeclaredValue;
use serde_json::Value;

impl Resolver<'_> {
    /// Evaluates the named condition from the template's `Conditions`.
    pub(crate) fn condition(&mut self, name: &str) -> Option<bool> {
        if let Some(known) = self.conditions.get(name) {
            // Also reached for a condition still being evaluated: a cycle is `None`.
            return *known;
        }
        let template = self.template;
        let expr = template.conditions.get(name)?;
        self.conditions.insert(name.to_string(), None);
        let result = self.condition_expr(expr);
        self.conditions.insert(name.to_string(), result);
        result
    }

    /// Evaluates one condition expression.
    fn condition_expr(&mut self, expr: &Value) -> Option<bool> {
        let Value::Object(obj) = expr else {
            return None;
        };
        if obj.len() != 1 {
            return None;
        }
        let (name, arg) = obj.iter().next()?;
        match (name.as_str(), arg) {
            ("Condition", Value::String(other)) => self.condition(other),
            ("Fn::Not", Value::Array(items)) if items.len() == 1 => {
                self.condition_expr(&items[0]).map(|b| !b)
            }
            ("Fn::And", Value::Array(items)) if !items.is_empty() => self.combine(items, false),
            ("Fn::Or", Value::Array(items)) if !items.is_empty() => self.combine(items, true),
            ("Fn::Equals", Value::Array(items)) if items.len() == 2 => {
                let a = self.scratch(&items[0]);
                let b = self.scratch(&items[1]);
                values_equal(&a, &b)
            }
            _ => None,
        }
    }

    /// `And` (decisive = false) or `Or` (decisive = true) in Kleene logic.
    fn combine(&mut self, items: &[Value], decisive: bool) -> Option<bool> {
        let mut unknown = false;
        for item in items {
            match self.condition_expr(item) {
                Some(b) if b == decisive => return Some(decisive),
                Some(_) => {}
                None => unknown = true,
            }
        }
        (!unknown).then_some(!decisive)
    }
}

/// `Fn::Equals` on resolved values: scalars compare as text (CloudFormation
/// compares strings), containers structurally; anything unresolved is `None`.
fn values_equal(a: &DeclaredValue, b: &DeclaredValue) -> Option<bool> {
    if !a.is_fully_resolved() || !b.is_fully_resolved() {
        return None;
    }
    match (text(a), text(b)) {
        (Some(x), Some(y)) => Some(x == y),
        _ => Some(a == b),
    }
}
