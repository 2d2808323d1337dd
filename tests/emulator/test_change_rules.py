"""Issue 44 §1: the change rules, evaluated by a real matcher.

The event patterns the CDK app synthesizes (infra/scripts/change-patterns.ts
prints them) are created as rules on a private bus of the emulator's
EventBridge (moto matches rules on PutEvents) with an SQS target. Every real
CloudTrail record of shared/cloudtrail and every record of the noise set
(tests/fixtures/cloudtrail-noise) is put on that bus wrapped as EventBridge
delivers it, and what reaches the queue is compared with on-change's own
verdict (realdrift_core::events::Screener, through the screen_events
example):

- every record on-change accepts is forwarded;
- every forwarded record is one on-change maps;
- every mapped record that did not fail is forwarded (the rule drops
  nothing the table handles).

Prints forwarded / total for the real records and for the noise set.
"""

import glob
import json
import os
import subprocess
import uuid

import pytest

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
        pytest.fail(f"real CloudTrail records not found at {d}: set REALDRIFT_CLOUDTRAIL_DIR")
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


def forwarded_indexes(aws, patterns, events):
    """Which events the rules route to the queue, through moto's EventBridge."""
    bus = f"realdrift-rules-{uuid.uuid4().hex[:8]}"
    eb, sqs = aws.events, aws.sqs
    eb.create_event_bus(Name=bus)
    url = sqs.create_queue(QueueName=bus)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    for p in patterns:
        eb.put_rule(Name=p["id"], EventBusName=bus, EventPattern=json.dumps(p["pattern"]))
        eb.put_targets(Rule=p["id"], EventBusName=bus, Targets=[{"Id": "changes", "Arn": arn}])
    for start in range(0, len(events), 10):
        entries = [
            {
                "EventBusName": bus,
                "Source": e["source"],
                "DetailType": e["detail-type"],
                "Detail": json.dumps(e["detail"]),
                "Resources": [f"{MARKER}{start + k}"],
            }
            for k, e in enumerate(events[start : start + 10])
        ]
        assert eb.put_events(Entries=entries)["FailedEntryCount"] == 0
    counts = {}
    while True:
        got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
        if not got:
            break
        for m in got:
            body = json.loads(m["Body"])
            [marker] = body["resources"]
            i = int(marker[len(MARKER) :])
            counts[i] = counts.get(i, 0) + 1
        sqs.delete_message_batch(QueueUrl=url, Entries=[{"Id": str(k), "ReceiptHandle": m["ReceiptHandle"]} for k, m in enumerate(got)])
    # Each event matches at most one rule: a service's names are split, never repeated.
    assert all(n == 1 for n in counts.values()), {i: n for i, n in counts.items() if n > 1}
    return set(counts)


def test_rules_forward_what_on_change_maps_and_drop_the_rest(aws):
    items = load_items()
    events = [e for _, _, e in items]
    screened = verdicts(events)
    forwarded = forwarded_indexes(aws, change_patterns(), events)

    lost = [items[i][1] for i, v in enumerate(screened) if v["verdict"] == "accepted" and i not in forwarded]
    assert lost == [], "accepted by on-change but not forwarded"
    unmapped = [items[i][1] for i in sorted(forwarded) if not screened[i]["mapped"]]
    assert unmapped == [], "forwarded but not mapped by on-change"
    # Failed calls and non-API events are the only mapped ones the rules may drop.
    dropped = [
        items[i][1]
        for i, v in enumerate(screened)
        if v["mapped"] and v["verdict"] not in ("failed", "notApiCall") and i not in forwarded
    ]
    assert dropped == [], "mapped, did not fail, yet dropped by the rules"

    figures = {}
    for kind in ("real", "noise"):
        idx = [i for i, (k, _, _) in enumerate(items) if k == kind]
        figures[kind] = {
            "total": len(idx),
            "forwarded": sum(1 for i in idx if i in forwarded),
            "accepted": sum(1 for i in idx if screened[i]["verdict"] == "accepted"),
            "mapped": sum(1 for i in idx if screened[i]["mapped"]),
        }
    print("\nchange rules on the emulator:", json.dumps(figures))
    noise_forwarded = sorted(items[i][1] for i in forwarded if items[i][0] == "noise")
    print("noise forwarded:", noise_forwarded)
    # Of the noise set only the two mapped successful calls pass: CloudFormation's own
    # role update (screened by on-change) and CreateTags on an instance (no watched type).
    assert [screened[i]["verdict"] for i in sorted(forwarded) if items[i][0] == "noise"] == ["unidentified", "cloudFormation"]
    assert figures["real"]["forwarded"] < figures["real"]["total"] / 2
