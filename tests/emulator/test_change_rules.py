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

import json

from change_stream import change_patterns, forwarded_indexes, load_items, verdicts


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
    # Of the noise set only the two mapped successful calls pass: CreateTags on an
    # instance (no watched type) and CloudFormation's role update, which on-change
    # accepts and then screens by the owning stack's state (docs/on-change-events.md).
    assert [screened[i]["verdict"] for i in sorted(forwarded) if items[i][0] == "noise"] == ["unidentified", "accepted"]
    assert figures["real"]["forwarded"] < figures["real"]["total"] / 2
