"""The committed fixture template, created in the emulator with CreateStack
plus the harness fix-ups, reads back as the template declares it."""

import json
import os
import subprocess
import sys
import uuid

import pytest

import deploy_fixture
from cloudcontrol.types import TYPES
from shapes import CorpusShapes

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def stack(emulator):
    name = f"RealdriftFixture{uuid.uuid4().hex[:6]}"
    return deploy_fixture.deploy(name)


def _physical(stack, rtype):
    ids = [r["physicalId"] for r in stack["resources"] if r["type"] == rtype]
    assert len(ids) == 1, rtype
    return ids[0]


def _model(cc, rtype, ident):
    return json.loads(cc.get_resource(TypeName=rtype, Identifier=ident)["ResourceDescription"]["Properties"])


def test_every_resource_exists_or_is_an_asserted_gap(stack):
    gaps = {g["logicalId"] for g in stack["emulatorGaps"]}
    for res in stack["resources"]:
        assert res["physicalId"] or res["logicalId"] in gaps, res
    assert [g["type"] for g in stack["emulatorGaps"]] == ["AWS::Lambda::Permission"]


def test_fixups_are_listed_by_gap(stack):
    done = {(f["type"], f.get("property")) for f in stack["fixups"]}
    assert done == {
        ("AWS::S3::Bucket", "VersioningConfiguration"),
        ("AWS::S3::Bucket", "PublicAccessBlockConfiguration"),
        ("AWS::S3::BucketPolicy", None),
        ("AWS::SQS::QueuePolicy", None),
        ("AWS::SNS::Subscription", None),
        ("AWS::SNS::Topic", "DisplayName"),
        ("AWS::IAM::Role", "ManagedPolicyArns"),
    }


def test_declared_values_read_back_through_cloud_control(stack, cc, aws):
    bucket = _model(cc, "AWS::S3::Bucket", _physical(stack, "AWS::S3::Bucket"))
    assert bucket["VersioningConfiguration"] == {"Status": "Enabled"}
    assert bucket["PublicAccessBlockConfiguration"]["BlockPublicPolicy"] is True
    topic = _model(cc, "AWS::SNS::Topic", _physical(stack, "AWS::SNS::Topic"))
    assert topic["DisplayName"] == "realdrift fixture alerts"
    queue_url = _physical(stack, "AWS::SQS::Queue")
    queue = _model(cc, "AWS::SQS::Queue", queue_url)
    assert topic["Subscription"] == [{"Endpoint": queue["Arn"], "Protocol": "sqs"}]
    assert queue["VisibilityTimeout"] == 60
    role = _model(cc, "AWS::IAM::Role", _physical(stack, "AWS::IAM::Role"))
    assert role["ManagedPolicyArns"] == ["arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"]
    assert [p["PolicyName"] for p in role["Policies"]] == ["WorkerRoleDefaultPolicy1750E153"]
    policy = json.loads(aws.s3.get_bucket_policy(Bucket=bucket["BucketName"])["Policy"])
    assert policy["Statement"][0]["Resource"][0] == bucket["Arn"]
    queue_policy = json.loads(aws.sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["Policy"])["Attributes"]["Policy"])
    assert queue_policy["Statement"][0]["Condition"]["ArnEquals"]["aws:SourceArn"] == topic["TopicArn"]


def test_fixture_models_have_corpus_shapes(stack, cc):
    for res in stack["resources"]:
        if res["type"] not in TYPES:
            continue  # read by per-type service readers, not Cloud Control
        model = _model(cc, res["type"], res["physicalId"])
        corpus = CorpusShapes(res["type"])
        assert corpus.unknown(model) == [], res["type"]
        # moto does not add CloudFormation's aws:cloudformation:* stack tags,
        # and creates buckets without S3's default BucketOwnerEnforced controls.
        assert corpus.missing(model, optional={"Tags", "OwnershipControls"}) == [], res["type"]


def test_cli_prints_a_summary(emulator):
    name = f"RealdriftCli{uuid.uuid4().hex[:6]}"
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "deploy_fixture.py"), name],
        check=True, capture_output=True, text=True, env=dict(os.environ),
    ).stdout
    summary = json.loads(out)
    assert summary["stackName"] == name and summary["stackId"].startswith("arn:aws:cloudformation:")
