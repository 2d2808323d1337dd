"""Issue 44 §4 storms, end to end: a person changing the fixture stack's
resources out of band in a burst gives one alert for the stack, listing
them, not one per change.

Eight genuine changes (the four changeable resources of the fixture, each
twice) go through the change rules, the change queue and the on-change
binary in the local Lambda runtime, two messages per invocation (so at
least four invocations). The storm knobs are set so the first change opens
a storm (threshold 1) and ten quiet seconds close it: each invocation holds
its changes and sends itself a flush message, delayed on the change queue
(SendMessage DelaySeconds, which moto honours); the flush that arrives
after the quiet announces the storm. Waits by polling up to a bound;
asserts counts, never timing.
"""

import time

from event_path import EventPath
from fixture_changes import FUNCTION, QUEUE, ROLE, TOPIC

CHANGES = 8
STORM = {"REALDRIFT_STORM_THRESHOLD": "1", "REALDRIFT_STORM_WINDOW_SECONDS": "10"}
BOUND_SECONDS = 90


def test_a_burst_across_invocations_gives_one_alert_listing_the_resources(aws):
    with EventPath(batch_size=2, window=0.0, concurrency=1, env=STORM) as path:
        sent = path.replay([("change", j) for j in range(CHANGES)], 1000.0, time.monotonic() + BOUND_SECONDS)
        assert len(sent) == CHANGES
        bound = time.monotonic() + BOUND_SECONDS
        while not path.alerts.got and time.monotonic() < bound:
            time.sleep(0.2)
        # Every flush (the later ones find nothing held) has been handled.
        while time.monotonic() < bound and _queue_holds(aws, path.queue):
            time.sleep(0.2)
    source, docs = path.source, [doc for _, doc in path.alerts.got]
    assert source.failed_invocations == 0, source.errors
    assert source.invocations >= CHANGES // 2 + 1, "the changes' invocations, then a flush"
    assert path.flushes >= 1, "the flush came back through the change queue"
    assert len(docs) == 1, [(d["kind"], d.get("storm")) for d in docs]
    doc = docs[0]
    assert doc["kind"] == "drift-detected", doc
    # The four changed resources, and whatever else the same re-checks found:
    # moto 5.1.22's SetQueueAttributes clears a queue's Policy when the call
    # does not set one (AWS keeps it), so the queue's policy is reported
    # deleted too, as the emulator shows it.
    named = {f["logicalId"] for f in doc["findings"]}
    assert {QUEUE, FUNCTION, TOPIC, ROLE} <= named, sorted(named)
    assert doc["storm"]["resources"] >= 4, doc["storm"]
    assert doc["storm"]["changes"] >= 4, doc["storm"]


def _queue_holds(aws, url):
    attrs = aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
        "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed",
    ])["Attributes"]
    return any(int(v) for v in attrs.values())
