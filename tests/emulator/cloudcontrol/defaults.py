"""Service defaults the endpoint reports for properties moto cannot store.

The table lives in ``data/service_defaults.json`` with a reason per entry."""

import copy
import json
import os

from .errors import EmulatorCannotWrite

_PATH = os.path.join(os.path.dirname(__file__), "data", "service_defaults.json")
with open(_PATH, encoding="utf-8") as _f:
    TABLE = {k: v for k, v in json.load(_f).items() if not k.startswith("_")}


def _fill(value, model: dict):
    if isinstance(value, str):
        return value.format(**{k: v for k, v in model.items() if isinstance(v, str)})
    if isinstance(value, dict):
        return {k: _fill(v, model) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, model) for v in value]
    return copy.deepcopy(value)


def defaults_for(type_name: str, model: dict) -> dict:
    """{property: value} of the fixed defaults that apply to this model."""
    return {k: _fill(e["value"], model) for k, e in TABLE.get(type_name, {}).items()}


def add_defaults(type_name: str, model: dict) -> dict:
    """The model with every fixed default it lacks filled in."""
    for key, value in defaults_for(type_name, model).items():
        model.setdefault(key, value)
    return model


def strip_defaults(type_name: str, before: dict, after: dict):
    """Remove fixed-default properties from an update; fail if one changes."""
    for key, value in defaults_for(type_name, before).items():
        if key in after and after[key] != before.get(key, value):
            raise EmulatorCannotWrite(type_name, key)
        before.pop(key, None)
        after.pop(key, None)
