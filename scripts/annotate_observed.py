#!/usr/bin/env python3
"""Say what was observed for every `observed` known default.

Rewrites the reason of each `source: observed` entry of
core/data/known-defaults.json whose reason is only the generic "AWS default
observed on a fresh deploy" with the evidence the golden corpus holds for
it: the values seen, on how many deploys and stacks, and why the value is a
default rather than something deploy-specific. Entries the generator
(core/data/generated/defaults.json) states with the same value (member by
member for an object), or as chosen at create, are dropped: the general
source covers them (except unset values: null, false, "", [], {} are decided
by observed entries only; a number, 0 included, is a setting).

    python3 scripts/annotate_observed.py [--corpus ../shared/corpus/cases]

Deterministic; rerunning on its own output changes nothing.
"""

import argparse
import glob
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNOWN = os.path.join(ROOT, "core/data/known-defaults.json")
GENERATED = os.path.join(ROOT, "core/data/generated/defaults.json")
GENERIC = {
    "AWS default observed on a fresh deploy",
    "AWS default for this configuration, observed on fresh deploys",
}
# A value naming something of one deploy: an account, an ARN, an AWS id, a
# CDK-minted name.
DEPLOY_SPECIFIC = re.compile(
    r"\b[0-9]{12}\b|arn:aws|\b(?:sg|subnet|vpc|ami|snap|vol|eni|rtb|igw|nat|tgw|i)-[0-9a-f]{8,}\b|[A-Za-z]+[0-9A-F]{8}\b"
)


def path_regex(p):
    """Entry path -> regex over the paths findings carry."""
    out = ""
    for part in re.split(r"(\.|\[[^\]]*\])", p):
        if not part:
            continue
        if part == ".":
            out += r"\."
        elif part == "*":
            out += r"(?:\d+|[^.\[]+)"
        elif part.startswith("["):
            out += r"\[" + re.escape(part[1:-1]).replace(r"\*", r"[^\]]*") + r"\]"
        else:
            out += re.escape(part)
    out = out.replace(r"\.(?:\d+|[^.\[]+)", r"(?:\.\d+|\[[^\]]*\]|\.[^.\[]+)")
    return re.compile("^" + out + "$")


def short(v):
    t = json.dumps(v, sort_keys=True, ensure_ascii=False)
    return t if len(t) <= 60 else t[:57] + "..."


def evidence(entry, cases):
    rx = path_regex(entry["path"])
    deploys, stacks, values = 0, set(), []
    for c in cases:
        t = c["resource"]["resourceType"]
        if entry["type"] not in ("*", t):
            continue
        for f in c["expected"]:
            if f["tier"] == "atDefault" and rx.match(f["path"]):
                deploys += 1
                stacks.add((c["resource"].get("constructPath") or "").split("/")[0])
                v = short(f.get("actual"))
                if v not in values:
                    values.append(v)
                break
    return deploys, len(stacks), values


def reason_for(entry, deploys, stacks, values):
    what = entry.get("values") or []
    shown = ", ".join(short(v) for v in what) if what else ", ".join(values[:3])
    cond = ""
    if entry.get("when"):
        cond = " where " + " and ".join(
            f"{k} is {' or '.join('absent' if a is None else short(a) for a in alts)}"
            for k, alts in sorted(entry["when"].items())
        )
    seen = f"observed: {shown} on {deploys} fresh deploy{'s' if deploys != 1 else ''} in {stacks} stack{'s' if stacks != 1 else ''}{cond}, the property left undeclared"
    placeholders = "${" in json.dumps(what)
    if placeholders:
        why = "the value is stated through the account/region/physical-id placeholders, so it holds for any deploy"
    elif stacks >= 2:
        why = "the same value on independent deploys, so an AWS default and not a deploy-specific value"
    elif DEPLOY_SPECIFIC.search(json.dumps(what)):
        why = "WARNING: the value names something of that deploy"
    else:
        why = "one stack only; the value names no account, region, id or resource of that deploy (a constant setting AWS applied), so it stands until a deploy with another value refutes it"
    return f"{seen}; {why}"


def is_unset(v):
    """True for a value classify treats as unset (trivially empty: null,
    false, "", [], an object of such): mined defaults never decide it. A
    number is never unset (0 is a setting); `False == 0` in Python, so the
    test is by type."""
    if isinstance(v, dict):
        return all(is_unset(x) for x in v.values())
    return v is None or v is False or (isinstance(v, (str, list)) and not v)


def same_value(a, b):
    """JSON equality that keeps `false` and `0` apart."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def covered(generated, t, path, v):
    """True when the generator states `v` at `path`, or `v` is an object
    whose every set member it states: classify folds such an object member
    by member, so the observed entry adds nothing."""
    g = generated.get((t, path))
    if g is not None and any(same_value(v, x) for x in g):
        return True
    if not isinstance(v, dict):
        return False
    members = {k: x for k, x in v.items() if not is_unset(x)}
    return bool(members) and all(covered(generated, t, f"{path}.{k}", x) for k, x in members.items())


def implies(narrow, wide):
    """True when every resource meeting the condition `narrow` meets `wide`:
    each property `wide` names, `narrow` names too, with values it lists."""
    return all(k in narrow and all(any(same_value(v, w) for w in ws) for v in narrow[k]) for k, ws in wide.items())


def covered_when(mined, e):
    """True when a conditioned generated entry states each of the observed
    entry's values under a condition the observed one implies."""
    hits = [g for g in mined if g["type"] == e["type"] and g["path"] == e["path"] and "values" in g and g.get("when")]
    return all(any(implies(e["when"], g["when"]) and any(same_value(v, x) for x in g["values"]) for g in hits) for v in e["values"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "cases"))
    a = ap.parse_args()
    cases = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(a.corpus, "*.json")))]
    if not cases:
        raise SystemExit(f"no corpus cases in {a.corpus}")
    doc = json.load(open(KNOWN))
    mined = json.load(open(GENERATED))["defaults"]
    generated = {(e["type"], e["path"]): e["values"] for e in mined if "values" in e and "when" not in e}
    # Values the documentation says AWS chooses at create time.
    chosen = {(e["type"], e["path"]) for e in mined if e.get("chosenAtCreate") and "when" not in e}
    kept, dropped = [], 0
    for e in doc["defaults"]:
        # Mined defaults never decide an unset (trivially empty) value, so an
        # observed entry for one stays.
        simple = (
            e.get("values")
            and not e.get("when")
            and not e.get("sameAs")
            and not any(is_unset(v) for v in e["values"])
        )
        same_choice = e.get("chosenAtCreate") and not e.get("when") and (e["type"], e["path"]) in chosen
        conditioned = (
            e.get("values") and e.get("when") and not e.get("sameAs") and not any(is_unset(v) for v in e["values"])
        )
        if (
            same_choice
            or (simple and all(covered(generated, e["type"], e["path"], v) for v in e["values"]))
            or (conditioned and covered_when(mined, e))
        ):
            dropped += 1
            continue
        if e.get("source") == "observed" and e.get("reason") in GENERIC:
            d, s, vals = evidence(e, cases)
            e["reason"] = reason_for(e, d, s, vals)
        kept.append(e)
    doc["defaults"] = kept
    with open(KNOWN, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(kept)} entries kept, {dropped} covered by generated knowledge dropped")


if __name__ == "__main__":
    main()
