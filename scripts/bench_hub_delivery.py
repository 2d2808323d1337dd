#!/usr/bin/env python3
"""Load of the hub's delivery on the emulator (a measurement, not a test).

N synthetic member transitions are put on a findings bus at a set rate, one
event per PutEvents call as a member function puts them. The bus carries the
hub's two delivery rules as RealdriftHub synthesizes them (a named account's
rule and the rule of every other account, same patterns, same input
transformer); their target is an SQS queue, read concurrently. Printed:
events put, deliveries counted (each event must match exactly one rule),
put rate reached, and put -> delivery latency p50 / p95 / max.

    scripts/bench-hub-delivery.sh                     # N=2000 at 100/s
    BENCH_EVENTS=500 BENCH_RATE=50 scripts/bench-hub-delivery.sh

Needs AWS_ENDPOINT_URL (the wrapper starts a private emulator). Limits of the
emulator (docs/organization.md, "Proven on the emulator"): moto delivers to
the target inside PutEvents, has no SNS target and no cross-account routing,
so the figures bound the rule evaluation and fan-out path, not AWS latency.
"""

import json
import os
import statistics
import sys
import threading
import time

import boto3

REGION = os.environ.get("AWS_REGION", "us-east-1")
BUS = "realdrift-findings"
NAMED = "111111111111"
SOURCE, DETAIL_TYPE = "realdrift", "realdrift drift transition"


def clients():
    s = boto3.session.Session(region_name=REGION)
    url = os.environ["AWS_ENDPOINT_URL"]
    return s.client("events", endpoint_url=url), s.client("sqs", endpoint_url=url)


def hub(events, sqs):
    """The bus, its delivery rules (as infra/lib/hub.ts builds them), the queue."""
    bus_arn = events.create_event_bus(Name=BUS)["EventBusArn"]
    q = sqs.create_queue(QueueName="hub-delivery")["QueueUrl"]
    q_arn = sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    base = {"source": [SOURCE], "detail-type": [DETAIL_TYPE]}
    rules = [
        ("DeliverUnnamed", {**base, "account": [{"anything-but": [NAMED]}]}, ""),
        (f"Deliver{NAMED}", {**base, "account": [NAMED]}, "payments-prod"),
    ]
    for name, pattern, account_name in rules:
        events.put_rule(Name=name, EventBusName=BUS, EventPattern=json.dumps(pattern))
        # hub.ts's template, plus "time": moto 5.1.22's SQS target reads the
        # transformed event's "time" (KeyError without it).
        template = '{"accountName":"%s","document":<detail>,"time":<time>}' % account_name
        paths = {"detail": "$.detail", "time": "$.time"}
        events.put_targets(
            Rule=name,
            EventBusName=BUS,
            Targets=[{"Id": "Topic", "Arn": q_arn,
                      "InputTransformer": {"InputPathsMap": paths, "InputTemplate": template}}],
        )
    return bus_arn, q


def document(i, sent):
    """A drift-detected transition document (docs/json-output.md), stamped with its send time."""
    return {
        "version": 1, "kind": "drift-detected", "account": "222222222222", "region": REGION,
        "stack": f"Service{i % 20}", "summary": {"drift": 1, "potentialDrift": 0, "status": "drift"},
        "findings": [{"tier": "undeclared", "logicalId": "Queue", "resourceType": "AWS::SQS::Queue",
                      "path": "VisibilityTimeout", "desired": "30", "actual": "45"}],
        "findingsOmitted": 0, "bench": {"i": i, "sentAt": sent},
    }


def consume(sqs, q, n, deadline, got):
    while len(got) < n and time.monotonic() < deadline:
        for m in sqs.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", []):
            body = json.loads(m["Body"])
            got.append((body["document"]["bench"], time.time()))
            sqs.delete_message(QueueUrl=q, ReceiptHandle=m["ReceiptHandle"])


def main():
    n = int(os.environ.get("BENCH_EVENTS", "2000"))
    rate = float(os.environ.get("BENCH_RATE", "100"))
    events, sqs = clients()
    bus_arn, q = hub(events, sqs)
    got = []
    deadline = time.monotonic() + n / rate + 120
    reader = threading.Thread(target=consume, args=(clients()[1], q, n, deadline, got))
    reader.start()
    refused, start = 0, time.monotonic()
    for i in range(n):
        due = start + i / rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        out = events.put_events(Entries=[{"EventBusName": bus_arn, "Source": SOURCE, "DetailType": DETAIL_TYPE,
                                          "Detail": json.dumps(document(i, time.time()))}])
        refused += out["FailedEntryCount"]
    put_secs = time.monotonic() - start
    reader.join()
    lat = sorted((at - b["sentAt"]) * 1000 for b, at in got)
    dupes = len(got) - len({b["i"] for b, _ in got})
    q95 = lat[max(0, int(len(lat) * 0.95) - 1)] if lat else float("nan")
    print(f"events put: {n} in {put_secs:.1f} s ({n / put_secs:.0f}/s, target {rate:.0f}/s), refused: {refused}")
    print(f"deliveries: {len(got)} (duplicates: {dupes})")
    if lat:
        print(f"put -> delivery ms: p50 {statistics.median(lat):.0f}, p95 {q95:.0f}, max {lat[-1]:.0f}")
    return 0 if len(got) == n and dupes == 0 and refused == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
