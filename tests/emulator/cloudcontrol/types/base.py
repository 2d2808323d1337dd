"""Helpers shared by the per-type modules (pure functions, no I/O)."""

from ..errors import EmulatorCannotWrite


def tag_list(tags) -> list:
    """Cloud Control's tag shape: a list of {"Key", "Value"} objects."""
    if isinstance(tags, dict):
        return [{"Key": k, "Value": v} for k, v in tags.items()]
    return [{"Key": t["Key"], "Value": t["Value"]} for t in tags or []]


def tag_map(tags) -> dict:
    """A {"Key": "Value"} map from Cloud Control's tag list (or None)."""
    return {t["Key"]: t["Value"] for t in tags or []}


def tag_changes(before, after):
    """(tags to set, keys to remove) turning ``before`` into ``after``."""
    old, new = tag_map(before), tag_map(after)
    to_set = {k: v for k, v in new.items() if old.get(k) != v}
    to_remove = [k for k in old if k not in new]
    return to_set, to_remove


def changed_keys(before: dict, after: dict) -> list:
    """Top-level properties whose value differs between two models."""
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def apply_writers(type_name: str, writers: dict, aws, ident: str, before: dict, after: dict, first=()):
    """Write each changed property through its writer (the ``first`` ones
    first, in that order, then the rest by name); a property with no writer
    is an emulator gap, reported rather than silently ignored."""
    keys = changed_keys(before, after)
    for key in [k for k in first if k in keys] + [k for k in keys if k not in first]:
        writer = writers.get(key)
        if writer is None:
            raise EmulatorCannotWrite(type_name, key)
        writer(aws, ident, before.get(key), after.get(key))


def put_if(model: dict, key: str, value):
    """Set ``model[key]`` only when value is not None (CC omits unset props)."""
    if value is not None:
        model[key] = value
