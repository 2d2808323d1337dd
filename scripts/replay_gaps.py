#!/usr/bin/env python3
"""Why the general-knowledge replay disagrees with the corpus, case by case.

Reads a `realdrift corpus replay --without-observed` JSONL output and the
corpus, and puts each disagreeing case in one class, by the paths where it
differs:

  label       an unset value (false, 0, "", [], {}) the case labels
              atDefault where general knowledge leaves it silent: the
              corpus's label, not drift (mined defaults labelling such
              values cost more cases elsewhere than they win);
  no-source   some differing path's CloudFormation documentation and its
              service API model member documentation never speak of a
              default ("default", "omit", "if you don't", "not specified",
              "unless"): nothing pinned can state it;
  mentioned   every differing path's documentation speaks of a default:
              the most a better reading of the sources could explain.

  cargo build --locked -p realdrift-cli
  target/debug/realdrift corpus replay ../shared/corpus/cases \\
      --without-observed > /tmp/general.jsonl
  scripts/gen-knowledge.sh --check      # fetches the pinned packages once
  python3 scripts/replay_gaps.py /tmp/general.jsonl ../shared/corpus/cases

The classes are an upper bound on what the pinned sources can explain:
"mentioned" counts documentation that only names a default somewhere in
the text, not one stated for the value at hand.
"""

import argparse
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_knowledge as g  # noqa: E402

SPEAKS_OF_DEFAULT = re.compile(
    r"(?i)\bdefault|if you (do not|don.t)|\bomit|not specif|\bunless\b"
)
UNSET = (False, 0, "", None, [], {})


def property_docs(spec):
    """(type, dotted path) -> the property's CloudFormation documentation."""
    out = {}
    for r in spec.resources:
        walked = []
        spec.walk(r.get("properties") or {}, "", 0, walked)
        for full, _, p in walked:
            out[(r["cloudFormationType"], full)] = p.get("documentation") or ""
    return out


def member_docs(botocore, cfn_type, name, cache):
    """The API model documentation of every member named `name` in the
    models of the type's service."""
    key = (cfn_type.rsplit("::", 1)[0], name.lower())
    if key not in cache:
        texts = []
        for model in botocore.models_for(cfn_type):
            for shape in model["shapes"].values():
                for member, m in (shape.get("members") or {}).items():
                    if member.lower() == name.lower():
                        texts.append(m.get("documentation") or "")
        cache[key] = " ".join(texts)
    return cache[key]


def case_class(case, produced, docs, botocore, cache):
    """The class of one case, or None when it agrees."""
    expected = {(f["tier"], f["path"]): f for f in case["expected"]}
    got = {(f["tier"], f["path"]): f for f in produced}
    if set(expected) == set(got):
        return None
    t = case["resource"]["resourceType"]
    kinds = set()
    for tier, path in set(expected) ^ set(got):
        f = expected.get((tier, path)) or got[(tier, path)]
        if (
            (tier, path) in expected
            and tier == "atDefault"
            and f.get("actual") in UNSET
        ):
            kinds.add("label")
            continue
        dotted = re.sub(r"\[[^\]]*\]|\.\d+", "", path)
        text = docs.get((t, dotted), "") + " " + member_docs(
            botocore, t, dotted.split(".")[-1], cache
        )
        kinds.add("mentioned" if SPEAKS_OF_DEFAULT.search(text) else "no-source")
    for k in ("label", "no-source"):
        if k in kinds:
            return k
    return "mentioned"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("replay", help="JSONL output of corpus replay --without-observed")
    ap.add_argument("cases", help="the corpus case directory")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cache_dir = os.environ.get("KNOWLEDGE_CACHE", os.path.join(root, ".knowledge-cache"))
    ap.add_argument(
        "--service-spec",
        default=os.path.join(cache_dir, "aws-service-spec-0.1.216/package/db.json.gz"),
    )
    ap.add_argument(
        "--botocore", default=os.path.join(cache_dir, "botocore-1.44.8-py3-none-any.whl")
    )
    a = ap.parse_args()
    for p in (a.replay, a.cases, a.service_spec, a.botocore):
        if not os.path.exists(p):
            sys.exit(f"{p}: not found (run scripts/gen-knowledge.sh --check to fetch the packages)")
    docs = property_docs(g.Spec(a.service_spec))
    botocore = g.Botocore(a.botocore, os.path.join(root, "scripts/data/api-operations.json"))
    cache = {}
    classes = collections.Counter()
    total = 0
    with open(a.replay, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            total += 1
            path = os.path.join(a.cases, row["case"])
            try:
                with open(path, encoding="utf-8") as c:
                    case = json.load(c)
            except (OSError, ValueError) as e:
                sys.exit(f"{path}: {e}")
            k = case_class(case, row.get("findings") or [], docs, botocore, cache)
            classes[k or "exact"] += 1
    print(f"cases: {total}")
    for k in ("exact", "label", "no-source", "mentioned"):
        print(f"  {k:10} {classes[k]}")
    print(
        f"at most {classes['exact'] + classes['mentioned']}/{total} exact from better reading "
        "of the pinned sources"
    )


if __name__ == "__main__":
    main()
