"""A bucket policy's verdict on one cross-account request, as IAM evaluates
resource-based policies — pure data in, "allow" or "deny" out (no moto
import), so s3_cross_account.py stays a thin hook.

What AWS documents and this follows:
- An explicit Deny wins; otherwise a cross-account request needs an Allow
  in the resource-based policy (IAM User Guide, "Cross-account policy
  evaluation logic":
  https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic-cross-account.html;
  "How AWS enforcement code logic evaluates requests":
  https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic_policy-eval-denyallow.html).
- Action and Resource match with `*` and `?` wildcards, actions case-
  insensitively; `${aws:...}` policy variables take the request context's
  value (IAM User Guide, "IAM policy elements: Variables and tags":
  https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html).
- Condition operators (IAM User Guide, "Condition operators":
  https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html):
  a key absent from the request context makes StringEquals / StringLike /
  Bool false and StringNotEquals / StringNotLike true.

Fail closed: anything this does not evaluate — another operator (IfExists,
ForAnyValue, Arn*, IpAddress, Null...), a context key it does not know,
NotPrincipal / NotAction / NotResource, a principal naming a role or user
(the caller's own ARN is not known here), an unknown policy variable —
makes an Allow statement not apply and a Deny statement apply."""

import json
import re

# Operators evaluated here: (compare, key-absent result). Anything else is unknown.
_STRING_OPS = {
    "StringEquals": (lambda want, got: want == got, False),
    "StringNotEquals": (lambda want, got: want != got, True),
    "StringEqualsIgnoreCase": (lambda want, got: want.lower() == got.lower(), False),
    "StringLike": (lambda want, got: _wildcard(want).fullmatch(got) is not None, False),
    "StringNotLike": (lambda want, got: _wildcard(want).fullmatch(got) is None, True),
    "Bool": (lambda want, got: want.lower() == got.lower(), False),
}

_UNKNOWN = object()


def _as_list(v):
    return v if isinstance(v, list) else [v]


def _wildcard(pattern: str, ignore_case: bool = False):
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile(body, re.IGNORECASE | re.DOTALL if ignore_case else re.DOTALL)


def _substitute(text: str, context: dict):
    """`text` with its policy variables replaced, or _UNKNOWN when one has no value."""
    out, unknown = [], False

    def var(m):
        nonlocal unknown
        name = m.group(1)
        if name in ("*", "?", "$"):
            return name
        value = context.get(name.lower())
        if value is None:
            unknown = True
            return ""
        return value

    out = re.sub(r"\$\{([^}]*)\}", var, text)
    return _UNKNOWN if unknown else out


def _matches_any(patterns, value: str, context: dict, ignore_case: bool):
    """True / False, or _UNKNOWN when a pattern's variable has no value."""
    unknown = False
    for p in _as_list(patterns):
        p = _substitute(str(p), context) if "${" in str(p) else str(p)
        if p is _UNKNOWN:
            unknown = True
        elif _wildcard(p, ignore_case).fullmatch(value):
            return True
    return _UNKNOWN if unknown else False


def _principal_matches(principal, account: str):
    if principal == "*":
        return True
    if not isinstance(principal, dict) or set(principal) != {"AWS"}:
        return _UNKNOWN  # service or federated principals
    unknown = False
    for v in _as_list(principal["AWS"]):
        if v in ("*", account, f"arn:aws:iam::{account}:root"):
            return True
        named = re.fullmatch(r"arn:aws[\w-]*:iam::(\d{12}):\S+", v)
        if named is None and re.fullmatch(r"\d{12}", v) is None:
            unknown = True  # not an account, nor an IAM ARN
        elif named is not None and named.group(1) == account:
            unknown = True  # a role or user of the caller's account: its own ARN is not known here
    return _UNKNOWN if unknown else False


def _conditions_hold(condition, context: dict):
    for op, pairs in (condition or {}).items():
        if op not in _STRING_OPS:
            return _UNKNOWN
        compare, absent = _STRING_OPS[op]
        for key, wanted in pairs.items():
            got = context.get(key.lower())
            if got is None:
                if key.lower() not in context:
                    return _UNKNOWN  # a key this evaluator does not know of
                if not absent:
                    return False
                continue
            values = [_substitute(str(w), context) for w in _as_list(wanted)]
            if _UNKNOWN in values:
                return _UNKNOWN
            positive = not op.startswith("StringNot")
            hits = [compare(w, got) for w in values]
            if not (any(hits) if positive else all(hits)):
                return False
    return True


def _applies(st: dict, action: str, resource: str, context: dict):
    """Whether a statement applies to the request: True, False or _UNKNOWN."""
    if any(k in st for k in ("NotPrincipal", "NotAction", "NotResource")) or "Principal" not in st:
        return _UNKNOWN
    results = [
        _principal_matches(st["Principal"], context["aws:principalaccount"]),
        _matches_any(st.get("Action", []), action, context, ignore_case=True),
        _matches_any(st.get("Resource", []), resource, context, ignore_case=False),
        _conditions_hold(st.get("Condition"), context),
    ]
    if False in results:
        return False
    return _UNKNOWN if _UNKNOWN in results else True


def decide(policy: str, action: str, resource: str, context: dict) -> str:
    """"allow" or "deny" for a cross-account request: `action` (`s3:GetObject`),
    `resource` (an ARN), `context` (lower-case global keys -> value, None
    for a known key absent from this request; aws:principalaccount required)."""
    try:
        statements = _as_list(json.loads(policy or "{}").get("Statement", []))
    except (ValueError, AttributeError):
        return "deny"
    allowed = False
    for st in statements:
        applies = _applies(st, action, resource, context)
        effect = st.get("Effect")
        if effect == "Deny" and applies is not False:
            return "deny"
        if effect == "Allow" and applies is True:
            allowed = True
    return "allow" if allowed else "deny"
