#!/usr/bin/env python3
"""What the scan function's end-to-end test needs around it in the emulator,
made through the service APIs (needs AWS_ENDPOINT_URL):

    scan_world.py setup SLACK_URL    -> JSON: bucket, topic, alert and work queue URLs, secret id
    scan_world.py alerts QUEUE_URL   -> JSON list of the SNS notifications waiting on the
                                        alert queue (received and deleted)
    scan_world.py work QUEUE_URL     -> the Lambda SQS event of the messages waiting on the
                                        work queue (received and deleted)
    scan_world.py object BUCKET KEY  -> the object's text, or nothing when absent
    scan_world.py hold-newer BUCKET KEY MS
                                     -> rewrites a state file as if every resource's read
                                        it holds had started at MS (a concurrent newer read)
    scan_world.py delete-stack NAME  -> deletes a CloudFormation stack
    scan_world.py findings           -> JSON list of the Security Hub findings realdrift
                                        imported (GetFindings, every page)
"""

import json
import os
import sys

import boto3
from botocore.config import Config

REGION = os.environ.get("AWS_REGION", "us-east-1")


class Aws:
    """The clients the test needs, aimed at the emulator."""

    def __init__(self):
        session = boto3.session.Session(region_name=REGION)
        config = Config(s3={"addressing_style": "path"})
        endpoint = os.environ["AWS_ENDPOINT_URL"]
        for name in ("s3", "sqs", "sns", "secretsmanager", "cloudformation", "securityhub"):
            setattr(self, name, session.client(name, endpoint_url=endpoint, config=config))


def setup(aws, slack_url):
    bucket = "realdrift-e2e"
    aws.s3.create_bucket(Bucket=bucket)
    topic = aws.sns.create_topic(Name="realdrift-alerts")["TopicArn"]
    alerts = aws.sqs.create_queue(QueueName="alert-inbox")["QueueUrl"]
    alerts_arn = aws.sqs.get_queue_attributes(QueueUrl=alerts, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    aws.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=alerts_arn)
    work = aws.sqs.create_queue(QueueName="realdrift-work")["QueueUrl"]
    secret = aws.secretsmanager.create_secret(Name="realdrift/slack", SecretString=slack_url)["ARN"]
    # Security Hub must be enabled in the account before it accepts findings.
    aws.securityhub.enable_security_hub(EnableDefaultStandards=False)
    return {"bucket": bucket, "topic": topic, "alerts": alerts, "work": work, "secret": secret}


def drain(aws, url):
    out = []
    while True:
        got = aws.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
        if not got:
            return out
        for m in got:
            aws.sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
        out.extend(got)


def alerts(aws, url):
    # SNS delivers its envelope (no raw delivery): Subject + Message.
    return [json.loads(m["Body"]) for m in drain(aws, url)]


def work(aws, url):
    arn = aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    records = [
        {
            "messageId": m["MessageId"],
            "receiptHandle": m["ReceiptHandle"],
            "body": m["Body"],
            "attributes": {},
            "messageAttributes": {},
            "md5OfBody": m.get("MD5OfBody"),
            "eventSource": "aws:sqs",
            "eventSourceARN": arn,
            "awsRegion": REGION,
        }
        for m in drain(aws, url)
    ]
    return {"Records": records}


def read_object(aws, bucket, key):
    try:
        return aws.s3.get_object(Bucket=bucket, Key=key)["Body"].read().decode()
    except aws.s3.exceptions.NoSuchKey:
        return ""


def hold_newer(aws, bucket, key, ms):
    state = json.loads(read_object(aws, bucket, key))
    for coverage in state.get("coverage", {}).values():
        coverage["readAtMs"] = ms
    aws.s3.put_object(Bucket=bucket, Key=key, Body=json.dumps(state, indent=2, sort_keys=True) + "\n")


def findings(aws):
    out, token = [], None
    while True:
        page = aws.securityhub.get_findings(**({"NextToken": token} if token else {}))
        out.extend(f for f in page["Findings"] if f.get("GeneratorId") == "realdrift")
        token = page.get("NextToken")
        if not token:
            return out


def main(argv):
    aws = Aws()
    verb = argv[1]
    if verb == "setup":
        print(json.dumps(setup(aws, argv[2])))
    elif verb == "alerts":
        print(json.dumps(alerts(aws, argv[2])))
    elif verb == "work":
        print(json.dumps(work(aws, argv[2])))
    elif verb == "object":
        sys.stdout.write(read_object(aws, argv[2], argv[3]))
    elif verb == "hold-newer":
        hold_newer(aws, argv[2], argv[3], int(argv[4]))
    elif verb == "findings":
        print(json.dumps(findings(aws)))
    elif verb == "delete-stack":
        aws.cloudformation.delete_stack(StackName=argv[2])
    else:
        raise SystemExit(f"unknown verb {verb}")


if __name__ == "__main__":
    main(sys.argv)
