"""Compare Cloud Control model shapes (property names and value types)."""

import glob
import json
import os
import struct
import zlib

#: JSON documents inside models (policy documents, event patterns): their
#: content is user data with no fixed keys, so only their type is compared.
OPAQUE_PATHS = frozenset(
    {
        "AssumeRolePolicyDocument",
        "Policies.*.PolicyDocument",
        "EventPattern",
        "ResourcePolicyDocument",
        "DataProtectionPolicy",
        "FilterPolicy",
        "DeliveryPolicy",
        "ReplayPolicy",
    }
)


def kind(value) -> str:
    """The JSON type of a value: string, number, bool, object, array or null."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def shapes(value, opaque=frozenset(), path: str = "") -> set:
    """Every (dotted path, kind) in a model; array elements are '*'."""
    out = set()
    if path:
        out.add((path, kind(value)))
    if path in opaque:
        return out
    if isinstance(value, dict):
        for key, child in value.items():
            out |= shapes(child, opaque, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for child in value:
            out |= shapes(child, opaque, f"{path}.*" if path else "*")
    return out


def corpus_dir() -> str:
    """Where the golden corpus cases are (REALDRIFT_CORPUS_DIR overrides)."""
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "..", "shared", "corpus", "cases")
    return os.environ.get("REALDRIFT_CORPUS_DIR", default)


def corpus_cases(type_name: str) -> list:
    """(live model, schema) of every corpus case of a type."""
    pattern = os.path.join(corpus_dir(), type_name.replace("::", "__") + ".*.json")
    out = []
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        out.append((case["liveRaw"], case.get("schema", {})))
    return out


class CorpusShapes:
    """What the corpus says real Cloud Control models of one type look like."""

    def __init__(self, type_name: str):
        cases = corpus_cases(type_name)
        self.count = len(cases)
        free_form = set()
        for _, schema in cases:
            free_form |= set(schema.get("freeFormMapPaths", []))
        self.opaque = OPAQUE_PATHS | free_form
        self.seen = set()
        self.always = None
        for live, _ in cases:
            self.seen |= shapes(live, self.opaque)
            keys = set(live)
            self.always = keys if self.always is None else self.always & keys
        self.always = self.always or set()

    def unknown(self, model: dict) -> list:
        """(path, kind) pairs of a model that no corpus case shows."""
        return sorted(shapes(model, self.opaque) - self.seen)

    def missing(self, model: dict, optional=frozenset()) -> list:
        """Top-level keys every corpus case has but the model lacks."""
        return sorted(self.always - set(model) - set(optional))


_KINDS = {"string": "string", "integer": "number", "number": "number", "boolean": "bool", "object": "object", "array": "array"}
_SNAPSHOT_MAGIC = b"RDSCHEMA\x01"


def registry_schema(type_name: str) -> dict:
    """The type's registry schema from realdrift's bundled snapshot
    (core/data/schemas/registry-schemas.bin, format in scripts/gen_schema_snapshot.py)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "core", "data", "schemas", "registry-schemas.bin"), "rb") as f:
        data = f.read()
    if not data.startswith(_SNAPSHOT_MAGIC):
        raise ValueError("not a realdrift schema snapshot")
    start = len(_SNAPSHOT_MAGIC) + 4
    (size,) = struct.unpack("<I", data[len(_SNAPSHOT_MAGIC) : start])
    index = json.loads(zlib.decompress(data[start : start + size]))
    for name, offset, length in index["types"]:
        if name == type_name:
            base = start + size + offset
            return json.loads(zlib.decompress(data[base : base + length]))
    raise KeyError(type_name)


def _resolve(node: dict, schema: dict) -> dict:
    while "$ref" in node:
        node = schema["definitions"][node["$ref"].rsplit("/", 1)[-1]]
    # A node defined by alternatives accepts the properties of any of them.
    for key in ("oneOf", "anyOf"):
        if key in node and "properties" not in node:
            merged = {}
            for branch in node[key]:
                merged.update(_resolve(branch, schema).get("properties", {}))
            node = {**node, "properties": merged} if merged else node
    return node


def schema_mismatches(model: dict, schema: dict) -> list:
    """(path, kind) of every value in a model that its registry schema does
    not allow: an unknown property, or a JSON type the schema does not give."""
    out = []

    def walk(value, node, path):
        node = _resolve(node, schema)
        types = node.get("type")
        allowed = {_KINDS[t] for t in ([types] if isinstance(types, str) else types or [])}
        if allowed and kind(value) not in allowed:
            out.append((path, kind(value)))
            return
        if isinstance(value, dict) and "properties" in node:
            free = "patternProperties" in node or node.get("additionalProperties", True) is not False
            for key, child in value.items():
                sub = f"{path}.{key}" if path else key
                if key in node["properties"]:
                    walk(child, node["properties"][key], sub)
                elif not free:
                    out.append((sub, "unknown property"))
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            for child in value:
                walk(child, node["items"], f"{path}.*")

    walk(model, {"properties": schema["properties"], "additionalProperties": False}, "")
    return sorted(out)
