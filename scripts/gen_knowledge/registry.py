"""Readers of the registry schemas: the bundled snapshot and the CDK service spec (schema + documentation text)."""
import gzip
import json
import struct
import zlib


MAX_DEPTH = 6


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

    def single_member(self, p):
        """(name, property) of a block type with exactly one member."""
        t = p.get("type") or {}
        if t.get("type") != "ref":
            return None
        members = (self.types.get((t.get("reference") or {}).get("$ref")) or {}).get("properties") or {}
        return next(iter(members.items())) if len(members) == 1 else None

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
            pattern = next(iter((cur.get("patternProperties") or {}).values()), None)
            cur = cur.get("items") if "items" in cur else (cur.get("additionalProperties") or pattern or {})
        else:
            cur = (cur.get("properties") or {}).get(seg)
    return resolve(doc, cur)


def writable(doc, path):
    """False for read-only properties (never configuration)."""
    ro = {p.replace("/properties/", "").replace("/", ".") for p in doc.get("readOnlyProperties") or []}
    return path not in ro and path.split(".")[0] not in ro
