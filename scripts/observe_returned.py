#!/usr/bin/env python3
"""Derive the `returnedWhenSet` type rules from the golden corpus.

A declared top-level scalar the live read does not return is a read gap:
some handlers never echo a property. Where the corpus shows a property
returned on every deploy that declared it (in at least two stacks, and
never absent while declared), its absence means someone removed the value
(a log group's retention, a queue's KMS key), and the engine reports
declared drift instead. Only set values count: false, 0 and "" are what
handlers commonly omit, and the engine keeps those a read gap.

Rewrites the `returnedWhenSet` list of core/data/type-rules.json; every
other list is left as it is. Deterministic.

    python3 scripts/observe_returned.py [--corpus ../shared/corpus/cases] [--check]
"""

import argparse
import collections
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(ROOT, "core/data/type-rules.json")
MIN_STACKS = 2


def is_set_scalar(v):
    """A scalar a handler has no reason to omit (not an off value)."""
    if isinstance(v, (dict, list)) or v is None or v is False or v == "":
        return False
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0:
        return False
    return not (isinstance(v, str) and "__cdkrd_corpus_unresolved__" in v)


def top_level(paths):
    """Top-level property names of /properties/X pointers."""
    return {p.split("/")[2] for p in paths or [] if p.count("/") == 2 and p.startswith("/properties/")}


def observe(cases_dir):
    """(type, property) -> (deploys returned, stacks returned); plus the absent set."""
    returned = collections.defaultdict(lambda: [0, set()])
    absent = set()
    for path in sorted(glob.glob(os.path.join(cases_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        res, live = case["resource"], case.get("liveRaw")
        if not isinstance(live, dict):
            continue
        schema = case.get("schema") or {}
        skip = top_level(schema.get("writeOnlyPaths")) | set(schema.get("writeOnly") or [])
        skip |= top_level(schema.get("createOnlyPaths")) | set(schema.get("createOnly") or [])
        stack = (res.get("constructPath") or "").split("/")[0]
        for prop, value in (res.get("declared") or {}).items():
            if prop in skip or not is_set_scalar(value):
                continue
            key = (res["resourceType"], prop)
            if prop in live:
                returned[key][0] += 1
                returned[key][1].add(stack)
            else:
                absent.add(key)
    return returned, absent


def rules(cases_dir):
    returned, absent = observe(cases_dir)
    out = []
    for (rtype, prop), (deploys, stacks) in sorted(returned.items()):
        if (rtype, prop) in absent or len(stacks) < MIN_STACKS:
            continue
        out.append({
            "type": rtype,
            "path": prop,
            "source": "observed",
            "reason": f"observed: returned on all {deploys} deploys in {len(stacks)} stacks that declared it, "
                      "never absent while declared; a read without it means the value was removed",
        })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "cases"))
    ap.add_argument("--check", action="store_true", help="fail when the committed list differs")
    args = ap.parse_args()
    with open(RULES, encoding="utf-8") as f:
        doc = json.load(f)
    if not glob.glob(os.path.join(args.corpus, "*.json")):
        sys.exit(f"{args.corpus}: no corpus cases (*.json) to observe")
    want = rules(args.corpus)
    if args.check:
        if doc.get("returnedWhenSet") != want:
            sys.exit(f"{RULES}: returnedWhenSet is stale; run scripts/observe_returned.py")
        return
    doc["returnedWhenSet"] = want
    with open(RULES + ".tmp", "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    os.replace(RULES + ".tmp", RULES)
    print(f"{len(want)} returnedWhenSet rules")


if __name__ == "__main__":
    main()
