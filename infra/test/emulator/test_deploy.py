"""The whole realdrift app, deployed into the local emulator with the real CDK
CLI (`cdk bootstrap` + `cdk deploy`), is really there afterwards: functions,
event source mappings, rules, queues, bucket and topic.

The deploy is the README's (conftest.py's `readme_deploy`: its commands run
one by one, home region eu-west-1 with the us-east-1 forwarder), so one
deploy serves both this file and test_readme_deploy.py. The function zips
hold the host binaries `cargo test --workspace` already built
(`scripts/build-functions.sh --test-build`): moto stores the code and never
runs it, and a second, cross-target cargo-lambda build of the whole
dependency tree cost 6-8 minutes of every CI run.

Run by infra/run-tests.sh, which starts a private emulator instance and exports
its endpoint. REALDRIFT_SKIP_INFRA_DEPLOY=1 skips it (with this reason printed);
nothing else does, so CI runs it.
"""

import collections
import json

import boto3
import pytest

from readme_deploy import HOME_REGION

# Resource types moto's CloudFormation does not create. It lists each as a row
# with an empty type and logical id; the test counts them instead of ignoring
# them (tests/emulator notes, EMULATOR-NOTES.md).
# The README's build, and so the functions' architecture.
ARCHITECTURE = "x86_64"

MOTO_UNSUPPORTED = {
    "AWS::CloudWatch::Alarm",
    "AWS::Lambda::EventInvokeConfig",
    "AWS::Lambda::ResourcePolicy",
    "AWS::SNS::TopicPolicy",
}


def client(service):
    """A client of the home region, where the README deploys the stack."""
    return boto3.client(service, region_name=HOME_REGION)


@pytest.fixture(scope="module")
def deployed(readme_deploy):
    return {"stack": readme_deploy["stack"], "template": readme_deploy["template"], "secret": readme_deploy["secret"]}


def physical_ids(stack, resource_type):
    rows = client("cloudformation").list_stack_resources(StackName=stack)["StackResourceSummaries"]
    return [r["PhysicalResourceId"] for r in rows if r.get("ResourceType") == resource_type]


def template_count(template, resource_type):
    return sum(1 for r in template["Resources"].values() if r["Type"] == resource_type)


def test_stack_is_created_with_every_resource_moto_supports(deployed):
    cf = client("cloudformation")
    assert cf.describe_stacks(StackName=deployed["stack"])["Stacks"][0]["StackStatus"] == "CREATE_COMPLETE"
    rows = cf.list_stack_resources(StackName=deployed["stack"])["StackResourceSummaries"]
    created = collections.Counter(r.get("ResourceType") for r in rows if r.get("ResourceType"))
    wanted = collections.Counter(r["Type"] for r in deployed["template"]["Resources"].values())
    for resource_type, n in wanted.items():
        if resource_type in MOTO_UNSUPPORTED:
            assert created[resource_type] == 0, f"moto now creates {resource_type}: move it out of MOTO_UNSUPPORTED"
        else:
            assert created[resource_type] == n, f"{resource_type}: {created[resource_type]} of {n}"
    # Each unsupported resource is still listed, as an empty row.
    assert sum(1 for r in rows if not r.get("ResourceType")) == sum(wanted[t] for t in MOTO_UNSUPPORTED)


def test_the_three_functions_exist_as_configured(deployed):
    lam = client("lambda")
    names = physical_ids(deployed["stack"], "AWS::Lambda::Function")
    ours = {}
    for name in names:
        config = lam.get_function(FunctionName=name)["Configuration"]
        if config["Runtime"] == "provided.al2023":
            ours[name] = config
    assert len(ours) == 3
    assert {n.split("-")[1].rstrip("0123456789ABCDEF").removesuffix("Function") for n in ours} == {"Scan", "OnChange", "Revert"}
    for config in ours.values():
        assert config["Architectures"] == [ARCHITECTURE]
        assert config["Handler"] == "bootstrap"
        variables = config["Environment"]["Variables"]
        assert variables["REALDRIFT_BUCKET"] in physical_ids(deployed["stack"], "AWS::S3::Bucket")
        assert variables["REALDRIFT_TOPIC_ARN"] in physical_ids(deployed["stack"], "AWS::SNS::Topic")
    scan = next(c for n, c in ours.items() if "-Scan" in n)
    assert scan["Environment"]["Variables"]["REALDRIFT_SLACK_SECRET_ID"] == deployed["secret"]
    assert scan["Environment"]["Variables"]["REALDRIFT_SCAN_QUEUE_URL"].endswith(
        next(u for u in physical_ids(deployed["stack"], "AWS::SQS::Queue") if "ScanWorkQueue" in u).rsplit("/", 1)[-1]
    )


def test_queues_feed_scan_and_on_change(deployed):
    queues = physical_ids(deployed["stack"], "AWS::SQS::Queue")
    # Two work queues, their dead-letter queues, and the failed-trigger queue.
    assert len(queues) == 5
    sqs = client("sqs")
    for url in queues:
        attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        if "DeadLetter" not in url and "FailedTriggers" not in url:
            assert json.loads(attrs["RedrivePolicy"])["maxReceiveCount"] == 3
    change = next(u for u in queues if "ChangesQueue" in u)
    assert sqs.get_queue_attributes(QueueUrl=change, AttributeNames=["DelaySeconds"])["Attributes"]["DelaySeconds"] == "30"
    mappings = client("lambda").list_event_source_mappings()["EventSourceMappings"]
    arns = {sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]: u for u in queues}
    fed = {arns[m["EventSourceArn"]].rsplit("/", 1)[-1]: m["FunctionArn"] for m in mappings if m["EventSourceArn"] in arns}
    assert sorted(k.split("-")[1].rstrip("0123456789ABCDEF") for k in fed) == ["ChangesQueue", "ScanWorkQueue"]
    for queue, function_arn in fed.items():
        assert ("Scan" in function_arn) == ("ScanWork" in queue)


def test_rules_schedule_scan_and_route_changes(deployed):
    events = client("events")
    rules = physical_ids(deployed["stack"], "AWS::Events::Rule")
    # The schedule plus one change rule per pattern the template holds.
    assert len(rules) == template_count(deployed["template"], "AWS::Events::Rule") > 2
    described = {r: events.describe_rule(Name=r) for r in rules}
    schedule = next(r for r, d in described.items() if d.get("ScheduleExpression"))
    # The README's -c schedule.
    assert described[schedule]["ScheduleExpression"] == "rate(30 minutes)"
    assert "Scan" in events.list_targets_by_rule(Rule=schedule)["Targets"][0]["Arn"]
    changes = [r for r, d in described.items() if d.get("EventPattern")]
    assert len(changes) == len(rules) - 1
    for rule in changes:
        pattern = json.loads(described[rule]["EventPattern"])
        assert pattern["detail-type"] == ["AWS API Call via CloudTrail"]
        assert len(pattern["detail"]["eventSource"]) == 1 and pattern["detail"]["eventName"]
        assert "ChangesQueue" in events.list_targets_by_rule(Rule=rule)["Targets"][0]["Arn"]


def test_bucket_and_topic_exist(deployed):
    [bucket] = physical_ids(deployed["stack"], "AWS::S3::Bucket")
    s3 = client("s3")
    s3.head_bucket(Bucket=bucket)
    encryption = s3.get_bucket_encryption(Bucket=bucket)["ServerSideEncryptionConfiguration"]
    assert encryption["Rules"][0]["ApplyServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    [topic] = physical_ids(deployed["stack"], "AWS::SNS::Topic")
    attrs = client("sns").get_topic_attributes(TopicArn=topic)["Attributes"]
    assert attrs["TopicArn"] == topic
    # The emulator applies the declared key that moto's CloudFormation ignores.
    [key] = physical_ids(deployed["stack"], "AWS::KMS::Key")
    assert attrs["KmsMasterKeyId"].endswith(key)
    policy = json.loads(s3.get_bucket_policy(Bucket=bucket)["Policy"])
    assert any(st.get("Condition", {}).get("Bool", {}).get("aws:SecureTransport") == "false" for st in policy["Statement"])
