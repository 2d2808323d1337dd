"""CloudTrail events through the change rules on the emulator's EventBridge:
the real records and the noise set wrapped as EventBridge delivers them, the
rules' patterns as the CDK app generates them, on-change's own verdict, and
a private bus whose rules feed one queue. Used by test_change_rules.py,
event_path.py and scripts/replay-events.py."""

import glob
import json
import os
import subprocess
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
INFRA = os.path.join(ROOT, "infra")
NOISE = os.path.join(ROOT, "tests", "fixtures", "cloudtrail-noise", "records.json")
WRAPPED_FILE = "eventbridge-wrapped_examples.json"
MARKER = "arn:aws:realdrift:us-east-1:111122223333:item/"

# EventBridge's detail-type per CloudTrail eventType
# (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-service-event-cloudtrail.html).
DETAIL_TYPES = {
    "AwsApiCall": "AWS API Call via CloudTrail",
    "AwsConsoleSignIn": "AWS Console Sign In via CloudTrail",
    "AwsConsoleAction": "AWS Console Action via CloudTrail",
    "AwsServiceEvent": "AWS Service Event via CloudTrail",
    "AwsCloudTrailInsight": "AWS Insight via CloudTrail",
}


def cloudtrail_dir():
    d = os.environ.get("REALDRIFT_CLOUDTRAIL_DIR") or os.path.join(ROOT, "..", "shared", "cloudtrail")
    if not os.path.isdir(d):
        raise FileNotFoundError(f"real CloudTrail records not found at {d}: set REALDRIFT_CLOUDTRAIL_DIR")
    return d


def wrap(record):
    """A bare CloudTrail record as EventBridge delivers it."""
    source = record.get("eventSource") or "unknown.amazonaws.com"
    detail_type = DETAIL_TYPES.get(record.get("eventType") or "AwsApiCall", "AWS API Call via CloudTrail")
    if "insightDetails" in record:
        detail_type = DETAIL_TYPES["AwsCloudTrailInsight"]
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": detail_type,
        "source": "aws." + str(source).split(".")[0],
        "account": record.get("recipientAccountId") or "111122223333",
        "time": record.get("eventTime") or "2026-11-30T10:00:00Z",
        "region": record.get("awsRegion") or "us-east-1",
        "resources": [],
        "detail": record,
    }


def load_items():
    """(set, label, EventBridge event) for every real record and noise record."""
    items = []
    for path in sorted(glob.glob(os.path.join(cloudtrail_dir(), "*.json"))):
        name = os.path.basename(path)
        with open(path) as f:
            for i, item in enumerate(json.load(f)):
                event = item if name == WRAPPED_FILE else wrap(item)
                items.append(("real", f"{name}#{i}", event))
    with open(NOISE) as f:
        for record in json.load(f):
            items.append(("noise", record["eventID"], wrap(record)))
    return items


def change_patterns():
    if not os.path.isdir(os.path.join(INFRA, "node_modules")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=INFRA, check=True)
        os.utime(os.path.join(INFRA, "node_modules"))
    out = subprocess.run(
        ["npx", "ts-node", "--transpile-only", "scripts/change-patterns.ts"],
        cwd=INFRA, check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def verdicts(events):
    """on-change's verdict per event, from the engine itself."""
    out = subprocess.run(
        ["cargo", "run", "-q", "--locked", "-p", "realdrift-core", "--example", "screen_events"],
        cwd=ROOT, input=json.dumps(events), check=True, capture_output=True, text=True,
    ).stdout
    result = json.loads(out)
    assert len(result) == len(events)
    return result


def rules_bus(aws, patterns, queue_attributes=None):
    """A private bus holding the rules, all targeting one new queue: (bus, queue URL)."""
    bus = f"realdrift-rules-{uuid.uuid4().hex[:8]}"
    eb, sqs = aws.events, aws.sqs
    eb.create_event_bus(Name=bus)
    url = sqs.create_queue(QueueName=bus, Attributes=queue_attributes or {})["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    for p in patterns:
        eb.put_rule(Name=p["id"], EventBusName=bus, EventPattern=json.dumps(p["pattern"]))
        eb.put_targets(Rule=p["id"], EventBusName=bus, Targets=[{"Id": "changes", "Arn": arn}])
    return bus, url


def put(aws, bus, indexed_events):
    """Puts (index, event) pairs on the bus, ten per call, each marked with its index."""
    indexed_events = list(indexed_events)
    for start in range(0, len(indexed_events), 10):
        entries = [
            {
                "EventBusName": bus,
                "Source": e["source"],
                "DetailType": e["detail-type"],
                "Detail": json.dumps(e["detail"]),
                "Resources": [f"{MARKER}{i}"],
            }
            for i, e in indexed_events[start : start + 10]
        ]
        result = aws.events.put_events(Entries=entries)
        if result["FailedEntryCount"]:
            raise RuntimeError(f"PutEvents failed: {result['Entries']}")


def receive(aws, url, wait_seconds=0):
    """The indexes of the events delivered to the queue by one receive (deleted once read)."""
    got = aws.sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=wait_seconds).get("Messages", [])
    if got:
        aws.sqs.delete_message_batch(
            QueueUrl=url, Entries=[{"Id": str(k), "ReceiptHandle": m["ReceiptHandle"]} for k, m in enumerate(got)]
        )
    return [int(json.loads(m["Body"])["resources"][0][len(MARKER) :]) for m in got]


def forwarded_indexes(aws, patterns, events):
    """Which events the rules route to the queue, through moto's EventBridge."""
    bus, url = rules_bus(aws, patterns)
    put(aws, bus, enumerate(events))
    counts = {}
    while True:
        got = receive(aws, url)
        if not got:
            break
        for i in got:
            counts[i] = counts.get(i, 0) + 1
    # Each event matches at most one rule: a service's names are split, never repeated.
    assert all(n == 1 for n in counts.values()), {i: n for i, n in counts.items() if n > 1}
    return set(counts)


