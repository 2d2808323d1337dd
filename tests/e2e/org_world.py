#!/usr/bin/env python3
"""An Organization hub and one member account in the emulator, for the
hub-delivery end-to-end test (needs AWS_ENDPOINT_URL):

    org_world.py setup SLACK_URL   -> JSON: organization id, member account, the member's
                                      assumed-role credentials, its bucket, topic and work
                                      queue, the hub's bus ARN, delivery queue, topic,
                                      Slack secret, bucket and inbox
    org_world.py work ACCOUNT URL  -> the Lambda SQS event of the messages waiting on a
                                      queue of ACCOUNT ("" = the hub's; received and deleted)
    org_world.py inbox URL         -> JSON list of the hub topic's notifications (SNS
                                      envelopes) waiting on the hub's inbox queue
    org_world.py outsider BUS_ARN  -> JSON: the PutEvents entries of an account outside
                                      the Organization putting a transition on the bus
    org_world.py object BUCKET KEY -> JSON: the object's text in the hub account, or null

The hub (moto's default account, the Organization's management account, so
DescribeAccount answers there) gets the bus, its policy and its one
delivery rule to the hub function's queue as infra/lib/hub.ts synthesizes
them (infra/test/organization.test.ts asserts the same statement and
pattern); the hub topic's subscriber is an SQS queue. The member account is
created with its name, which the hub function reads from Organizations."""

import json
import os
import sys
import time

import boto3
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))
sys.path.insert(0, HERE)

from cloudcontrol.aws import _account_header  # noqa: E402
from scan_world import drain  # noqa: E402
from org_baselines import hub_policy  # noqa: E402

REGION = os.environ.get("AWS_REGION", "us-east-1")
BUS = "realdrift-findings"
MEMBER_ROLE = "RealdriftMember"
MEMBER_NAME = "payments-prod"
OUTSIDER = "999999999999"
SOURCE, DETAIL_TYPE = "realdrift", "realdrift drift transition"


def client(service, account=None):
    session = boto3.session.Session(region_name=REGION)
    if account:
        session.events.register("before-sign", _account_header(account))
    return session.client(service, endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                          config=Config(s3={"addressing_style": "path"}))


def member_account(org):
    status = org.create_account(Email="member@example.invalid", AccountName=MEMBER_NAME)["CreateAccountStatus"]
    for _ in range(20):
        s = org.describe_create_account_status(CreateAccountRequestId=status["Id"])["CreateAccountStatus"]
        if s.get("AccountId"):
            return s["AccountId"]
    raise SystemExit("the member account was not created")


def hub(org_id, slack_url):
    """The hub's bus, policy, delivery rule and queue (infra/lib/hub.ts), topic,
    Slack secret, bucket, and a subscribed inbox."""
    events, sns, sqs = client("events"), client("sns"), client("sqs")
    bus = events.create_event_bus(Name=BUS)["EventBusArn"]
    statement = {"Sid": "OrganizationPutEvents", "Effect": "Allow", "Principal": {"AWS": "*"},
                 "Action": "events:PutEvents", "Resource": bus,
                 "Condition": {"StringEquals": {"aws:PrincipalOrgID": org_id}}}
    events.put_permission(EventBusName=BUS, Policy=json.dumps({"Version": "2012-10-17", "Statement": [statement]}))
    topic = sns.create_topic(Name="realdrift-hub-alerts")["TopicArn"]
    inbox = sqs.create_queue(QueueName="hub-inbox")["QueueUrl"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=queue_arn(sqs, inbox))
    delivery = sqs.create_queue(QueueName="realdrift-hub-delivery")["QueueUrl"]
    events.put_rule(Name="Deliver", EventBusName=BUS,
                    EventPattern=json.dumps({"source": [SOURCE], "detail-type": [DETAIL_TYPE]}))
    events.put_targets(Rule="Deliver", EventBusName=BUS, Targets=[{"Id": "Queue", "Arn": queue_arn(sqs, delivery)}])
    secret = client("secretsmanager").create_secret(Name="realdrift/hub-slack", SecretString=slack_url)["ARN"]
    bucket = "realdrift-hub"
    s3 = client("s3")
    s3.create_bucket(Bucket=bucket)
    # The policy the app synthesizes: the emulator judges the member's
    # cross-account reads and status writes by it, as S3 does.
    s3.put_bucket_policy(Bucket=bucket, Policy=json.dumps(hub_policy(org_id, bucket)))
    return {"bus": bus, "inbox": inbox, "delivery": delivery, "hubTopic": topic, "hubSecret": secret,
            "hubBucket": bucket}


def queue_arn(sqs, url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def member_side(member):
    """The member's own bucket, topic and work queue, and credentials in it."""
    iam = client("iam", member)
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
             "Principal": {"AWS": f"arn:aws:iam::{client('sts').get_caller_identity()['Account']}:root"}}]}
    role = iam.create_role(RoleName=MEMBER_ROLE, AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
    s3, sns, sqs = client("s3", member), client("sns", member), client("sqs", member)
    bucket = f"realdrift-member-{member}"
    s3.create_bucket(Bucket=bucket)
    topic = sns.create_topic(Name="realdrift-alerts")["TopicArn"]
    work = sqs.create_queue(QueueName="realdrift-work")["QueueUrl"]
    creds = client("sts").assume_role(RoleArn=role, RoleSessionName="realdrift-member")["Credentials"]
    return {"bucket": bucket, "topic": topic, "work": work, "accessKeyId": creds["AccessKeyId"],
            "secretAccessKey": creds["SecretAccessKey"], "sessionToken": creds["SessionToken"]}


def setup(slack_url):
    org = client("organizations")
    org_id = org.create_organization(FeatureSet="ALL")["Organization"]["Id"]
    member = member_account(org)
    return {"organizationId": org_id, "member": member, **hub(org_id, slack_url), **member_side(member)}


def object_text(bucket, key):
    try:
        return client("s3").get_object(Bucket=bucket, Key=key)["Body"].read().decode()
    except client("s3").exceptions.NoSuchKey:
        return None


class _InAccount:
    def __init__(self, account):
        self.sqs = client("sqs", account)


def work(account, url):
    from scan_world import work as as_event
    return as_event(_InAccount(account), url)


def outsider(bus):
    out = client("events", OUTSIDER).put_events(Entries=[{
        "EventBusName": bus, "Source": SOURCE, "DetailType": DETAIL_TYPE,
        "Detail": json.dumps({"version": 1, "kind": "drift-detected", "account": OUTSIDER})}])
    return out["Entries"]


def main(argv):
    verb = argv[1]
    if verb == "setup":
        print(json.dumps(setup(argv[2])))
    elif verb == "work":
        print(json.dumps(work(argv[2], argv[3])))
    elif verb == "inbox":
        print(json.dumps([json.loads(m["Body"]) for m in drain(_InAccount(None), argv[2])]))
    elif verb == "object":
        print(json.dumps(object_text(argv[2], argv[3])))
    elif verb == "outsider":
        print(json.dumps(outsider(argv[2])))
    else:
        raise SystemExit(f"unknown verb {verb}")


if __name__ == "__main__":
    main(sys.argv)
