//! A template written another way, or a read that lists the same members
//! in another order, must report exactly what the case reports. Each
//! rewrite keeps the meaning CloudFormation and AWS give the values:
//!
//! - a number or boolean written as a string (CloudFormation passes it to
//!   the property typed, as hand-written YAML templates rely on);
//! - a policy document in its other spellings: a single statement or a
//!   one-element list, a string or a one-element list of actions,
//!   resources, principals and condition values, an account id or the
//!   account's root ARN as principal, the document itself as JSON text;
//! - a collection AWS filled with its default, declared empty (`[]`, `{}`:
//!   CloudFormation passes it as unset);
//! - lists the registry schema calls unordered (`insertionOrder: false`)
//!   and tag lists, reversed in the template and, separately, in the read.
//!
//! Every case of the corpus is rewritten and replayed; the findings must
//! equal those of the case as recorded (a drift finding's desired value may
//! show the typed form of a retyped scalar).

mod corpus_support;

use corpus_support::corpus_cases;
use realdrift_core::classify::Knowledge;
use realdrift_core::corpus::{replay_case_with, CorpusCase};
use realdrift_core::normalize::canonicalize_for_compare;
use realdrift_core::normalize::scalars::is_stringly_equal;
use realdrift_core::{Finding, Tier};
use serde_json::{json, Map, Value};

/// Rewrites `v` in place; returns how many values it rewrote.
type Rewrite = fn(&mut Value) -> usize;

/// Every number and boolean as its string spelling.
fn retyped(v: &mut Value) -> usize {
    match v {
        Value::Number(n) => {
            *v = Value::String(n.to_string());
            1
        }
        Value::Bool(b) => {
            *v = Value::String(b.to_string());
            1
        }
        Value::Array(a) => a.iter_mut().map(retyped).sum(),
        Value::Object(o) => o.values_mut().map(retyped).sum(),
        _ => 0,
    }
}

/// The statement members whose value may be one item or a list of them.
const ONE_OR_MANY: &[&str] = &["Action", "NotAction", "Resource", "NotResource"];

/// Applies `f` to every policy statement under `v`.
fn statements(v: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>) -> usize) -> usize {
    match v {
        Value::Object(o) if o.contains_key("Statement") && o.contains_key("Version") => {
            match o.get_mut("Statement") {
                Some(Value::Array(a)) => a
                    .iter_mut()
                    .filter_map(Value::as_object_mut)
                    .map(&mut *f)
                    .sum(),
                Some(Value::Object(s)) => f(s),
                _ => 0,
            }
        }
        Value::Object(o) => o.values_mut().map(|x| statements(x, f)).sum(),
        Value::Array(a) => a.iter_mut().map(|x| statements(x, f)).sum(),
        _ => 0,
    }
}

/// The values of a statement that are one item or a list: its action and
/// resource lists, each principal kind, each condition key.
fn one_or_many(s: &mut Map<String, Value>) -> Vec<&mut Value> {
    let mut out = Vec::new();
    for (k, v) in s.iter_mut() {
        match (k.as_str(), v) {
            (k, v) if ONE_OR_MANY.contains(&k) => out.push(v),
            ("Principal" | "NotPrincipal", Value::Object(p)) => out.extend(p.values_mut()),
            ("Condition", Value::Object(ops)) => out.extend(
                ops.values_mut()
                    .filter_map(Value::as_object_mut)
                    .flat_map(|c| c.values_mut()),
            ),
            _ => {}
        }
    }
    out
}

/// `arn:aws:iam::<account>:root` as the bare account id, and back.
fn account_form(s: &str, to_root: bool) -> Option<String> {
    let digits = |x: &str| x.len() == 12 && x.bytes().all(|b| b.is_ascii_digit());
    if to_root {
        digits(s).then(|| format!("arn:aws:iam::{s}:root"))
    } else {
        s.strip_prefix("arn:aws:iam::")
            .and_then(|r| r.strip_suffix(":root"))
            .filter(|a| digits(a))
            .map(str::to_string)
    }
}

/// Rewrites the AWS principals of a statement to the other account form.
fn principals(s: &mut Map<String, Value>, to_root: bool) -> usize {
    let Some(Value::Object(p)) = s.get_mut("Principal") else {
        return 0;
    };
    let Some(aws) = p.get_mut("AWS") else {
        return 0;
    };
    let mut n = 0;
    let mut one = |x: &mut Value| {
        if let Some(r) = x.as_str().and_then(|t| account_form(t, to_root)) {
            *x = Value::String(r);
            n += 1;
        }
    };
    match aws {
        Value::Array(a) => a.iter_mut().for_each(&mut one),
        other => one(other),
    }
    n
}

/// Policy documents in their shortest spelling: one statement bare, one
/// item bare, an account root as its id.
fn collapsed(v: &mut Value) -> usize {
    let mut n = statements(v, &mut |s| {
        let mut n = principals(s, false);
        for x in one_or_many(s) {
            if let Value::Array(a) = x {
                if a.len() == 1 {
                    *x = a.remove(0);
                    n += 1;
                }
            }
        }
        n
    });
    n += single_statement(v);
    n
}

/// A one-statement list as the statement itself.
fn single_statement(v: &mut Value) -> usize {
    match v {
        Value::Object(o) if o.contains_key("Version") => match o.get_mut("Statement") {
            Some(Value::Array(a)) if a.len() == 1 => {
                let s = a.remove(0);
                o.insert("Statement".into(), s);
                1
            }
            _ => 0,
        },
        Value::Object(o) => o.values_mut().map(single_statement).sum(),
        Value::Array(a) => a.iter_mut().map(single_statement).sum(),
        _ => 0,
    }
}

/// Policy documents in their longest spelling: every item in a list, an
/// account id as its root ARN.
fn expanded(v: &mut Value) -> usize {
    statements(v, &mut |s| {
        let mut n = principals(s, true);
        for x in one_or_many(s) {
            if x.is_string() {
                *x = Value::Array(vec![x.take()]);
                n += 1;
            }
        }
        n
    })
}

/// Policy documents as the JSON text a template may give for a JSON
/// property.
fn as_text(v: &mut Value) -> usize {
    match v {
        Value::Object(o) if o.contains_key("Statement") && o.contains_key("Version") => {
            *v = Value::String(v.to_string());
            1
        }
        Value::Object(o) => o.values_mut().map(as_text).sum(),
        Value::Array(a) => a.iter_mut().map(as_text).sum(),
        _ => 0,
    }
}

/// Reverses the lists at the dotted `pattern` (`*` = any element) below `v`.
fn reverse_at(v: &mut Value, segs: &[&str]) -> usize {
    let Some((head, rest)) = segs.split_first() else {
        return match v {
            Value::Array(a) if a.len() > 1 => {
                a.reverse();
                1
            }
            _ => 0,
        };
    };
    match (v, *head) {
        (Value::Array(a), "*") => a.iter_mut().map(|x| reverse_at(x, rest)).sum(),
        (Value::Object(o), k) => o.get_mut(k).map_or(0, |x| reverse_at(x, rest)),
        _ => 0,
    }
}

/// The lists of a case whose order carries nothing: the schema's
/// unordered paths and the tag list.
fn unordered_paths(case: &CorpusCase) -> Vec<String> {
    let s = &case.schema;
    let mut paths: Vec<String> = s
        .unordered_scalar_paths
        .iter()
        .chain(&s.unordered_object_array_paths)
        .cloned()
        .collect();
    paths.push(s.tag_property.clone().unwrap_or_else(|| "Tags".into()));
    paths
}

/// A scalar and its string spelling count as the same value, and so do a
/// document and its JSON text (a desired value is shown as written).
fn loosely_equal(a: &Value, b: &Value) -> bool {
    let text = |v: &Value| {
        v.as_str()
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|x| canonicalize_for_compare(&x))
    };
    match (a, b) {
        (Value::String(_), Value::Object(_)) => text(a).is_some_and(|x| loosely_equal(&x, b)),
        (Value::Object(_), Value::String(_)) => text(b).is_some_and(|y| loosely_equal(a, &y)),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| loosely_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| loosely_equal(p, q)))
        }
        _ => a == b || is_stringly_equal(a, b),
    }
}

/// `v` with every list sorted (by its members' text), for values a read
/// may return in another order.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Array(a) => {
            let mut items: Vec<Value> = a.iter().map(sorted).collect();
            items.sort_by_cached_key(Value::to_string);
            Value::Array(items)
        }
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), sorted(x))).collect()),
        other => other.clone(),
    }
}

/// What differs between two replays of one case, if anything. A reported
/// live value is compared as is, or with its lists in any order when the
/// read was reordered.
fn differences(before: &[Finding], after: &[Finding], any_order: bool) -> Option<String> {
    let actual = |f: &Finding| match &f.actual {
        Some(v) if any_order => Some(sorted(v)),
        other => other.clone(),
    };
    let key = |f: &Finding| (format!("{:?}", f.tier), f.path.clone());
    let mut b: Vec<&Finding> = before.iter().collect();
    let mut a: Vec<&Finding> = after.iter().collect();
    b.sort_by_key(|f| key(f));
    a.sort_by_key(|f| key(f));
    let same = b.len() == a.len()
        && b.iter().zip(&a).all(|(x, y)| {
            key(x) == key(y)
                && actual(x) == actual(y)
                && match (&x.desired, &y.desired) {
                    (Some(p), Some(q)) => loosely_equal(p, q),
                    (p, q) => p == q,
                }
        });
    (!same).then(|| {
        let show = |v: &[&Finding]| {
            v.iter()
                .map(|f| format!("{:?}:{}", f.tier, f.path))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("before [{}] after [{}]", show(&b), show(&a))
    })
}

/// How a rewritten case's findings are held against the recorded ones.
#[derive(Clone, Copy, PartialEq)]
enum Hold {
    /// Exactly (a desired value may show another spelling).
    Same,
    /// With reported live lists in any order: the read was reordered.
    AnyOrder,
    /// Without `atDefault` findings at declared paths: a default declared
    /// empty may read as exactly what was declared.
    DeclaredQuiet,
}

/// Rewrites every case's declared values (or its read) and replays it;
/// returns how many values were rewritten and the cases that changed.
fn replay_rewritten(
    hold: Hold,
    knowledge: Knowledge,
    rewrite: &dyn Fn(&CorpusCase, &mut CorpusCase) -> usize,
) -> (usize, Vec<String>) {
    let (mut rewritten, mut changed) = (0, Vec::new());
    for case in corpus_cases() {
        let mut m = case.clone();
        let n = rewrite(&case, &mut m);
        if n == 0 {
            continue;
        }
        rewritten += n;
        let settle = |fs: Vec<Finding>| -> Vec<Finding> {
            fs.into_iter()
                .filter(|f| {
                    hold != Hold::DeclaredQuiet
                        || !(f.tier == Tier::AtDefault && m.resource.declared.contains_key(&f.path))
                })
                .collect()
        };
        let (before, after) = (
            settle(replay_case_with(&case, knowledge)),
            settle(replay_case_with(&m, knowledge)),
        );
        if let Some(d) = differences(&before, &after, hold == Hold::AnyOrder) {
            changed.push(format!("{}: {d}", case.resource.logical_id));
        }
    }
    (rewritten, changed)
}

/// Applies `f` to the declared values of `m`.
fn on_declared(m: &mut CorpusCase, f: Rewrite) -> usize {
    let mut d = Value::Object(std::mem::take(&mut m.resource.declared));
    let n = f(&mut d);
    if let Value::Object(o) = d {
        m.resource.declared = o;
    }
    n
}

/// Replays every case rewritten by `rewrite`: at least `min` values must
/// have been rewritten (`what` names them), and no case may change.
fn assert_holds(
    hold: Hold,
    what: &str,
    min: usize,
    rewrite: &dyn Fn(&CorpusCase, &mut CorpusCase) -> usize,
) {
    let (n, changed) = replay_rewritten(hold, Knowledge::All, rewrite);
    println!("{n} {what}");
    assert!(n >= min, "only {n} {what}");
    assert!(changed.is_empty(), "{what}: {changed:#?}");
}

#[test]
fn numbers_and_booleans_written_as_strings_report_the_same() {
    assert_holds(
        Hold::Same,
        "declared scalars written as strings",
        701,
        &|_, m| on_declared(m, retyped),
    );
}

#[test]
fn numbers_and_booleans_written_as_strings_report_the_same_on_general_knowledge() {
    // The registry schema types them: no observed fact is needed.
    let (n, changed) = replay_rewritten(Hold::Same, Knowledge::WithoutObserved, &|_, m| {
        on_declared(m, retyped)
    });
    assert!(n > 700, "only {n} values rewritten");
    assert!(changed.is_empty(), "{changed:#?}");
}

#[test]
fn policy_documents_in_their_shortest_spelling_report_the_same() {
    assert_holds(Hold::Same, "policy values collapsed", 51, &|_, m| {
        on_declared(m, collapsed)
    });
}

#[test]
fn policy_documents_in_their_longest_spelling_report_the_same() {
    assert_holds(Hold::Same, "policy values expanded", 51, &|_, m| {
        on_declared(m, expanded)
    });
}

#[test]
fn policy_documents_written_as_json_text_report_the_same() {
    assert_holds(Hold::Same, "policy documents as text", 31, &|_, m| {
        on_declared(m, as_text)
    });
}

/// The top-level collections AWS filled with a default the template left
/// out, declared empty instead: CloudFormation passes `[]` or `{}` as
/// unset and the service fills the same default.
fn declared_empty(case: &CorpusCase, m: &mut CorpusCase) -> usize {
    let mut n = 0;
    for f in case.expected.iter().filter(|f| f.tier == Tier::AtDefault) {
        let empty = match case.live_raw.get(&f.path) {
            Some(Value::Array(a)) if !a.is_empty() => json!([]),
            Some(Value::Object(o)) if !o.is_empty() => json!({}),
            _ => continue,
        };
        m.resource.declared.insert(f.path.clone(), empty);
        n += 1;
    }
    n
}

#[test]
fn a_default_declared_as_an_empty_collection_reports_the_same() {
    // Declared empty, a value AWS left all off reads as what was declared:
    // its `atDefault` finding may go; nothing else may change.
    assert_holds(
        Hold::DeclaredQuiet,
        "defaults declared as empty collections",
        301,
        &declared_empty,
    );
}

#[test]
fn unordered_lists_in_another_order_report_the_same() {
    let reverse_all = |case: &CorpusCase, v: &mut Value| -> usize {
        unordered_paths(case)
            .iter()
            .map(|p| reverse_at(v, &p.split('.').collect::<Vec<_>>()))
            .sum()
    };
    assert_holds(Hold::Same, "declared lists reversed", 31, &|case, m| {
        let mut d = Value::Object(std::mem::take(&mut m.resource.declared));
        let n = reverse_all(case, &mut d);
        if let Value::Object(o) = d {
            m.resource.declared = o;
        }
        n
    });

    assert_holds(Hold::AnyOrder, "live lists reversed", 51, &|case, m| {
        reverse_all(case, &mut m.live_raw)
    });
}
