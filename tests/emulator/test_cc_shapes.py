"""The endpoint's models look like real Cloud Control models: for each served
type, property names and value types are compared with the corpus liveRaw."""

import json

import pytest

import samples
from cloudcontrol.types import TYPES
from shapes import CorpusShapes, registry_schema, schema_mismatches, shapes


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


_ALL_SAMPLES = {name: (name, factory) for name, factory in samples.FACTORIES.items()} | samples.SCHEMA_ONLY


@pytest.mark.parametrize("sample", sorted(_ALL_SAMPLES))
def test_model_fits_the_registry_schema(aws, cc, sample):
    type_name, factory = _ALL_SAMPLES[sample]
    model = _read(cc, type_name, factory(aws))
    # Real reads carry a few keys the schema lacks (a rule's Id): those the corpus shows pass.
    real = {path for path, _ in CorpusShapes(type_name).seen}
    mismatches = schema_mismatches(model, registry_schema(type_name))
    assert [m for m in mismatches if m[0] not in real] == []


def test_rule_target_delivery_options_read_back_in_cloud_control_shape(aws, cc):
    model = _read(cc, "AWS::Events::Rule", samples.rule_with_delivery_options(aws))
    (target,) = model["Targets"]
    assert target["DeadLetterConfig"]["Arn"].startswith("arn:aws:sqs:")
    assert target["RetryPolicy"] == {"MaximumRetryAttempts": 4, "MaximumEventAgeInSeconds": 3600}
    assert target["InputTransformer"] == {"InputPathsMap": {"id": "$.detail.id"}, "InputTemplate": '{"order": <id>}'}


def test_bucket_logging_and_bucket_key_read_back(aws, cc):
    model = _read(cc, "AWS::S3::Bucket", samples.logged_bucket(aws))
    assert model["LoggingConfiguration"]["LogFilePrefix"] == "access/"
    assert model["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["BucketKeyEnabled"] is True


def test_bucket_configurations_read_back_as_s3_reports_them(aws, cc):
    model = _read(cc, "AWS::S3::Bucket", samples.configured_bucket(aws))
    notification = model["NotificationConfiguration"]
    assert notification["TopicConfigurations"] == [] and notification["LambdaConfigurations"] == []
    assert notification["EventBridgeConfiguration"] == {"EventBridgeEnabled": True}
    # S3 answers filter rule names capitalised, whatever case they were put in.
    assert notification["QueueConfigurations"][0]["Filter"] == {"S3Key": {"Rules": [{"Name": "Prefix", "Value": "archive/"}]}}
    (rule,) = model["ReplicationConfiguration"]["Rules"]
    assert rule["Filter"] == {"Prefix": "logs/"} and rule["Destination"]["StorageClass"] == "STANDARD_IA"
    assert rule["SourceSelectionCriteria"] == {"ReplicaModifications": {"Status": "Enabled"}}
    assert model["ObjectLockConfiguration"] == {
        "ObjectLockEnabled": "Enabled",
        "Rule": {"DefaultRetention": {"Mode": "GOVERNANCE", "Days": 30}},
    }


def test_registry_schema_check_catches_unknown_keys_and_wrong_types():
    schema = registry_schema("AWS::Events::Rule")
    good = {"Name": "r", "Targets": [{"Id": "t", "Arn": "a", "RetryPolicy": {"MaximumRetryAttempts": 3}}]}
    assert schema_mismatches(good, schema) == []
    bad = {"Name": 1, "Targets": [{"Id": "t", "DeadLetter": {}, "RetryPolicy": {"MaximumRetryAttempts": "3"}}]}
    assert schema_mismatches(bad, schema) == [
        ("Name", "number"),
        ("Targets.*.DeadLetter", "unknown property"),
        ("Targets.*.RetryPolicy.MaximumRetryAttempts", "string"),
    ]


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
