"""The endpoint's models look like real Cloud Control models: for each served
type, property names and value types are compared with the corpus liveRaw."""

import json

import pytest

import samples
from cloudcontrol.types import TYPES
from shapes import CorpusShapes, shapes


def _read(cc, type_name, ident) -> dict:
    desc = cc.get_resource(TypeName=type_name, Identifier=ident)["ResourceDescription"]
    return json.loads(desc["Properties"])


def test_every_served_type_has_a_sample_and_corpus_cases():
    assert set(samples.FACTORIES) == set(TYPES)
    for type_name in TYPES:
        assert CorpusShapes(type_name).count > 0, f"no corpus case for {type_name}"


@pytest.mark.parametrize("type_name", sorted(samples.FACTORIES))
def test_model_keys_and_types_match_the_corpus(aws, cc, type_name):
    ident = samples.FACTORIES[type_name](aws)
    model = _read(cc, type_name, ident)
    corpus = CorpusShapes(type_name)
    assert corpus.unknown(model) == [], "emitted (path, type) pairs no real Cloud Control read shows"
    assert corpus.missing(model) == [], "keys every real read has, missing here"


@pytest.mark.parametrize("type_name", sorted(samples.FACTORIES))
def test_identifier_is_the_primary_identifier(aws, cc, type_name):
    ident = samples.FACTORIES[type_name](aws)
    desc = cc.get_resource(TypeName=type_name, Identifier=ident)["ResourceDescription"]
    module = TYPES[type_name]
    assert desc["Identifier"] == json.loads(desc["Properties"])[module.PRIMARY_IDENTIFIER]
    assert desc["Identifier"] == ident


def test_shape_comparison_catches_a_wrong_type():
    corpus = CorpusShapes("AWS::SQS::Queue")
    good = {"QueueName": "q", "VisibilityTimeout": 30}
    assert corpus.unknown(good) == []
    assert corpus.unknown({"QueueName": "q", "VisibilityTimeout": True}) == [("VisibilityTimeout", "bool")]
    assert corpus.unknown({"QueueName": "q", "Visibility": 30}) == [("Visibility", "number")]


def test_shapes_walk_arrays_and_stop_at_opaque_documents():
    model = {"A": [{"B": 1}], "Doc": {"anything": {"deep": True}}}
    assert shapes(model, frozenset({"Doc"})) == {
        ("A", "array"),
        ("A.*", "object"),
        ("A.*.B", "number"),
        ("Doc", "object"),
    }
