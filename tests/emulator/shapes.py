"""Compare Cloud Control model shapes (property names and value types)."""

import glob
import json
import os

#: JSON documents inside models (policy documents, event patterns): their
#: content is user data with no fixed keys, so only their type is compared.
OPAQUE_PATHS = frozenset(
    {
        "AssumeRolePolicyDocument",
        "Policies.*.PolicyDocument",
        "EventPattern",
        "ResourcePolicyDocument",
        "DataProtectionPolicy",
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
