#!/usr/bin/env python3
"""An SNS topic whose messages land in an SQS queue, for the end-to-end
tests to read what realdrift published.

    sns_inbox.py create NAME      -> {"topicArn": ..., "queueUrl": ...}
    sns_inbox.py read QUEUE_URL   -> [{"subject": ..., "message": ...}, ...]

Needs AWS_ENDPOINT_URL (the emulator)."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import Aws  # noqa: E402


def create(aws, name):
    topic = aws.sns.create_topic(Name=name)["TopicArn"]
    url = aws.sqs.create_queue(QueueName=f"{name}-inbox")["QueueUrl"]
    arn = aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    aws.sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn)
    return {"topicArn": topic, "queueUrl": url}


def read(aws, url):
    out = []
    while True:
        got = aws.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
        if not got:
            return out
        for m in got:
            envelope = json.loads(m["Body"])
            out.append({"subject": envelope.get("Subject"), "message": json.loads(envelope["Message"])})
            aws.sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])


def main() -> int:
    """Runs one command."""
    if len(sys.argv) != 3 or sys.argv[1] not in ("create", "read") or "AWS_ENDPOINT_URL" not in os.environ:
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    fn = create if sys.argv[1] == "create" else read
    print(json.dumps(fn(aws, sys.argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
