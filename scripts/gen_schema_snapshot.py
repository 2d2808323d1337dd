#!/usr/bin/env python3
"""Build realdrift's bundled CloudFormation registry-schema snapshot.

Input: the schema directory shipped by cfn-lint (providers/<region>.json and
resources/<hash>.json). Output, in --out:

  registry-schemas.bin  one file: magic, a zlib-compressed JSON index
                        (type -> byte range), then one zlib-compressed minified
                        JSON document per type, so the engine inflates only the
                        types it needs.
  doc-defaults.json     defaults stated only in property descriptions
                        ("Default: 30"), extracted conservatively.
  MANIFEST.json         provenance and content hashes, checked by the tests.

Deterministic: sorted keys, sorted types, fixed compression level, no clock.
Run through scripts/gen-schema-snapshot.sh, which pins cfn-lint.
"""

import argparse
import hashlib
import json
import os
import re
import struct
import sys
import zlib

MAGIC = b"RDSCHEMA\x01"
REGION = "us-east-1"
ZLIB_LEVEL = 9

# Top-level keys the engine reads; everything else (descriptions, cfn-lint
# additions such as requiredXor / dependentExcluded, sourceUrl) is dropped.
TOP_LIST_KEYS = (
    "readOnlyProperties",
    "writeOnlyProperties",
    "createOnlyProperties",
    "conditionalCreateOnlyProperties",
    "primaryIdentifier",
    "additionalIdentifiers",
)
TAGGING_KEYS = ("taggable", "tagOnCreate", "tagUpdatable", "cloudFormationSystemTags", "tagProperty")
# Per-node keys the engine reads.
NODE_SCALAR_KEYS = ("type", "$ref", "insertionOrder", "default", "enum")
NODE_MAP_KEYS = ("properties", "patternProperties")
NODE_LIST_KEYS = ("oneOf", "anyOf", "allOf")


def prune_node(node):
    """Keeps only the structural keys of one schema node."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key in NODE_SCALAR_KEYS:
        if key in node:
            out[key] = node[key]
    for key in NODE_MAP_KEYS:
        if isinstance(node.get(key), dict):
            out[key] = {k: prune_node(v) for k, v in node[key].items()}
    for key in NODE_LIST_KEYS:
        if isinstance(node.get(key), list):
            out[key] = [prune_node(v) for v in node[key]]
    if "items" in node:
        items = node["items"]
        out["items"] = [prune_node(v) for v in items] if isinstance(items, list) else prune_node(items)
    if "additionalProperties" in node:
        out["additionalProperties"] = prune_node(node["additionalProperties"])
    return out


def prune_document(doc):
    """Keeps only what the engine uses from one registry schema document."""
    out = {"typeName": doc["typeName"]}
    out["properties"] = {k: prune_node(v) for k, v in (doc.get("properties") or {}).items()}
    if isinstance(doc.get("definitions"), dict):
        out["definitions"] = {k: prune_node(v) for k, v in doc["definitions"].items()}
    for key in TOP_LIST_KEYS:
        if key in doc:
            out[key] = doc[key]
    if isinstance(doc.get("tagging"), dict):
        out["tagging"] = {k: doc["tagging"][k] for k in TAGGING_KEYS if k in doc["tagging"]}
    if "taggable" in doc:
        out["taggable"] = doc["taggable"]
    if isinstance(doc.get("propertyTransform"), dict):
        out["propertyTransform"] = doc["propertyTransform"]
    if isinstance(doc.get("handlers"), dict):
        out["handlers"] = sorted(doc["handlers"].keys())
    for key in NODE_LIST_KEYS:
        if isinstance(doc.get(key), list):
            out[key] = [prune_node(v) for v in doc[key]]
    return out


def minified(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# ---------------------------------------------------------------------------
# Doc-stated defaults
# ---------------------------------------------------------------------------

# A whole sentence that states a default and nothing else. Anything with a
# qualifier ("for Application Load Balancers"), a unit ("30 seconds") or a
# condition ("if not specified") does not match: conservative by construction.
DEFAULT_SENTENCE = re.compile(
    r"^(?:the\s+)?default(?:\s+value)?(?:\s+is|\s*:)\s+(?P<v>.+?)\.?$"
    r"|^defaults?\s+to\s+(?P<v2>.+?)\.?$"
    r"|^by\s+default,?\s+(?:this\s+is\s+set\s+to|the\s+value\s+is)\s+(?P<v3>.+?)\.?$",
    re.IGNORECASE,
)
QUOTED = re.compile(r"^(?:``(?P<a>[^`]+)``|`(?P<b>[^`]+)`|\"(?P<c>[^\"]+)\"|'(?P<d>[^']+)')$")
BARE_TOKEN = re.compile(r"^[A-Za-z0-9_.:/+-]+$")
INTEGER = re.compile(r"^-?[0-9]+$")
NUMBER = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
MENTIONS_DEFAULT = re.compile(r"\bdefault", re.IGNORECASE)


def sentences(text):
    """Splits a description into sentences and markdown lines."""
    for line in re.split(r"\n+", text):
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z`\"'(])", line.strip()):
            part = part.strip().lstrip("+*- ").strip()
            if part:
                yield part


def parse_stated_value(raw, node):
    """Parses a stated default into a value compatible with the node, or None."""
    raw = raw.strip()
    quoted = QUOTED.match(raw)
    text = next((g for g in quoted.groups() if g is not None), None) if quoted else raw
    if text is None or not BARE_TOKEN.match(text):
        return None
    kind = node.get("type")
    enum = node.get("enum")
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
    if kind == "string" and quoted:
        # Unquoted prose ("None", "the current region") is too ambiguous for a
        # free string; a quoted literal is the author naming the exact value.
        return text
    return None


def stated_default(description, node):
    """Returns (value, sentence) when the description states exactly one default."""
    statements = [s for s in sentences(description) if MENTIONS_DEFAULT.search(s)]
    if len(statements) != 1:
        return None
    match = DEFAULT_SENTENCE.match(statements[0])
    if not match:
        return None
    raw = match.group("v") or match.group("v2") or match.group("v3")
    value = parse_stated_value(raw, node)
    if value is None:
        return None
    return value, statements[0]


def resolve(doc, node, seen):
    """Follows local $refs; returns (node, seen) or (None, seen) on a cycle or a miss."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if ref in seen or not ref.startswith("#/"):
            return None, seen
        seen = seen | {ref}
        target = doc
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        node = target
    return node, seen


def branch_properties(doc, node, seen):
    """Fixed properties of a node, merged with those of its combinator branches."""
    props = {}
    for key in NODE_LIST_KEYS:
        for branch in node.get(key) or []:
            resolved, _ = resolve(doc, branch, seen)
            if isinstance(resolved, dict):
                for name, sub in branch_properties(doc, resolved, seen).items():
                    props.setdefault(name, sub)
    props.update(node.get("properties") or {})
    return props


def doc_defaults(doc):
    """Yields (path, value, sentence) for defaults stated only in descriptions."""
    found = []

    def walk(node, path, seen, depth):
        if depth > 32 or not isinstance(node, dict):
            return
        description = node.get("description")
        resolved, seen2 = resolve(doc, node, seen)
        if not isinstance(resolved, dict):
            return
        if not isinstance(description, str):
            description = resolved.get("description")
        has_schema_default = "default" in node or "default" in resolved
        scalar = resolved.get("type") in ("boolean", "integer", "number", "string")
        if path and scalar and not has_schema_default and isinstance(description, str):
            stated = stated_default(description, resolved)
            if stated is not None:
                found.append((path, stated[0], stated[1]))
        if "items" in resolved and isinstance(resolved["items"], dict):
            walk(resolved["items"], path + ".*", seen2, depth + 1)
            return
        for name, sub in branch_properties(doc, resolved, seen2).items():
            walk(sub, f"{path}.{name}" if path else name, seen2, depth + 1)

    walk({"properties": doc.get("properties") or {}}, "", frozenset(), 0)
    return found


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def build(schemas_dir, out_dir, cfn_lint_version):
    providers_path = os.path.join(schemas_dir, "providers", f"{REGION}.json")
    with open(providers_path, encoding="utf-8") as f:
        providers = json.load(f)
    schema_date = None
    version_path = os.path.join(schemas_dir, "version.json")
    if os.path.exists(version_path):
        with open(version_path, encoding="utf-8") as f:
            schema_date = json.load(f).get("schema_date")

    blobs = []
    index = []
    offset = 0
    content_hash = hashlib.sha256()
    defaults = []
    for type_name in sorted(providers):
        path = os.path.join(schemas_dir, "resources", f"{providers[type_name]}.json")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("typeName") != type_name:
            sys.exit(f"{path}: typeName {doc.get('typeName')!r} does not match {type_name!r}")
        body = minified(prune_document(doc))
        content_hash.update(body + b"\n")
        blob = zlib.compress(body, ZLIB_LEVEL)
        index.append([type_name, offset, len(blob)])
        blobs.append(blob)
        offset += len(blob)
        for dotted, value, sentence in doc_defaults(doc):
            defaults.append({"type": type_name, "path": dotted, "value": value, "source": sentence})

    header = {
        "format": 1,
        "region": REGION,
        "source": f"cfn-lint {cfn_lint_version}",
        "schemaDate": schema_date,
        "types": index,
    }
    header_blob = zlib.compress(minified(header), ZLIB_LEVEL)
    snapshot = MAGIC + struct.pack("<I", len(header_blob)) + header_blob + b"".join(blobs)

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "registry-schemas.bin"), "wb") as f:
        f.write(snapshot)
    defaults_bytes = (
        json.dumps(defaults, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    ).encode("utf-8")
    with open(os.path.join(out_dir, "doc-defaults.json"), "wb") as f:
        f.write(defaults_bytes)
    manifest = {
        "generator": "scripts/gen-schema-snapshot.sh",
        "cfnLint": cfn_lint_version,
        "region": REGION,
        "schemaDate": schema_date,
        "typeCount": len(index),
        "docDefaultCount": len(defaults),
        "snapshotSha256": hashlib.sha256(snapshot).hexdigest(),
        "contentSha256": content_hash.hexdigest(),
        "docDefaultsSha256": hashlib.sha256(defaults_bytes).hexdigest(),
    }
    with open(os.path.join(out_dir, "MANIFEST.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(manifest, sort_keys=True, indent=1) + "\n")
    print(
        f"{len(index)} types, snapshot {len(snapshot)} bytes, "
        f"{len(defaults)} doc-stated defaults -> {out_dir}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schemas-dir", required=True, help="cfnlint/data/schemas directory")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--cfn-lint-version", required=True)
    args = parser.parse_args()
    build(args.schemas_dir, args.out, args.cfn_lint_version)


if __name__ == "__main__":
    main()
