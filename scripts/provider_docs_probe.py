#!/usr/bin/env python3
"""What the Terraform AWS provider's documentation would add to general
knowledge, measured against the corpus. A probe of a source we do not use.

The provider documents many defaults per argument ("Defaults to `ENABLED`.").
Its text ships, per resource argument, as doc comments of the `@pulumi/aws`
npm package. This script maps each CloudFormation type to a provider
resource (same resource name, or service + name, sharing at least 40% and
at least two of its top-level property names), reads the default each
top-level property's text states with the generator's own sentence parser
(`gen_knowledge.stated_default`), and reports:

  agreement     for every top-level value the corpus labels `atDefault`
                (what a fresh deploy returned), whether the provider states
                the same default, another one, or none;
  gain          the general-knowledge replay's cases that the stated
                defaults would make exact.

  npm pack @pulumi/aws@7.48.0 --pack-destination .knowledge-cache
  scripts/gen-knowledge.sh --check      # fetches the pinned AWS packages once
  target/debug/realdrift corpus replay ../shared/corpus/cases \\
      --without-observed --format jsonl > /tmp/general.jsonl
  python3 scripts/provider_docs_probe.py /tmp/general.jsonl ../shared/corpus/cases

A provider default that differs from what AWS returns would fold a real
change on paths the corpus never held, so a disagreement rate above zero
rules the source out as general knowledge (see docs/knowledge.md, "Sources
measured and not adopted").
"""

import argparse
import glob
import json
import os
import re
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_knowledge as g  # noqa: E402

PROVIDER_VERSION = "7.48.0"
# A doc comment and the argument it documents, inside an `XxxArgs` interface.
ARGUMENT = re.compile(r"/\*\*((?:(?!\*/).)*)\*/\s*(\w+)\??:", re.S)
ARGS_INTERFACE = re.compile(r"export interface (\w+)Args \{(.*?)\n\}", re.S)


def norm(name):
    """A name with case and separators removed, for matching across tools."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def provider_arguments(tgz):
    """{(module, resource): {argument: doc text}} from the package's typings."""
    out = {}
    with tarfile.open(tgz) as tar:
        for member in tar:
            parts = member.name.split("/")
            if len(parts) != 3 or parts[1] == "types" or not parts[2].endswith(".d.ts"):
                continue
            text = tar.extractfile(member).read().decode("utf-8")
            for m in ARGS_INTERFACE.finditer(text):
                out[(parts[1], m.group(1))] = {
                    a.group(2): re.sub(r"\n\s*\* ?", " ", a.group(1)).strip()
                    for a in ARGUMENT.finditer(m.group(2))
                }
    return out


def map_types(spec, provider):
    """{CloudFormation type: provider arguments} by name and shared properties."""
    out = {}
    for r in spec.resources:
        _, svc, name = r["cloudFormationType"].split("::")
        props = {norm(k) for k in r.get("properties") or {}}
        best = None
        for (_, cls), args in provider.items():
            n = norm(cls)
            if not (n in (norm(name), norm(svc + name)) or n.endswith(norm(name))
                    or norm(svc + name).endswith(n)):
                continue
            shared = len(props & {norm(k) for k in args})
            score = (shared / max(1, len(props)), shared)
            if shared >= 2 and score[0] >= 0.4 and (best is None or score > best[0]):
                best = (score, args)
        if best:
            out[r["cloudFormationType"]] = {norm(k): v for k, v in best[1].items()}
    return out


def stated(spec_types, mapped, t, prop):
    """The default the provider's text states for a top-level property."""
    doc = (mapped.get(t) or {}).get(norm(prop))
    if not doc:
        return None
    node = (spec_types.get(t) or {}).get("properties", {}).get(prop)
    hit = g.stated_default(doc, g.kind_of(node) if node else "string", None, prop)
    return hit[0] if hit else None


def same(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def agreement(cases, spec_types, mapped):
    """The (type, path)s whose stated default equals every value AWS
    returned, and those where some returned value differs."""
    agree, differ = set(), {}
    for case in cases.values():
        t = case["resource"]["resourceType"]
        for f in case["expected"]:
            if f["tier"] != "atDefault" or "." in f["path"] or "[" in f["path"]:
                continue
            v = stated(spec_types, mapped, t, f["path"])
            if v is None:
                continue
            if same(v, f.get("actual")):
                agree.add((t, f["path"]))
            else:
                differ[(t, f["path"])] = (v, f.get("actual"))
    return agree - set(differ), differ


def gained(replay, cases, spec_types, mapped):
    """Cases of the replay that the stated defaults would make exact."""
    n = 0
    for row in replay:
        case = cases[row["case"]]
        t = case["resource"]["resourceType"]
        want = {(f["tier"], f["path"]): f for f in case["expected"]}
        got = {(f["tier"], f["path"]) for f in row.get("findings") or []}
        if set(want) == got:
            continue
        explained = all(
            ("atDefault", p) in want and "." not in p and "[" not in p
            and same(stated(spec_types, mapped, t, p), want[("atDefault", p)].get("actual"))
            for tier, p in set(want) ^ got
        )
        n += explained
    return n


def read_json(path, parse):
    """The parsed content of a JSON (or JSONL) file; exits naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: {e}")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cache = os.environ.get("KNOWLEDGE_CACHE", os.path.join(root, ".knowledge-cache"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("replay", help="JSONL output of corpus replay --without-observed")
    ap.add_argument("cases", help="the corpus case directory")
    ap.add_argument("--provider", default=os.path.join(cache, f"pulumi-aws-{PROVIDER_VERSION}.tgz"))
    ap.add_argument(
        "--service-spec",
        default=os.path.join(cache, "aws-service-spec-0.1.216/package/db.json.gz"),
    )
    a = ap.parse_args()
    for p in (a.replay, a.cases, a.provider, a.service_spec):
        if not os.path.exists(p):
            sys.exit(f"{p}: not found (see this script's docstring for how to fetch it)")
    try:
        provider = provider_arguments(a.provider)
    except (OSError, tarfile.TarError, UnicodeDecodeError) as e:
        sys.exit(f"{a.provider}: not a readable npm package: {e}")
    spec = g.Spec(a.service_spec)
    spec_types = {r["cloudFormationType"]: r for r in spec.resources}
    mapped = map_types(spec, provider)
    cases = {}
    for path in glob.glob(os.path.join(a.cases, "*.json")):
        cases[os.path.basename(path)] = read_json(path, json.load)
    replay = read_json(a.replay, lambda f: [json.loads(line) for line in f])
    missing = [row["case"] for row in replay if row.get("case") not in cases]
    if missing:
        sys.exit(f"{a.replay}: cases not in {a.cases}: {', '.join(missing[:5])}")
    agree, differ = agreement(cases, spec_types, mapped)
    print(f"types mapped to a provider resource: {len(mapped)}/{len(spec_types)}")
    print(f"top-level corpus defaults the provider states: {len(agree)} agree, "
          f"{len(differ)} differ")
    for (t, p), (said, aws) in sorted(differ.items()):
        print(f"  {t} {p}: provider says {json.dumps(said)}, AWS returned {json.dumps(aws)}")
    exact = sum(1 for row in replay if {(f['tier'], f['path']) for f in row.get('findings') or []}
                == {(f['tier'], f['path']) for f in cases[row['case']]['expected']})
    gain = gained(replay, cases, spec_types, mapped)
    print(f"general-knowledge replay: {exact}/{len(replay)} exact; "
          f"{gain} more with the provider's defaults")
    print(f"disagreement rate: {len(differ)}/{len(agree) + len(differ)} paths")


if __name__ == "__main__":
    main()
