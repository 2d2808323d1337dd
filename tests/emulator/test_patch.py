"""RFC 6902 patch application (pure)."""

import json

import pytest

from cloudcontrol.errors import Validation
from cloudcontrol.patch import apply_patch


def _apply(model, *ops):
    return apply_patch(model, json.dumps(list(ops)))


def test_add_replace_remove():
    model = {"A": 1, "L": [1, 2]}
    assert _apply(model, {"op": "add", "path": "/B", "value": {"x": 1}}) == {"A": 1, "L": [1, 2], "B": {"x": 1}}
    assert _apply(model, {"op": "replace", "path": "/A", "value": 2})["A"] == 2
    assert _apply(model, {"op": "remove", "path": "/A"}) == {"L": [1, 2]}
    assert model == {"A": 1, "L": [1, 2]}, "the input model is not mutated"


def test_array_insert_append_and_remove():
    model = {"L": ["a", "c"]}
    assert _apply(model, {"op": "add", "path": "/L/1", "value": "b"})["L"] == ["a", "b", "c"]
    assert _apply(model, {"op": "add", "path": "/L/-", "value": "d"})["L"] == ["a", "c", "d"]
    assert _apply(model, {"op": "remove", "path": "/L/0"})["L"] == ["c"]


def test_move_copy_test_and_escapes():
    model = {"a/b": 1, "m~n": 2}
    assert _apply(model, {"op": "move", "from": "/a~1b", "path": "/c"}) == {"m~n": 2, "c": 1}
    assert _apply(model, {"op": "copy", "from": "/m~0n", "path": "/d"})["d"] == 2
    assert _apply(model, {"op": "test", "path": "/a~1b", "value": 1}) == model


@pytest.mark.parametrize(
    "ops",
    [
        [{"op": "remove", "path": "/missing"}],
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "test", "path": "/A", "value": 2}],
        [{"op": "add", "path": "/L/9", "value": 1}],
        [{"op": "add", "path": "A", "value": 1}],
        [{"op": "add", "path": "/A"}],
        [{"op": "nope", "path": "/A"}],
        [{"op": "remove", "path": ""}],
    ],
)
def test_invalid_patches_raise_validation(ops):
    with pytest.raises(Validation):
        apply_patch({"A": 1, "L": []}, json.dumps(ops))


def test_non_json_and_non_array_documents():
    with pytest.raises(Validation):
        apply_patch({}, "not json")
    with pytest.raises(Validation):
        apply_patch({}, json.dumps({"op": "add"}))
