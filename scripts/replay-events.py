#!/usr/bin/env python3
"""Replays a mixed CloudTrail stream through the whole event path on the emulator.

The stream: the real records of shared/cloudtrail and the noise set
(tests/fixtures/cloudtrail-noise), cycled, with N genuine out-of-band changes
to a deployed fixture stack spread evenly among them (each really made in the
emulator just before its CloudTrail record is put: tests/emulator/
fixture_changes.py). Each event is wrapped as EventBridge delivers it and put,
at a set rate, on a private bus of the emulator's EventBridge holding the
change rules the CDK app generates, whose target is the change queue. A local
event source mapping (batch size, batching window and concurrency as the
app's `changeBatchSize`, `changeBatchWindowSeconds`, `changeConcurrency`)
hands the queue's messages to the on-change function's binary in the local
Lambda runtime; on-change publishes to an SNS topic, and a queue subscribed to
it is read here (tests/emulator/event_path.py). The fixture stack is scanned
once first (the scan function writes the index and state).

Prints events in and forwarded per kind, on-change invocations, alerts (for
changes / for anything else), and event -> alert latency (put time -> alert
received time) for the changes. The change queue has no delivery delay here
(the app's `changeDelaySeconds`, 30 s by default, comes on top in an account).

  eval "$(scripts/emulator.sh start)"
  REALDRIFT_CLOUDTRAIL_DIR=../shared/cloudtrail \\
    .venv/bin/python scripts/replay-events.py --count 10000 --rate 20 --changes 50

--rules-only measures the rule stage alone (no stack, no on-change: the
queue is read here, put -> queue latency). Bounded: --count at most 100,000,
and it stops after --max-seconds (default: the stream's duration plus 120 s)
whatever remains.
"""

import argparse
import json
import os
import statistics
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "emulator"))

from change_stream import change_patterns, load_items, put, receive, rules_bus, verdicts, wrap  # noqa: E402
from cloudcontrol.aws import Aws  # noqa: E402
from event_path import EventPath, change_ids, mixed_stream  # noqa: E402

MAX_COUNT = 100_000
ACCOUNT = "111122223333"
PERSON = {
    "type": "IAMUser",
    "principalId": "AIDAEXAMPLEALICE",
    "arn": f"arn:aws:iam::{ACCOUNT}:user/alice",
    "accountId": ACCOUNT,
    "userName": "alice",
    "sessionContext": {"attributes": {"creationDate": "2026-11-30T10:00:00Z", "mfaAuthenticated": "true"}},
}


def change(j):
    """--rules-only: the j-th change's record (a person's console edit of a watched resource)."""
    kinds = [
        ("iam.amazonaws.com", "UpdateAssumeRolePolicy", "us-east-1",
         {"roleName": "Fixture-WorkerRole-1ABCDEF", "policyDocument": "{\"Version\":\"2012-10-17\",\"Statement\":[]}"}),
        ("sqs.amazonaws.com", "SetQueueAttributes", "eu-west-1",
         {"queueUrl": f"https://sqs.eu-west-1.amazonaws.com/{ACCOUNT}/Fixture-Queue-1ABCDEF", "attributes": {"VisibilityTimeout": str(30 + j)}}),
        ("lambda.amazonaws.com", "UpdateFunctionConfiguration20150331v2", "eu-west-1",
         {"functionName": "Fixture-Worker-1ABCDEF", "timeout": 10 + j}),
        ("s3.amazonaws.com", "DeleteBucketEncryption", "eu-west-1",
         {"bucketName": "fixture-bucket-1abcdef", "Host": "fixture-bucket-1abcdef.s3.eu-west-1.amazonaws.com"}),
    ]
    source, name, region, request = kinds[j % len(kinds)]
    return wrap({
        "eventVersion": "1.09", "userIdentity": PERSON, "eventTime": "2026-11-30T11:00:00Z",
        "eventSource": source, "eventName": name, "awsRegion": region, "sourceIPAddress": "203.0.113.50",
        "userAgent": "console.amazonaws.com", "requestParameters": request, "responseElements": None,
        "requestID": f"change-req-{j}", "eventID": f"change-{j}", "readOnly": False, "eventType": "AwsApiCall",
        "managementEvent": True, "recipientAccountId": ACCOUNT, "eventCategory": "Management",
        "sessionCredentialFromConsole": "true",
    })


def stream(count, changes):
    """(kind, event) in stream order: the pool cycled, changes spread evenly."""
    pool = [(kind, event) for kind, _, event in load_items()]
    at = {round((j + 0.5) * count / changes): j for j in range(changes)} if changes else {}
    out, k = [], 0
    for i in range(count):
        if i in at:
            out.append(("change", change(at[i])))
        else:
            out.append(pool[k % len(pool)])
            k += 1
    return out


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--rate", type=float, default=20.0, help="events per second")
    p.add_argument("--changes", type=int, default=50)
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--rules-only", action="store_true", help="the rule stage alone: no on-change, no alerts")
    p.add_argument("--batch-size", type=int, default=100, help="changeBatchSize (default: the app's, 100)")
    p.add_argument("--batch-window", type=float, default=10.0,
                   help="changeBatchWindowSeconds (default: the app's, 10)")
    p.add_argument("--concurrency", type=int, default=5, help="changeConcurrency (default: the app's, 5)")
    a = p.parse_args()
    if not 1 <= a.count <= MAX_COUNT or a.rate <= 0 or not 0 <= a.changes <= a.count:
        p.error(f"need 1 <= count <= {MAX_COUNT}, rate > 0, 0 <= changes <= count")
    if a.batch_size < 1 or a.concurrency < 1 or a.batch_window < 0 or (a.batch_size > 10 and a.batch_window < 1):
        p.error("need batch size >= 1, concurrency >= 1, and a window >= 1 s for a batch size above 10 (as Lambda)")
    if "AWS_ENDPOINT_URL" not in os.environ:
        p.error('no emulator: eval "$(scripts/emulator.sh start)" first')
    return a


def collect(aws, url, received, stop):
    """Reads the queue until told to stop, noting when each event arrived."""
    while not stop.is_set():
        for i in receive(aws, url, wait_seconds=1):
            received.setdefault(i, time.monotonic())


def replay(aws, bus, events, rate, deadline):
    """Puts the events on schedule (event i at i / rate s), in calls of up to ten; returns send times."""
    sent, start, i = {}, time.monotonic(), 0
    while i < len(events) and time.monotonic() < deadline:
        due = min(len(events), int((time.monotonic() - start) * rate) + 1)
        if due <= i:
            time.sleep(max(0.0, start + i / rate - time.monotonic()))
            continue
        batch = list(range(i, min(due, i + 10)))
        now = time.monotonic()
        put(aws, bus, [(j, events[j][1]) for j in batch])
        for j in batch:
            sent[j] = now
        i = batch[-1] + 1
    return sent


def percentile(values, q):
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else (values or [0])[0]


def rules_only(a):
    aws = Aws(os.environ["AWS_ENDPOINT_URL"])
    events = stream(a.count, a.changes)
    change_idx = [i for i, (k, _) in enumerate(events) if k == "change"]
    screened = verdicts([events[i][1] for i in change_idx])
    accepted = sum(1 for v in screened if v["verdict"] == "accepted")
    bus, url = rules_bus(aws, change_patterns())
    t0 = time.monotonic()
    deadline = t0 + (a.max_seconds or a.count / a.rate + 120)
    received, stop = {}, threading.Event()
    reader = threading.Thread(target=collect, args=(aws, url, received, stop), daemon=True)
    reader.start()
    sent = replay(aws, bus, events, a.rate, deadline)
    sending = time.monotonic() - t0
    # Drain: stop 3 s after the last arrival, or at the deadline.
    while time.monotonic() < deadline and time.monotonic() - max(received.values(), default=t0) < 3:
        time.sleep(0.5)
    stop.set()
    reader.join()
    elapsed = time.monotonic() - t0

    kinds = ["real", "noise", "change"]
    report = {
        "eventsIn": {k: sum(1 for i in sent if events[i][0] == k) for k in kinds},
        "forwarded": {k: sum(1 for i in received if events[i][0] == k) for k in kinds},
        "changesAcceptedByOnChange": accepted,
        "notSent": a.count - len(sent),
        "seconds": round(elapsed, 1),
        "sendRate": round(len(sent) / max(sending, 1e-9), 1),
    }
    lat = [(received[i] - sent[i]) * 1000 for i in received if i in sent]
    if lat:
        report["putToQueueMs"] = {"p50": round(percentile(lat, 50), 1), "p95": round(percentile(lat, 95), 1), "max": round(max(lat), 1)}
    print(json.dumps(report, indent=1))
    changes_lost = a.changes - report["forwarded"]["change"]
    if changes_lost or report["notSent"]:
        print(f"replay: {changes_lost} change(s) not forwarded, {report['notSent']} event(s) not sent", file=sys.stderr)
        return 1
    return 0


def through_on_change(a):
    events = mixed_stream(a.count, a.changes)
    t0 = time.monotonic()
    deadline = t0 + (a.max_seconds or a.count / a.rate + 120)
    with EventPath(a.batch_size, a.batch_window, a.concurrency) as path:
        print(f"replay: stack {path.stack} deployed and scanned; logs in {path.log_dir}", file=sys.stderr)
        t0 = time.monotonic()
        sent = path.replay(events, a.rate, deadline)
        sending = time.monotonic() - t0
        # Drain: until every change alerted, then 5 s more for late alerts; or the deadline.
        while time.monotonic() < deadline and len(path.alerted_changes()) < a.changes:
            time.sleep(0.5)
        quiet = time.monotonic() + 5
        while time.monotonic() < min(deadline, quiet):
            time.sleep(0.5)
    elapsed = time.monotonic() - t0
    return summarize(a, events, sent, path, sending, elapsed)


def summarize(a, events, sent, path, sending, elapsed):
    """The figures, printed as JSON; exit status 1 when a change went unalerted or noise alerted."""
    kinds = ["real", "noise", "change"]
    change_at = {events[i][1]: i for i in range(len(events)) if events[i][0] == "change"}
    first_alert, for_changes, other = {}, 0, 0
    for at, doc in path.alerts.got:
        ids = [int(c.split("-", 1)[1]) for c in change_ids(doc)]
        if ids:
            for_changes += 1
        else:
            other += 1
        for j in ids:
            first_alert.setdefault(j, at)
    alerted = path.alerted_changes()
    report = {
        "eventsIn": {k: sum(1 for i in sent if events[i][0] == k) for k in kinds},
        "forwarded": {k: sum(1 for i in path.forwarded if events[i][0] == k) for k in kinds},
        "onChangeInvocations": path.source.invocations,
        "failedInvocations": path.source.failed_invocations,
        "alerts": {"forChanges": for_changes, "forOther": other, "changesAlerted": len(alerted),
                   "changesAlertedMoreThanOnce": sum(1 for n in alerted.values() if n > 1)},
        "notSent": a.count - len(sent),
        "seconds": round(elapsed, 1),
        "sendRate": round(len(sent) / max(sending, 1e-9), 1),
        "eventSource": {"batchSize": a.batch_size, "batchWindowSeconds": a.batch_window,
                        "concurrency": a.concurrency, "deliveryDelaySeconds": 0},
    }
    lat = [(at - sent[change_at[j]]) * 1000 for j, at in first_alert.items() if change_at.get(j) in sent]
    if lat:
        report["eventToAlertMs"] = {"p50": round(percentile(lat, 50)), "p95": round(percentile(lat, 95)),
                                    "max": round(max(lat)), "excludes": "the queue's delivery delay (30 s in the app)"}
    if path.source.errors:
        report["invocationErrors"] = path.source.errors[:3]
    print(json.dumps(report, indent=1))
    unalerted = a.changes - len(alerted)
    if unalerted or other or report["notSent"]:
        print(f"replay: {unalerted} change(s) not alerted, {other} alert(s) for no change, "
              f"{report['notSent']} event(s) not sent", file=sys.stderr)
        return 1
    return 0


def main():
    a = parse_args()
    return rules_only(a) if a.rules_only else through_on_change(a)


if __name__ == "__main__":
    sys.exit(main())
