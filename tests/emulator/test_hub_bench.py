"""The hub delivery bench (scripts/bench-hub-delivery.sh) kept honest: a
small run through the same path — member accounts' puts on the findings
bus, the synthesized delivery rule and queue, the real realdrift-hub
binary in the local Lambda runtime, the hub topic's inbox — delivers every
transition exactly once, named as its account, with nothing failed, left on
the queue or dead-lettered. Counts only; the bench's waits are bounds."""

import hub_bench

EVENTS = 20


def test_every_member_transition_reaches_the_inbox_once_named(emulator, tmp_path):
    f = hub_bench.run(events=EVENTS, rate=20.0, accounts=2, instances=2, drain_seconds=60.0, log_dir=str(tmp_path))
    assert f["put"] == EVENTS and not f["refused"], f["refused"]
    assert f["alerts"] == EVENTS, hub_bench.report(f)
    assert f["duplicates"] == 0 and f["misnamed"] == [], f["misnamed"][:3]
    assert f["failed_invocations"] == 0 and f["failed_items"] == 0, f["errors"]
    assert f["invocations"] >= 2, "batches of at most 10 messages"
    assert f["left_on_queue"] == 0 and f["dead_lettered"] == 0
    assert hub_bench.clean(f)
