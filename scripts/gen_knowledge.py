#!/usr/bin/env python3
"""Mine general AWS knowledge for realdrift's classify stage.

Inputs (pinned by scripts/gen-knowledge.sh, read offline):
  --service-spec  db.json.gz of npm @aws-cdk/aws-service-spec: every
                  CloudFormation type's registry schema (property tree, the
                  schema's own `defaultValue`) plus the CloudFormation
                  documentation text of every property.
  --botocore      the botocore wheel (PyPI): the service API models.
  --snapshot      core/data/schemas/registry-schemas.bin (cfn-lint's registry
                  schemas, already bundled): `insertionOrder`.

Output, in --out (deterministic: sorted, no clock):
  defaults.json    known defaults, each with `source` (schema | docs |
                   api-model) and the quoted evidence.
  type-rules.json  compare rules: unordered arrays (schema insertionOrder
                   false), case-insensitive identifiers (docs: "stored as a
                   lowercase string").
  MANIFEST.json    pinned versions, counts per source, content hash.

Conservative by construction: a default is taken only from a sentence that
states it and nothing else (no condition, no unit the property name does not
carry), and only when the value fits the property's type. Conditioned
defaults ("for Aurora, the default is ...") are skipped, never unconditioned.
"""

import argparse
import gzip
import hashlib
import html
import json
import os
import re
import struct
import zipfile
import zlib

MAX_DEPTH = 6

# --------------------------------------------------------------------------
# Sentences that state a default
# --------------------------------------------------------------------------

VALUE = r"(?P<v>``[^`]+``|`[^`]+`|\"[^\"]+\"|[A-Za-z0-9_.:/+-]+)"
UNIT = r"(?:\s+(?P<unit>[a-z]+))?"
DEFAULT_SENTENCES = [
    re.compile(r"^\*?default(?:\s+value)?\*?\s*:\s*" + VALUE + UNIT + r"\s*\.?$", re.I),
    re.compile(r"^(?:the\s+)?default(?:\s+value)?\s+is\s+" + VALUE + UNIT + r"\s*\.?$", re.I),
    re.compile(r"^(?:this\s+(?:property|parameter|value|setting)\s+)?defaults?\s+to\s+" + VALUE + UNIT + r"\s*\.?$", re.I),
    re.compile(r"^by\s+default,?\s+(?:this\s+(?:value|property|parameter|setting)\s+is\s+(?:set\s+to\s+)?|the\s+value\s+is\s+)" + VALUE + r"\s*\.?$", re.I),
    re.compile(
        r"^if\s+(?:not\s+specified|omitted|unspecified|you\s+(?:don't|do\s+not)\s+specify\s+(?:a\s+value|this\s+(?:property|parameter|value)|one)),?\s+"
        r"(?:the\s+default(?:\s+value)?\s+is|(?:it|this\s+(?:property|parameter|value))\s+defaults\s+to|the\s+value\s+defaults\s+to)\s+"
        + VALUE + UNIT + r"\s*\.?$",
        re.I,
    ),
]
# A list item naming the default among the allowed values:
# "- `DISABLED` (default value): ..." / "- `SAFE_DELETE` – (default) ...".
DEFAULT_ITEM = re.compile(r"^[-*]\s*`(?P<v>[^`]+)`\s*(?:[-–:]\s*)?\((?:the\s+)?default(?:\s+value)?\)", re.I)
QUOTED = re.compile(r"^(?:``(?P<a>[^`]+)``|`(?P<b>[^`]+)`|\"(?P<c>[^\"]+)\")$")
INTEGER = re.compile(r"^-?[0-9]+$")
NUMBER = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
BARE_TOKEN = re.compile(r"^[A-Za-z0-9_.:/+-]+$")

# Sentences saying AWS picks a value itself when none is given (placement,
# maintenance windows, the default security group): a value chosen at create
# time, not a constant.
CHOSEN_TRIGGER = re.compile(
    r"(?:^default\s*:|if\s+(?:you\s+(?:don't|do\s+not)\s+specify|not\s+specified|omitted|none\s+is\s+specified|no\s+value))",
    re.I,
)
CHOSEN_VERB = re.compile(
    r"\b(?:selected\s+at\s+random|chosen\s+at\s+random|randomly\s+(?:selected|chosen|assigned)|system[- ]chosen|"
    r"(?:aws|amazon\s+[a-z0-9]+|the\s+service)\s+(?:selects|chooses|picks)|"
    r"default\s+(?:vpc\s+)?security\s+group)\b",
    re.I,
)
# Names CloudFormation mints are the `generated` tier's business, not a default.
GENERATED_NAME = re.compile(r"physical\s+id|cloudformation\s+generates|generates\s+a\s+unique", re.I)

# Identifiers the documentation says AWS stores lower-cased.
LOWERCASE_STORED = re.compile(
    r"(?:stored\s+as\s+(?:a\s+)?lower[- ]?case|converted\s+to\s+lower[- ]?case|is\s+not\s+case[- ]sensitive|are\s+not\s+case[- ]sensitive|case[- ]insensitive)",
    re.I,
)


def sentences(text):
    """Splits documentation into sentences and markdown lines."""
    for line in re.split(r"\n+", text or ""):
        line = line.strip()
        if DEFAULT_ITEM.match(line):
            yield line
            continue
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z`*\"(])", line):
            part = part.strip().lstrip(">").strip()
            part = re.sub(r"^[-*+]\s+", "", part) if not DEFAULT_ITEM.match(part) else part
            if part:
                yield part


def parse_value(raw, kind, enum, unit, prop_name):
    """The stated value as JSON compatible with the property, or None."""
    raw = raw.strip()
    q = QUOTED.match(raw)
    text = next((g for g in q.groups() if g is not None), None) if q else raw
    if text is None or not BARE_TOKEN.match(text):
        return None
    if unit:
        # A unit is acceptable only when the property name carries it
        # ("HealthCheckGracePeriod ... Default: 0 seconds" does not).
        stem = unit.rstrip("s").lower()
        if stem not in prop_name.lower():
            return None
    if isinstance(enum, list):
        return text if text in enum else None
    if kind == "boolean":
        return {"true": True, "false": False}.get(text.lower())
    if kind == "integer":
        return int(text) if INTEGER.match(text) else None
    if kind == "number":
        if INTEGER.match(text):
            return int(text)
        return float(text) if NUMBER.match(text) else None
    if kind == "string" and q:
        return text
    if kind == "string" and (text.isupper() or re.match(r"^[A-Z][A-Z0-9_]+$", text)):
        return text
    return None


def stated_default(doc, kind, enum, prop_name):
    """(value, sentence) for the one default a doc text states, else None."""
    found = []
    for s in sentences(doc):
        m = DEFAULT_ITEM.match(s)
        if m:
            v = parse_value("`" + m.group("v") + "`", kind, enum, None, prop_name)
            if v is not None:
                found.append((v, s))
            continue
        for rx in DEFAULT_SENTENCES:
            m = rx.match(s)
            if m:
                v = parse_value(m.group("v"), kind, enum, m.groupdict().get("unit"), prop_name)
                if v is not None:
                    found.append((v, s))
                break
    values = {json.dumps(v, sort_keys=True) for v, _ in found}
    # Two different stated defaults = a conditioned default: skip.
    if len(values) != 1:
        return None
    return found[0]


def chosen_sentence(doc):
    for s in sentences(doc):
        if CHOSEN_TRIGGER.search(s) and CHOSEN_VERB.search(s) and not GENERATED_NAME.search(s):
            return s
    return None


def lowercase_sentence(doc):
    for s in sentences(doc):
        if LOWERCASE_STORED.search(s):
            return s
    return None


# --------------------------------------------------------------------------
# The registry schema snapshot (insertionOrder, enums, types)
# --------------------------------------------------------------------------


class Snapshot:
    def __init__(self, path):
        blob = open(path, "rb").read()
        n = struct.unpack("<I", blob[9:13])[0]
        header = json.loads(zlib.decompress(blob[13 : 13 + n]))
        self.base = 13 + n
        self.blob = blob
        self.index = {t: (o, l) for t, o, l in header["types"]}
        self.cache = {}

    def load(self, t):
        if t not in self.index:
            return None
        if t not in self.cache:
            o, l = self.index[t]
            self.cache[t] = json.loads(zlib.decompress(self.blob[self.base + o : self.base + o + l]))
        return self.cache[t]


def resolve(doc, node, seen=()):
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].split("/")[-1]
        if name in seen:
            return None
        seen = seen + (name,)
        node = (doc.get("definitions") or {}).get(name)
    return node


def schema_walk(doc, node, path, depth, out):
    """Yields (dotted path, node) for every property node of a schema."""
    node = resolve(doc, node)
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return
    out.append((path, node))
    if node.get("type") == "array" or "items" in node:
        items = node.get("items")
        if isinstance(items, dict):
            schema_walk(doc, items, path + ".*", depth + 1, out)
    for k, v in (node.get("properties") or {}).items():
        schema_walk(doc, v, path + "." + k if path else k, depth + 1, out)


# --------------------------------------------------------------------------
# The CDK service spec (documentation + schema defaults)
# --------------------------------------------------------------------------


class Spec:
    def __init__(self, path):
        db = json.load(gzip.open(path))["schema"]
        self.resources = db["resource"]["entities"]
        self.types = {t["$id"]: t for t in db["typeDefinition"]["entities"]}

    def walk(self, props, path, depth, out, seen=()):
        for name, p in sorted(props.items()):
            full = path + "." + name if path else name
            out.append((full, name, p))
            if depth >= MAX_DEPTH:
                continue
            t = p.get("type") or {}
            suffix = ""
            while t.get("type") in ("array", "map"):
                suffix += ".*"
                t = t.get("element") or {}
            if t.get("type") == "ref":
                rid = (t.get("reference") or {}).get("$ref")
                if rid in self.types and rid not in seen:
                    self.walk(self.types[rid].get("properties") or {}, full + suffix, depth + 1, out, seen + (rid,))


def kind_of(p):
    t = (p.get("type") or {}).get("type")
    return {"string": "string", "boolean": "boolean", "integer": "integer", "number": "number"}.get(t)


def schema_node_at(doc, path):
    cur = doc
    for seg in path.split("."):
        cur = resolve(doc, cur)
        if not isinstance(cur, dict):
            return None
        if seg == "*":
            cur = cur.get("items") if "items" in cur else (cur.get("additionalProperties") or {})
        else:
            cur = (cur.get("properties") or {}).get(seg)
    return resolve(doc, cur)


def writable(doc, path):
    """False for read-only properties (never configuration)."""
    ro = {p.replace("/properties/", "").replace("/", ".") for p in doc.get("readOnlyProperties") or []}
    return path not in ro and path.split(".")[0] not in ro


# --------------------------------------------------------------------------
# botocore (API models)
# --------------------------------------------------------------------------


def strip_html(s):
    s = re.sub(r"<code>(.*?)</code>", r"`\1`", s or "", flags=re.S)
    s = re.sub(r"</p>|<br/?>|</li>", "\n", s)
    s = re.sub(r"<[^>]+>", "", s)
    return html.unescape(s)


class Botocore:
    def __init__(self, wheel):
        self.models = {}
        z = zipfile.ZipFile(wheel)
        latest = {}
        for n in z.namelist():
            m = re.match(r"botocore/data/([^/]+)/([^/]+)/service-2\.json(\.gz)?$", n)
            if m and (m.group(1) not in latest or m.group(2) > latest[m.group(1)][0]):
                latest[m.group(1)] = (m.group(2), n)
        for svc, (_, n) in latest.items():
            raw = z.read(n)
            if n.endswith(".gz"):
                raw = gzip.decompress(raw)
            model = json.loads(raw)
            keys = {svc.lower().replace("-", "")}
            for k in ("serviceId", "endpointPrefix", "serviceAbbreviation"):
                v = model["metadata"].get(k)
                if v:
                    keys.add(re.sub(r"[^a-z0-9]", "", v.lower()))
            for k in keys:
                self.models.setdefault(k, model)

    def create_input(self, cfn_type):
        """(model, input shape) of the Create<Name> operation for a type."""
        _, svc, name = cfn_type.split("::")
        model = self.models.get(re.sub(r"[^a-z0-9]", "", svc.lower()))
        if not model:
            return None
        op = model["operations"].get("Create" + name)
        if not op or "input" not in op:
            return None
        return model, model["shapes"].get(op["input"]["shape"])

    @staticmethod
    def member(model, shape, name):
        """The member of a structure matching a CloudFormation property name."""
        if not shape:
            return None, None
        if shape.get("type") == "list":
            shape = model["shapes"].get(shape["member"]["shape"])
            if name == "*":
                return {"documentation": ""}, shape
        if not shape or shape.get("type") != "structure":
            return None, None
        for k, m in shape.get("members", {}).items():
            if k.lower() == name.lower():
                return m, model["shapes"].get(m["shape"])
        return None, None


# --------------------------------------------------------------------------


def generate(spec, boto, snap):
    defaults = {}
    unordered = []
    case_insensitive = []

    def add_default(t, path, value, source, quote, chosen=False):
        key = (t, path)
        if key in defaults:
            return  # first source wins: schema, then docs, then api-model
        e = {"type": t, "path": path, "source": source}
        if chosen:
            e["chosenAtCreate"] = True
        else:
            e["values"] = [value]
        e["quote"] = quote
        defaults[key] = e

    for r in sorted(spec.resources, key=lambda r: r["cloudFormationType"]):
        t = r["cloudFormationType"]
        doc = snap.load(t)
        if doc is None:
            continue
        props = []
        spec.walk(r.get("properties") or {}, "", 0, props)
        create = boto.create_input(t)
        for path, name, p in props:
            if not writable(doc, path):
                continue
            node = schema_node_at(doc, path) or {}
            kind = kind_of(p) or node.get("type")
            enum = node.get("enum")
            # 1. The registry schema's own default annotation.
            if "defaultValue" in p:
                try:
                    v = json.loads(p["defaultValue"])
                except (TypeError, ValueError):
                    v = None
                if v is not None:
                    add_default(t, path, v, "schema", "registry schema default: " + p["defaultValue"])
            text = p.get("documentation") or ""
            # 2. The CloudFormation documentation.
            hit = stated_default(text, kind, enum, name)
            if hit:
                add_default(t, path, hit[0], "docs", hit[1])
            elif "*" not in path:
                s = chosen_sentence(text)
                if s:
                    add_default(t, path, None, "docs", s, chosen=True)
            if kind == "string" and "*" not in path.split(".")[-1:]:
                s = lowercase_sentence(text)
                if s:
                    case_insensitive.append({"type": t, "path": path, "source": "docs", "reason": s})
            # 3. The service API model's documentation of the same member.
            if create and (t, path) not in defaults:
                model, shape = create
                member = None
                for seg in path.split("."):
                    member, shape = Botocore.member(model, shape, seg)
                    if member is None:
                        break
                if member is not None:
                    hit = stated_default(strip_html(member.get("documentation")), kind, enum, name)
                    if hit:
                        add_default(t, path, hit[0], "api-model", hit[1])
        # Schema-declared unordered arrays (insertionOrder: false).
        nodes = []
        for k, v in sorted((doc.get("properties") or {}).items()):
            schema_walk(doc, v, k, 0, nodes)
        for path, node in nodes:
            if node.get("insertionOrder") is False and writable(doc, path):
                unordered.append(
                    {"type": t, "path": path, "source": "schema", "reason": "registry schema: insertionOrder false"}
                )
    out_defaults = sorted(defaults.values(), key=lambda e: (e["type"], e["path"]))
    rules = {
        "caseInsensitive": sorted(case_insensitive, key=lambda e: (e["type"], e["path"])),
        "unorderedArrays": sorted(unordered, key=lambda e: (e["type"], e["path"])),
    }
    return out_defaults, rules


def dump(value):
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--service-spec", required=True)
    ap.add_argument("--service-spec-version", required=True)
    ap.add_argument("--botocore", required=True)
    ap.add_argument("--botocore-version", required=True)
    ap.add_argument("--snapshot", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    defaults, rules = generate(Spec(a.service_spec), Botocore(a.botocore), Snapshot(a.snapshot))
    os.makedirs(a.out, exist_ok=True)
    d_text = dump({"_doc": "Generated by scripts/gen-knowledge.sh; do not edit. Known defaults mined from the registry schema (schema), the CloudFormation documentation (docs) and the service API models (api-model); `quote` is the evidence.", "defaults": defaults})
    r_text = dump(dict({"_doc": "Generated by scripts/gen-knowledge.sh; do not edit. Compare rules mined from the registry schema and the CloudFormation documentation."}, **rules))
    counts = {}
    for e in defaults:
        counts[e["source"]] = counts.get(e["source"], 0) + 1
    manifest = {
        "generator": "scripts/gen-knowledge.sh",
        "serviceSpec": "@aws-cdk/aws-service-spec@" + a.service_spec_version,
        "botocore": "botocore==" + a.botocore_version,
        "defaultsBySource": counts,
        "caseInsensitive": len(rules["caseInsensitive"]),
        "unorderedArrays": len(rules["unorderedArrays"]),
        "defaultsSha256": hashlib.sha256(d_text.encode()).hexdigest(),
        "typeRulesSha256": hashlib.sha256(r_text.encode()).hexdigest(),
    }
    for name, text in (("defaults.json", d_text), ("type-rules.json", r_text), ("MANIFEST.json", dump(manifest))):
        with open(os.path.join(a.out, name), "w", encoding="utf-8") as f:
            f.write(text)
    print(json.dumps(manifest, sort_keys=True))


if __name__ == "__main__":
    main()
