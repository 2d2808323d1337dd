"""Issue 44 §6: the event path under load, bounded.

300 events (the real records and the noise set, cycled) with 3 genuine
out-of-band changes to the deployed, scanned fixture stack among them go
through the change rules on the emulator's EventBridge, the change queue,
and the on-change function's binary in the local Lambda runtime (two
instances, fed by a local event source mapping), to the SNS topic. Exactly
one alert per change, none for anything else: the noise and the real
records of other accounts never alert. Waits for the alerts by polling up
to a generous bound; asserts counts, never timing.
"""

import time

from event_path import EventPath, mixed_stream

EVENTS, CHANGES, RATE = 300, 3, 100.0
BOUND_SECONDS = 120


def test_three_changes_among_300_events_give_exactly_three_alerts(aws):
    stream = mixed_stream(EVENTS, CHANGES)
    with EventPath(batch_size=10, window=0.0, concurrency=2) as path:
        sent = path.replay(stream, RATE, time.monotonic() + BOUND_SECONDS)
        assert len(sent) == EVENTS
        bound = time.monotonic() + BOUND_SECONDS
        while len(path.alerted_changes()) < CHANGES and time.monotonic() < bound:
            time.sleep(0.2)
        # The alerts of the changes are in; whatever else the stream caused has
        # been handled once every forwarded event was (the queue drained).
        while time.monotonic() < bound and _queue_holds(aws, path.queue):
            time.sleep(0.2)
    source, docs = path.source, [doc for _, doc in path.alerts.got]
    assert source.failed_invocations == 0, source.errors
    assert path.alerted_changes() == {j: 1 for j in range(CHANGES)}, docs
    assert len(docs) == CHANGES, [d.get("findings") for d in docs]
    assert all(d["kind"] == "drift-detected" for d in docs), docs
    changes = [i for i, (kind, _) in enumerate(stream) if kind == "change"]
    assert set(changes) <= path.forwarded
    assert source.invocations >= 1


def _queue_holds(aws, url):
    attrs = aws.sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    )["Attributes"]
    return any(int(v) for v in attrs.values())
