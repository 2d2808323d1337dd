#!/usr/bin/env python3
"""Load of the hub's delivery on the emulator, through the hub function (a
measurement, not a test; tests/emulator/hub_bench.py says what runs).

Synthetic member transitions from several member accounts are put on the
findings bus at a set rate; the hub's delivery rule, queue and the real
`realdrift-hub` binary in the local Lambda runtime deliver them to the hub
topic, whose `sqs` subscriber is read. Printed: events put, alerts in the
inbox (each once, named), duplicates, partial-batch failures, hub
invocations, put -> inbox latency p50 / p95 / max, wall time. Exit 1 when
a transition was not delivered exactly once with its name.

    scripts/bench-hub-delivery.sh                                  # 1000 events at 50/s
    BENCH_EVENTS=50 BENCH_RATE=25 scripts/bench-hub-delivery.sh

Knobs: BENCH_EVENTS (1000), BENCH_RATE (50 per second), BENCH_ACCOUNTS (4),
BENCH_INSTANCES (the hub's concurrency: the app's cap, else Lambda's SQS
start of 5), BENCH_DRAIN_SECONDS (60: how long to await the inbox after the
last put), BENCH_SLACK=1 (the hub also posts each alert to a local
webhook through its Slack secret; posts counted). Needs AWS_ENDPOINT_URL (the wrapper starts a private emulator);
REALDRIFT_FUNCTIONS_DIR names prebuilt binaries (else cargo builds them).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "emulator"))

import hub_bench  # noqa: E402


def main():
    env = os.environ.get
    figures = hub_bench.run(
        events=int(env("BENCH_EVENTS", "1000")),
        rate=float(env("BENCH_RATE", "50")),
        accounts=int(env("BENCH_ACCOUNTS", "4")),
        instances=int(env("BENCH_INSTANCES", "0")) or None,
        drain_seconds=float(env("BENCH_DRAIN_SECONDS", "60")),
        log_dir=env("BENCH_LOG_DIR"),
        slack=env("BENCH_SLACK", "0") == "1",
    )
    print("\n".join(hub_bench.report(figures)))
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if hub_bench.clean(figures) else 1


if __name__ == "__main__":
    sys.exit(main())
