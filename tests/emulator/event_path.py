"""The whole event path on the emulator: a mixed CloudTrail stream put on a
bus holding the change rules the CDK app generates -> the change queue ->
the on-change function (its binary, in the local Lambda runtime, fed by a
local event source mapping) -> the SNS topic -> a queue subscribed to it,
read here. The fixture stack is deployed and scanned first (the scan
function writes the resource index and the state on-change reads); the
stream's changes are genuine out-of-band changes to that stack
(fixture_changes), each put right after it is made.

Used by scripts/replay-events.py and test_event_path.py."""

import json
import os
import random
import tempfile
import threading
import time
import uuid

from change_stream import MARKER, change_patterns, load_items, put, rules_bus, wrap
from cloudcontrol.aws import Aws
from deploy_fixture import deploy
from event_source import EventSource
from fixture_changes import make_change
from local_lambda import LocalLambda

REVERT_ROLE = "arn:aws:iam::123456789012:role/realdrift-revert"
# The change queue's visibility timeout here: longer than a batch window
# plus an invocation, so a batch in hand is not handed out twice.
VISIBILITY_SECONDS = 120
# The body kind of on-change's storm flush messages (core/src/watch/flush.rs).
FLUSH_KIND = "realdrift-storm-flush"


def mixed_stream(count, changes):
    """(kind, event) in stream order: the real records and the noise set cycled,
    `changes` placeholders ("change", j) spread evenly (made when their turn comes)."""
    # Shuffled once, the same way every run, so the noise set is spread through the stream.
    pool = [(kind, event) for kind, _, event in load_items()]
    random.Random(44).shuffle(pool)
    at = {round((j + 0.5) * count / changes): j for j in range(changes)} if changes else {}
    out, k = [], 0
    for i in range(count):
        if i in at:
            out.append(("change", at[i]))
        else:
            out.append(pool[k % len(pool)])
            k += 1
    return out


class Alerts:
    """Reads the queue subscribed to the alert topic, noting when each document arrived."""

    def __init__(self, sqs, url):
        self.sqs, self.url, self.got = sqs, url, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        while not self._stop.is_set():
            self._receive(1)

    def _receive(self, wait):
        got = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10,
                                       WaitTimeSeconds=wait).get("Messages", [])
        for m in got:
            self.got.append((time.monotonic(), json.loads(json.loads(m["Body"])["Message"])))
            self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"])
        return got

    def stop(self):
        """Stops reading, after taking what the topic delivered so far."""
        self._stop.set()
        self._thread.join()
        while self._receive(0):
            pass


def change_ids(doc):
    """The change eventIDs (`change-<j>`) among the causes of an alert's findings."""
    causes = [f.get("cause") or {} for f in doc.get("findings", [])] + [doc.get("cause") or {}]
    return {c.get("eventId") for c in causes if str(c.get("eventId", "")).startswith("change-")}


class EventPath:
    """The deployed, scanned fixture stack and the running path around it."""

    def __init__(self, batch_size=10, window=0.0, concurrency=2, log_dir=None, env=None):
        self.aws = Aws(os.environ["AWS_ENDPOINT_URL"])
        tag = uuid.uuid4().hex[:8]
        self.stack = f"Replay{tag}"
        self.log_dir = log_dir or tempfile.mkdtemp(prefix="realdrift-replay-")
        s3, sns, sqs = self.aws.s3, self.aws.sns, self.aws.sqs
        bucket = f"realdrift-replay-{tag}"
        s3.create_bucket(Bucket=bucket)
        topic = sns.create_topic(Name=f"realdrift-alerts-{tag}")["TopicArn"]
        inbox = sqs.create_queue(QueueName=f"realdrift-alert-inbox-{tag}")["QueueUrl"]
        inbox_arn = sqs.get_queue_attributes(QueueUrl=inbox, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=inbox_arn)
        summary = deploy(self.stack)
        self.ids = {r["logicalId"]: r["physicalId"] for r in summary["resources"]}
        self.lambdas = LocalLambda({
            "REALDRIFT_BUCKET": bucket, "REALDRIFT_TOPIC_ARN": topic, "REALDRIFT_STACKS": self.stack,
            "REALDRIFT_REVERT_ROLE_ARN": REVERT_ROLE, "RUST_LOG": "info", **(env or {}),
        }, os.path.join(self.log_dir, "lambda.log"))
        try:
            scanned = self.lambdas.start("realdrift-scan").invoke({"stacks": [self.stack]})
            if (scanned or {}).get("stacks", [{}])[0].get("stack") != self.stack:
                raise RuntimeError(f"scan: {scanned}")
            self.alerts = Alerts(sqs, inbox)
            # The change queue with no delivery delay (the app's is changeDelaySeconds, 30 s by default).
            self.bus, self.queue = rules_bus(self.aws, change_patterns(), {
                "DelaySeconds": "0", "VisibilityTimeout": str(VISIBILITY_SECONDS)})
            self.forwarded, self.flushes = set(), 0
            # On-change sends a held storm's delayed flush to its own queue, as deployed.
            self.lambdas.env["REALDRIFT_CHANGE_QUEUE_URL"] = self.queue
            on_change = self.lambdas.start("realdrift-on-change", instances=concurrency)
            self.source = EventSource(sqs, self.queue, on_change, batch_size, window, concurrency, self._note)
        except BaseException:
            self.lambdas.close()
            raise

    def _note(self, batch, failed):
        for m in batch:
            body = json.loads(m["Body"])
            if body.get("kind") == FLUSH_KIND:
                self.flushes += 1
            elif m["MessageId"] not in failed:
                self.forwarded.add(int(body["resources"][0][len(MARKER):]))

    def replay(self, stream, rate, deadline):
        """Puts the stream on schedule (event i at i / rate s, up to ten per call); a change is
        made in the emulator just before its record is put. Returns {index: put time}."""
        sent, start, i = {}, time.monotonic(), 0
        while i < len(stream) and time.monotonic() < deadline:
            due = min(len(stream), int((time.monotonic() - start) * rate) + 1)
            if due <= i:
                time.sleep(max(0.0, start + i / rate - time.monotonic()))
                continue
            batch = []
            for j in range(i, min(due, i + 10)):
                kind, event = stream[j]
                if kind == "change":
                    event = wrap(make_change(self.aws, self.ids, event))
                batch.append((j, event))
            put(self.aws, self.bus, batch)
            now = time.monotonic()
            for j, _ in batch:
                sent[j] = now
            i = batch[-1][0] + 1
        return sent

    def alerted_changes(self):
        """{change j: alerts naming it}."""
        out = {}
        for _, doc in self.alerts.got:
            for c in change_ids(doc):
                j = int(c.split("-", 1)[1])
                out[j] = out.get(j, 0) + 1
        return out

    def close(self):
        for part in ("source", "alerts"):
            if hasattr(self, part):
                getattr(self, part).stop()
        self.lambdas.close()
        if hasattr(self, "alerts"):
            with open(os.path.join(self.log_dir, "alerts.json"), "w") as f:
                json.dump([doc for _, doc in self.alerts.got], f, indent=1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
