"""Genuine out-of-band changes to a deployed fixture stack, each with the
CloudTrail record of its call.

The j-th change really changes a resource in the emulator (a person's
console edit: the queue's visibility timeout, the function's memory, the
topic's display name, the role's trust policy, in turn) to a value no
earlier change set, so each is new drift; its record is a real record of
shared/cloudtrail for that call with the fixture's names, a person's
identity, now and a unique eventID swapped in."""

import datetime
import json
import os

from change_stream import cloudtrail_dir

ACCOUNT = "123456789012"
REGION = "us-east-1"
PERSON = {
    "type": "IAMUser",
    "principalId": "AIDAEXAMPLEALICE",
    "arn": f"arn:aws:iam::{ACCOUNT}:user/alice",
    "accountId": ACCOUNT,
    "userName": "alice",
}
# Logical ids of tests/fixtures/app/RealdriftFixture.template.json.
QUEUE, FUNCTION, TOPIC, ROLE = "InboxA8E05DC3", "Worker11F36D0F", "Alerts91F83244", "WorkerRole8DD27D41"


def real_record(file, name):
    """The first successful record of `file` whose eventName starts with `name`."""
    with open(os.path.join(cloudtrail_dir(), file)) as f:
        for r in json.load(f):
            if str(r.get("eventName", "")).startswith(name) and not r.get("errorCode"):
                return json.loads(json.dumps(r))
    raise LookupError(f"no {name} record in {file}")


def _queue(aws, ids, j):
    url, value = ids[QUEUE], str(61 + j)
    own = aws.sqs.get_queue_url(QueueName=url.rstrip("/").rsplit("/", 1)[-1])["QueueUrl"]
    aws.sqs.set_queue_attributes(QueueUrl=own, Attributes={"VisibilityTimeout": value})
    r = real_record("airbnb_streamalert_rule-test-events.json", "SetQueueAttributes")
    r["requestParameters"] = {"queueUrl": url, "attributes": {"VisibilityTimeout": value}}
    return r


def _function(aws, ids, j):
    name, memory = ids[FUNCTION], 257 + j
    aws.lambda_.update_function_configuration(FunctionName=name, MemorySize=memory)
    r = real_record("fivexl_cloudtrail-to-slack_test-events.json", "UpdateFunctionConfiguration")
    r["requestParameters"] = {"functionName": name, "memorySize": memory}
    return r


def _topic(aws, ids, j):
    arn, value = ids[TOPIC], f"fixture alerts, edit {j}"
    aws.sns.set_topic_attributes(TopicArn=arn, AttributeName="DisplayName", AttributeValue=value)
    r = real_record("airbnb_streamalert_rule-test-events.json", "SetTopicAttributes")
    r["requestParameters"] = {"topicArn": arn, "attributeName": "DisplayName", "attributeValue": value}
    return r


def _role(aws, ids, j):
    name = ids[ROLE]
    # A principal no earlier change trusted: another account's root, per j.
    doc = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"},
        {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{193672420000 + j}:root"}, "Action": "sts:AssumeRole"},
    ]})
    aws.iam.update_assume_role_policy(RoleName=name, PolicyDocument=doc)
    r = real_record("datadog_stratus-red-team_detonation-logs.json", "UpdateAssumeRolePolicy")
    r["requestParameters"] = {"roleName": name, "policyDocument": doc}
    return r


KINDS = (_queue, _function, _topic, _role)


def make_change(aws, ids, j):
    """Makes the j-th change in the emulator; returns its CloudTrail record (eventID `change-<j>`)."""
    r = KINDS[j % len(KINDS)](aws, ids, j)
    r.pop("errorCode", None)
    r.pop("errorMessage", None)
    r["userIdentity"] = dict(PERSON)
    r["recipientAccountId"] = ACCOUNT
    r["awsRegion"] = REGION
    r["sourceIPAddress"] = "203.0.113.50"
    r["eventID"] = f"change-{j}"
    r["eventTime"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return r
