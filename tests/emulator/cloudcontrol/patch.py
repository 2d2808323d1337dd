"""RFC 6902 JSON Patch applied to a resource model (pure, no I/O)."""

import copy
import json

from .errors import Validation


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _split(pointer: str) -> list:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise Validation(f"JSON pointer must start with '/': {pointer!r}")
    return [_unescape(t) for t in pointer[1:].split("/")]


def _index(container: list, token: str, for_add: bool) -> int:
    if token == "-" and for_add:
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
        raise Validation(f"invalid array index {token!r}")
    idx = int(token)
    limit = len(container) if for_add else len(container) - 1
    if idx > limit:
        raise Validation(f"array index {idx} out of range")
    return idx


def _parent(doc, tokens: list):
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict):
            if token not in node:
                raise Validation(f"path segment {token!r} does not exist")
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, for_add=False)]
        else:
            raise Validation(f"path segment {token!r} is not a container")
    return node


def _get(doc, pointer: str):
    tokens = _split(pointer)
    if not tokens:
        return doc
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise Validation(f"path {pointer!r} does not exist")
        return parent[last]
    if isinstance(parent, list):
        return parent[_index(parent, last, for_add=False)]
    raise Validation(f"path {pointer!r} does not exist")


def _add(doc, pointer: str, value):
    tokens = _split(pointer)
    if not tokens:
        return value
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_index(parent, last, for_add=True), value)
    else:
        raise Validation(f"cannot add at {pointer!r}")
    return doc


def _remove(doc, pointer: str):
    tokens = _split(pointer)
    if not tokens:
        raise Validation("cannot remove the whole model")
    parent = _parent(doc, tokens)
    last = tokens[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise Validation(f"path {pointer!r} does not exist")
        del parent[last]
    elif isinstance(parent, list):
        del parent[_index(parent, last, for_add=False)]
    else:
        raise Validation(f"cannot remove {pointer!r}")
    return doc


def apply_patch(model: dict, patch_document: str) -> dict:
    """Return a new model: ``model`` with the JSON Patch document applied."""
    try:
        ops = json.loads(patch_document)
    except (TypeError, ValueError) as err:
        raise Validation(f"PatchDocument is not valid JSON: {err}") from err
    if not isinstance(ops, list):
        raise Validation("PatchDocument must be a JSON array of operations")
    doc = copy.deepcopy(model)
    for op in ops:
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise Validation(f"malformed patch operation: {op!r}")
        kind, path = op["op"], op["path"]
        if kind in ("add", "replace", "test") and "value" not in op:
            raise Validation(f"patch operation {kind} needs a value")
        if kind == "add":
            doc = _add(doc, path, copy.deepcopy(op["value"]))
        elif kind == "remove":
            doc = _remove(doc, path)
        elif kind == "replace":
            _get(doc, path)  # must exist
            doc = _remove(doc, path)
            doc = _add(doc, path, copy.deepcopy(op["value"]))
        elif kind == "move":
            value = _get(doc, op.get("from", ""))
            doc = _remove(doc, op["from"])
            doc = _add(doc, path, value)
        elif kind == "copy":
            doc = _add(doc, path, copy.deepcopy(_get(doc, op.get("from", ""))))
        elif kind == "test":
            if _get(doc, path) != op["value"]:
                raise Validation(f"patch test failed at {path!r}")
        else:
            raise Validation(f"unknown patch operation {kind!r}")
    if not isinstance(doc, dict):
        raise Validation("the patched model must be a JSON object")
    return doc
