"""The committed fixture template, created in the emulator with the patched
moto's CreateStack, lists every resource with the physical id real
CloudFormation reports and reads back as the template declares it."""

import json
import os
import re
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


def test_every_resource_is_created_with_a_physical_id(stack):
    assert stack["emulatorGaps"] == []
    assert all(r["physicalId"] for r in stack["resources"]), stack["resources"]


def test_list_stack_resources_rows_are_complete(stack, aws):
    rows = aws.cloudformation.list_stack_resources(StackName=stack["stackName"])["StackResourceSummaries"]
    by_id = {r["LogicalResourceId"]: r for r in rows}
    for res in stack["resources"]:
        row = by_id[res["logicalId"]]
        assert (row["ResourceType"], row["PhysicalResourceId"], row["ResourceStatus"]) == (
            res["type"],
            res["physicalId"],
            "CREATE_COMPLETE",
        )
    assert len(rows) == len(stack["resources"])


def test_physical_ids_are_those_cloudformation_reports(stack, cc, aws):
    name = stack["stackName"]
    assert _physical(stack, "AWS::S3::BucketPolicy") == _physical(stack, "AWS::S3::Bucket")
    assert re.fullmatch(rf"{name}-InboxPolicy63A7501F-[A-Z0-9]{{12}}", _physical(stack, "AWS::SQS::QueuePolicy"))
    subscription = _model(cc, "AWS::SNS::Subscription", _physical(stack, "AWS::SNS::Subscription"))
    assert subscription["TopicArn"] == _physical(stack, "AWS::SNS::Topic")
    permission = _physical(stack, "AWS::Lambda::Permission")
    assert permission.startswith(f"{name}-TickAllowEventRule")
    policy = json.loads(aws.lambda_.get_policy(FunctionName=_physical(stack, "AWS::Lambda::Function"))["Policy"])
    (statement,) = policy["Statement"]
    assert statement["Sid"] == permission
    assert statement["Principal"] == {"Service": "events.amazonaws.com"}


def test_fixups_are_listed_by_gap(stack):
    done = {(f["type"], f.get("property")) for f in stack["fixups"]}
    assert done == {
        ("AWS::S3::Bucket", "BucketEncryption"),
        ("AWS::S3::Bucket", "VersioningConfiguration"),
        ("AWS::S3::Bucket", "PublicAccessBlockConfiguration"),
        ("AWS::S3::BucketPolicy", None),
        ("AWS::SQS::QueuePolicy", None),
        ("AWS::SNS::Subscription", None),
        ("AWS::SNS::Topic", "DisplayName"),
        ("AWS::IAM::Role", "ManagedPolicyArns"),
        ("AWS::Lambda::Permission", None),
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
    subscription = _model(cc, "AWS::SNS::Subscription", _physical(stack, "AWS::SNS::Subscription"))
    assert (subscription["Protocol"], subscription["Endpoint"]) == ("sqs", queue["Arn"])
    assert subscription["RawMessageDelivery"] is False


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


def test_delete_stack_removes_what_the_patches_created(emulator, aws):
    summary = deploy_fixture.deploy(f"RealdriftDel{uuid.uuid4().hex[:6]}")
    ids = {r["type"]: r["physicalId"] for r in summary["resources"]}
    aws.cloudformation.delete_stack(StackName=summary["stackName"])
    stack = aws.cloudformation.describe_stacks(StackName=summary["stackId"])["Stacks"][0]
    assert stack["StackStatus"] == "DELETE_COMPLETE"
    arns = [s["SubscriptionArn"] for s in aws.sns.list_subscriptions()["Subscriptions"]]
    assert ids["AWS::SNS::Subscription"] not in arns
    roles = [r["RoleName"] for r in aws.iam.list_roles()["Roles"]]
    assert ids["AWS::IAM::Role"] not in roles
