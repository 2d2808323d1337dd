"""Cloud Control operations over the wire: update, delete, errors, status."""

import json
import urllib.request
import uuid

import pytest
from botocore.exceptions import ClientError

import samples


def _model(cc, type_name, ident) -> dict:
    desc = cc.get_resource(TypeName=type_name, Identifier=ident)["ResourceDescription"]
    return json.loads(desc["Properties"])


def _update(cc, type_name, ident, *ops) -> dict:
    return cc.update_resource(TypeName=type_name, Identifier=ident, PatchDocument=json.dumps(list(ops)))[
        "ProgressEvent"
    ]


def _code(excinfo) -> str:
    return excinfo.value.response["Error"]["Code"]


# A well-formed identifier of each type that names nothing.
MISSING = {
    "AWS::S3::Bucket": "realdrift-no-such-bucket",
    "AWS::SQS::Queue": "https://sqs.us-east-1.amazonaws.com/123456789012/no-such-queue",
    "AWS::SNS::Topic": "arn:aws:sns:us-east-1:123456789012:no-such-topic",
    "AWS::SNS::Subscription": "arn:aws:sns:us-east-1:123456789012:no-such-topic:0f3c2a1e-5b6d-4c7e-8f90-123456789abc",
    "AWS::IAM::Role": "no-such-role",
    "AWS::Lambda::Function": "no-such-function",
    "AWS::DynamoDB::Table": "no-such-table",
    "AWS::Logs::LogGroup": "/no/such/group",
    "AWS::Events::Rule": "arn:aws:events:us-east-1:123456789012:rule/no-such-rule",
    "AWS::EC2::LaunchTemplate": "lt-0123456789abcdef0",
}


@pytest.mark.parametrize("type_name", sorted(MISSING))
def test_get_missing_resource_is_resource_not_found(cc, type_name):
    with pytest.raises(ClientError) as exc:
        cc.get_resource(TypeName=type_name, Identifier=MISSING[type_name])
    assert _code(exc) == "ResourceNotFoundException"
    assert exc.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


@pytest.mark.parametrize("type_name", sorted(MISSING))
def test_update_and_delete_of_missing_resource_fail_with_not_found(cc, type_name):
    event = _update(cc, type_name, MISSING[type_name], {"op": "add", "path": "/Tags", "value": []})
    assert (event["OperationStatus"], event["ErrorCode"]) == ("FAILED", "NotFound")
    event = cc.delete_resource(TypeName=type_name, Identifier=MISSING[type_name])["ProgressEvent"]
    assert (event["OperationStatus"], event["ErrorCode"], event["Operation"]) == ("FAILED", "NotFound", "DELETE")


def test_unknown_type_is_type_not_found(cc):
    with pytest.raises(ClientError) as exc:
        cc.get_resource(TypeName="AWS::Nope::Thing", Identifier="x")
    assert _code(exc) == "TypeNotFoundException"


def test_types_cloud_control_cannot_read_are_unsupported_actions(cc):
    for type_name in ("AWS::IAM::Policy", "AWS::S3::BucketPolicy", "AWS::SQS::QueuePolicy", "AWS::SNS::TopicPolicy"):
        with pytest.raises(ClientError) as exc:
            cc.get_resource(TypeName=type_name, Identifier="x")
        assert _code(exc) == "UnsupportedActionException"


def test_malformed_identifier_is_a_validation_error(cc):
    with pytest.raises(ClientError) as exc:
        cc.get_resource(TypeName="AWS::SQS::Queue", Identifier="just-a-name")
    assert _code(exc) == "ValidationException"


def test_queue_update_round_trip_and_request_status(aws, cc):
    url = samples.queue(aws)
    event = _update(cc, "AWS::SQS::Queue", url, {"op": "replace", "path": "/VisibilityTimeout", "value": 120})
    assert event["OperationStatus"] == "SUCCESS" and event["Operation"] == "UPDATE"
    assert json.loads(event["ResourceModel"])["VisibilityTimeout"] == 120
    assert _model(cc, "AWS::SQS::Queue", url)["VisibilityTimeout"] == 120
    attrs = aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout"])["Attributes"]
    assert attrs["VisibilityTimeout"] == "120"
    status = cc.get_resource_request_status(RequestToken=event["RequestToken"])["ProgressEvent"]
    assert status["OperationStatus"] == "SUCCESS" and status["RequestToken"] == event["RequestToken"]


def test_bucket_versioning_accelerate_and_cors_updates(aws, cc):
    name = samples.bucket(aws)
    event = _update(
        cc,
        "AWS::S3::Bucket",
        name,
        {"op": "replace", "path": "/VersioningConfiguration/Status", "value": "Suspended"},
        {"op": "add", "path": "/AccelerateConfiguration", "value": {"AccelerationStatus": "Enabled"}},
        {"op": "remove", "path": "/CorsConfiguration"},
    )
    assert event["OperationStatus"] == "SUCCESS", event
    assert aws.s3.get_bucket_versioning(Bucket=name)["Status"] == "Suspended"
    assert aws.s3.get_bucket_accelerate_configuration(Bucket=name)["Status"] == "Enabled"
    model = _model(cc, "AWS::S3::Bucket", name)
    assert "CorsConfiguration" not in model
    assert model["AccelerateConfiguration"] == {"AccelerationStatus": "Enabled"}


def test_topic_role_function_table_loggroup_rule_updates(aws, cc):
    cases = [
        ("AWS::SNS::Topic", samples.topic(aws), "/DisplayName", "changed"),
        ("AWS::Lambda::Function", samples.function(aws), "/Timeout", 30),
        ("AWS::Logs::LogGroup", samples.log_group(aws), "/RetentionInDays", 30),
        ("AWS::Events::Rule", samples.rule(aws), "/State", "DISABLED"),
        ("AWS::IAM::Role", samples.role(aws), "/Description", "changed"),
        ("AWS::DynamoDB::Table", samples.table(aws), "/PointInTimeRecoverySpecification", {"PointInTimeRecoveryEnabled": False}),
    ]
    for type_name, ident, path, value in cases:
        event = _update(cc, type_name, ident, {"op": "replace", "path": path, "value": value})
        assert event["OperationStatus"] == "SUCCESS", (type_name, event)
        assert _model(cc, type_name, ident)[path[1:]] == value, type_name


def test_subscription_update_create_only_and_delete(aws, cc):
    arn = samples.subscription(aws)
    event = _update(
        cc,
        "AWS::SNS::Subscription",
        arn,
        {"op": "replace", "path": "/RawMessageDelivery", "value": False},
        {"op": "replace", "path": "/FilterPolicy", "value": {"severity": ["low"]}},
    )
    assert event["OperationStatus"] == "SUCCESS", event
    attrs = aws.sns.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
    assert attrs["RawMessageDelivery"] == "false"
    assert json.loads(attrs["FilterPolicy"]) == {"severity": ["low"]}
    assert arn in [d["Identifier"] for d in cc.list_resources(TypeName="AWS::SNS::Subscription", MaxResults=100)["ResourceDescriptions"]]
    with pytest.raises(ClientError) as exc:
        _update(cc, "AWS::SNS::Subscription", arn, {"op": "replace", "path": "/Endpoint", "value": "x@example.com"})
    assert _code(exc) == "NotUpdatableException"
    event = _update(cc, "AWS::SNS::Subscription", arn, {"op": "add", "path": "/ReplayPolicy", "value": {"pointType": "Timestamp"}})
    assert event["OperationStatus"] == "FAILED" and "emulator gap" in event["StatusMessage"]
    assert cc.delete_resource(TypeName="AWS::SNS::Subscription", Identifier=arn)["ProgressEvent"]["OperationStatus"] == "SUCCESS"
    with pytest.raises(ClientError) as exc:
        cc.get_resource(TypeName="AWS::SNS::Subscription", Identifier=arn)
    assert _code(exc) == "ResourceNotFoundException"


def test_bucket_notification_replication_and_object_lock_updates(aws, cc):
    name = samples.configured_bucket(aws)
    # Writing back what was read (rule names as S3 answers them, "Prefix").
    event = _update(
        cc,
        "AWS::S3::Bucket",
        name,
        {"op": "replace", "path": "/NotificationConfiguration/QueueConfigurations/0/Event", "value": "s3:ObjectCreated:*"},
    )
    assert event["OperationStatus"] == "SUCCESS", event
    (queue_config,) = _model(cc, "AWS::S3::Bucket", name)["NotificationConfiguration"]["QueueConfigurations"]
    assert queue_config["Event"] == "s3:ObjectCreated:*"
    assert queue_config["Filter"]["S3Key"]["Rules"] == [{"Name": "Prefix", "Value": "archive/"}]
    event = _update(
        cc,
        "AWS::S3::Bucket",
        name,
        {"op": "remove", "path": "/NotificationConfiguration"},
        {"op": "replace", "path": "/ReplicationConfiguration/Rules/0/Filter/Prefix", "value": "other/"},
    )
    assert event["OperationStatus"] == "SUCCESS", event
    model = _model(cc, "AWS::S3::Bucket", name)
    assert "NotificationConfiguration" not in model
    assert model["ReplicationConfiguration"]["Rules"][0]["Filter"] == {"Prefix": "other/"}
    event = _update(cc, "AWS::S3::Bucket", name, {"op": "remove", "path": "/ObjectLockEnabled"})
    assert (event["OperationStatus"], event["ErrorCode"]) == ("FAILED", "InvalidRequest"), event


def test_role_inline_policy_added_and_removed(aws, cc):
    name = samples.role(aws)
    rogue = {"PolicyName": "rogue", "PolicyDocument": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}}
    assert _update(cc, "AWS::IAM::Role", name, {"op": "add", "path": "/Policies/-", "value": rogue})["OperationStatus"] == "SUCCESS"
    assert "rogue" in aws.iam.list_role_policies(RoleName=name)["PolicyNames"]
    model = _model(cc, "AWS::IAM::Role", name)
    index = [p["PolicyName"] for p in model["Policies"]].index("rogue")
    assert _update(cc, "AWS::IAM::Role", name, {"op": "remove", "path": f"/Policies/{index}"})["OperationStatus"] == "SUCCESS"
    assert "rogue" not in aws.iam.list_role_policies(RoleName=name)["PolicyNames"]


def test_create_only_change_is_not_updatable(aws, cc):
    url = samples.queue(aws)
    with pytest.raises(ClientError) as exc:
        _update(cc, "AWS::SQS::Queue", url, {"op": "replace", "path": "/QueueName", "value": "other"})
    assert _code(exc) == "NotUpdatableException"


def test_read_only_change_and_bad_patches_are_validation_errors(aws, cc):
    name = samples.bucket(aws)
    bad = [
        [{"op": "replace", "path": "/Arn", "value": "arn:aws:s3:::x"}],
        [{"op": "remove", "path": "/NoSuchProperty"}],
        [{"op": "frobnicate", "path": "/Tags"}],
        {"op": "add"},
    ]
    for patch in bad:
        with pytest.raises(ClientError) as exc:
            cc.update_resource(TypeName="AWS::S3::Bucket", Identifier=name, PatchDocument=json.dumps(patch))
        assert _code(exc) == "ValidationException", patch


def test_changing_a_property_moto_cannot_store_is_a_named_gap(aws, cc):
    fn = samples.function(aws)
    event = _update(cc, "AWS::Lambda::Function", fn, {"op": "replace", "path": "/RecursiveLoop", "value": "Allow"})
    assert event["OperationStatus"] == "FAILED"
    assert "emulator gap" in event["StatusMessage"] and "RecursiveLoop" in event["StatusMessage"]


def test_delete_then_read_is_not_found(aws, cc):
    url = samples.queue(aws)
    event = cc.delete_resource(TypeName="AWS::SQS::Queue", Identifier=url)["ProgressEvent"]
    assert event["OperationStatus"] == "SUCCESS" and event["Operation"] == "DELETE"
    with pytest.raises(ClientError) as exc:
        cc.get_resource(TypeName="AWS::SQS::Queue", Identifier=url)
    assert _code(exc) == "ResourceNotFoundException"


def test_delete_role_with_policies_and_rule_with_targets(aws, cc):
    for type_name, ident in (("AWS::IAM::Role", samples.role(aws)), ("AWS::Events::Rule", samples.rule(aws))):
        assert cc.delete_resource(TypeName=type_name, Identifier=ident)["ProgressEvent"]["OperationStatus"] == "SUCCESS"
        with pytest.raises(ClientError):
            cc.get_resource(TypeName=type_name, Identifier=ident)


def test_unknown_request_token(cc):
    with pytest.raises(ClientError) as exc:
        cc.get_resource_request_status(RequestToken=str(uuid.uuid4()))
    assert _code(exc) == "RequestTokenNotFoundException"


def test_list_resources_paginates(aws, cc):
    made = {samples.log_group(aws) for _ in range(3)}
    seen, token = [], None
    while True:
        kwargs = {"TypeName": "AWS::Logs::LogGroup", "MaxResults": 2}
        if token:
            kwargs["NextToken"] = token
        page = cc.list_resources(**kwargs)
        assert len(page["ResourceDescriptions"]) <= 2
        seen += [d["Identifier"] for d in page["ResourceDescriptions"]]
        token = page.get("NextToken")
        if not token:
            break
    assert made <= set(seen)
    assert len(seen) == len(set(seen))


def test_rule_readable_by_bare_name_on_default_bus(aws, cc):
    arn = samples.rule(aws)
    name = arn.rsplit("/", 1)[1]
    assert _model(cc, "AWS::Events::Rule", name)["Arn"] == arn


def _post(emulator, path, body):
    req = urllib.request.Request(
        emulator["AWS_ENDPOINT_URL_CLOUDCONTROL"] + path, data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(req, timeout=5) as resp:
        return json.loads(resp.read())


def test_a_repeated_client_token_answers_the_earlier_request(aws, cc):
    url = samples.queue(aws)
    patch = json.dumps([{"op": "replace", "path": "/VisibilityTimeout", "value": 45}])
    token = str(uuid.uuid4())
    first = cc.update_resource(TypeName="AWS::SQS::Queue", Identifier=url, PatchDocument=patch, ClientToken=token)
    # Changed out of band in between: a replayed request must not write again.
    aws.sqs.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "50"})
    again = cc.update_resource(TypeName="AWS::SQS::Queue", Identifier=url, PatchDocument=patch, ClientToken=token)
    assert again["ProgressEvent"]["RequestToken"] == first["ProgressEvent"]["RequestToken"]
    assert _model(cc, "AWS::SQS::Queue", url)["VisibilityTimeout"] == 50
    other = json.dumps([{"op": "replace", "path": "/VisibilityTimeout", "value": 46}])
    with pytest.raises(ClientError) as exc:
        cc.update_resource(TypeName="AWS::SQS::Queue", Identifier=url, PatchDocument=other, ClientToken=token)
    assert _code(exc) == "ClientTokenConflictException"


def test_injected_faults_fail_writes_without_writing(emulator, aws, cc):
    url = samples.queue(aws)
    _post(emulator, "/faults", {"operation": "UpdateResource", "identifier": url, "errorCode": "Throttling", "times": 1})
    event = _update(cc, "AWS::SQS::Queue", url, {"op": "replace", "path": "/VisibilityTimeout", "value": 77})
    assert (event["OperationStatus"], event["ErrorCode"]) == ("FAILED", "Throttling")
    assert _model(cc, "AWS::SQS::Queue", url)["VisibilityTimeout"] != 77
    event = _update(cc, "AWS::SQS::Queue", url, {"op": "replace", "path": "/VisibilityTimeout", "value": 77})
    assert event["OperationStatus"] == "SUCCESS"
    _post(emulator, "/faults", {"operation": "DeleteResource", "identifier": url, "errorCode": "InvalidRequest"})
    for _ in range(2):
        event = cc.delete_resource(TypeName="AWS::SQS::Queue", Identifier=url)["ProgressEvent"]
        assert (event["OperationStatus"], event["ErrorCode"]) == ("FAILED", "InvalidRequest")
    assert _model(cc, "AWS::SQS::Queue", url)["QueueUrl"] == url
    _post(emulator, "/reset", {})
    event = cc.delete_resource(TypeName="AWS::SQS::Queue", Identifier=url)["ProgressEvent"]
    assert event["OperationStatus"] == "SUCCESS"
