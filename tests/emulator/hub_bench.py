"""The hub's delivery under load on the emulator, through the hub function.

Several member accounts of moto's Organization put synthetic transitions
(docs/json-output.md, "Findings bus event") on the hub's findings bus at a
set rate, one event per PutEvents call as members put them, each with its
own account's credentials stamp (moto's `x-moto-account-id`; the bus policy
admits the Organization only, moto_patches/events_org.py routes the put to
the hub's bus with the sender's `account`). The bus carries the hub's one
delivery rule to its queue (tests/fixtures/org/hub-delivery.json, which
infra/test/organization.test.ts keeps equal to the synthesized one); the
queue is drained by the local Lambda runtime running the real
`realdrift-hub` binary (event_source.EventSource: batch size and window as
the event source mapping sets them, N pollers and instances), with
REALDRIFT_ACCOUNT_NAMES naming every member; the hub topic's `sqs`
subscriber is the inbox read here.

Counted: events put and refused, alerts in the inbox (each transition
exactly once, with its account's name), duplicates, partial-batch
failures, hub invocations, put -> inbox latency, wall time. Bounded: the
puts take `events / rate` seconds, then the inbox is awaited for at most
`drain_seconds`. Used by scripts/bench_hub_delivery.py (the measurement)
and test_hub_bench.py (a small run that keeps it honest).
"""

import json
import os
import re
import threading
import time
import uuid

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import boto3
from botocore.config import Config

from cloudcontrol.aws import _account_header
from event_source import EventSource
from local_lambda import LocalLambda

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "fixtures", "org", "hub-delivery.json")
REGION = os.environ.get("AWS_REGION", "us-east-1")
HUB_BINARY = "realdrift-hub"
SOURCE, DETAIL_TYPE = "realdrift", "realdrift drift transition"
# Without ScalingConfig.MaximumConcurrency or reserved concurrency (the app
# sets neither), Lambda starts reading an SQS queue with five concurrent
# batches and scales up by up to 300 more a minute
# (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html).
LAMBDA_SQS_START_CONCURRENCY = 5
# One attempt per call: a botocore retry of a put that did reach the bus would be a duplicate the hub did not make.
ONE_TRY = Config(retries={"total_max_attempts": 1}, read_timeout=120, s3={"addressing_style": "path"})


def delivery_settings():
    """The synthesized delivery settings (rule pattern, queue, event source, function)."""
    with open(FIXTURE) as f:
        return json.load(f)


def instances_of(settings):
    """How many batches the hub runs at once: the app's cap when it sets one, else Lambda's start."""
    caps = [settings["eventSource"]["MaximumConcurrency"], settings["function"]["ReservedConcurrentExecutions"]]
    caps = [c for c in caps if c is not None]
    return min(caps) if caps else LAMBDA_SQS_START_CONCURRENCY


def client(service, account=None):
    """A client on the emulator; `account` set = as that account (moto's account header)."""
    session = boto3.session.Session(region_name=REGION)
    if account:
        session.events.register("before-sign", _account_header(account))
    return session.client(service, endpoint_url=os.environ["AWS_ENDPOINT_URL"], config=ONE_TRY)


def queue_arn(sqs, url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def organization():
    """The Organization of moto's default account (the hub, its management account), made when absent."""
    org = client("organizations")
    try:
        return org.describe_organization()["Organization"]["Id"]
    except org.exceptions.AWSOrganizationsNotInUseException:
        return org.create_organization(FeatureSet="ALL")["Organization"]["Id"]


def member_accounts(count, tag):
    """`count` new accounts of the Organization: {account id: name}."""
    org, out = client("organizations"), {}
    for k in range(count):
        name = f"bench-{tag}-{k}"
        account = org.create_account(Email=f"{name}@example.invalid", AccountName=name)["CreateAccountStatus"]
        # moto answers SUCCEEDED with the id at once: no need to poll DescribeCreateAccountStatus.
        # (Each new account costs the emulator about 2 s once, on its next request without an
        # account header: it loads AWS managed policies into every account's IAM.)
        if not account.get("AccountId"):
            raise RuntimeError(f"moto did not create the member account {name}: {account}")
        out[account["AccountId"]] = name
    return out


class HubWorld:
    """The hub's bus (Organization-only policy), delivery rule, queue and its
    dead-letter queue, topic with its inbox, and bucket, as the app builds them."""

    def __init__(self, settings, org_id, tag):
        events, sqs, sns = client("events"), client("sqs"), client("sns")
        self.sqs = sqs
        name = f"realdrift-findings-{tag}"
        self.bus = events.create_event_bus(Name=name)["EventBusArn"]
        # infra/lib/hub.ts busPolicyStatement.
        statement = {"Sid": "OrganizationMembersPutTransitions", "Effect": "Allow", "Principal": "*",
                     "Action": "events:PutEvents", "Resource": self.bus,
                     "Condition": {"StringEquals": {"aws:PrincipalOrgID": org_id}}}
        events.put_permission(EventBusName=name, Policy=json.dumps({"Version": "2012-10-17", "Statement": [statement]}))
        self.dead = sqs.create_queue(QueueName=f"hub-delivery-dlq-{tag}")["QueueUrl"]
        queue = settings["queue"]
        self.delivery = sqs.create_queue(QueueName=f"hub-delivery-{tag}", Attributes={
            "VisibilityTimeout": str(queue["VisibilityTimeout"]),
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": queue_arn(sqs, self.dead),
                                         "maxReceiveCount": queue["maxReceiveCount"]})})["QueueUrl"]
        rule = settings["rule"]
        target = {"Id": "Target0", "Arn": queue_arn(sqs, self.delivery)}
        if rule["targetDeadLetterQueue"]:
            target["DeadLetterConfig"] = {"Arn": queue_arn(sqs, self.dead)}
        events.put_rule(Name=f"Deliver-{tag}", EventBusName=name, EventPattern=json.dumps(rule["EventPattern"]))
        events.put_targets(Rule=f"Deliver-{tag}", EventBusName=name, Targets=[target])
        self.topic = sns.create_topic(Name=f"realdrift-hub-alerts-{tag}")["TopicArn"]
        self.inbox = sqs.create_queue(QueueName=f"hub-inbox-{tag}")["QueueUrl"]
        sns.subscribe(TopicArn=self.topic, Protocol="sqs", Endpoint=queue_arn(sqs, self.inbox))
        self.bucket = f"realdrift-hub-{tag}"
        client("s3").create_bucket(Bucket=self.bucket)

    def depth(self, url):
        """Messages on a queue: visible and in flight."""
        a = self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
            "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
        return sum(int(v) for v in a.values())


def transition(account, stack):
    """A drift-detected transition as a member's scan publishes it (docs/json-output.md, "SNS message"):
    two drifted properties, the on-paper average of docs/organization.md."""
    findings = [
        {"tier": "undeclared", "logicalId": "Queue4A7E3555", "resourceType": "AWS::SQS::Queue",
         "constructPath": f"{stack}/Queue/Resource", "path": "VisibilityTimeout", "desired": 30, "actual": 45},
        {"tier": "declared", "logicalId": "Queue4A7E3555", "resourceType": "AWS::SQS::Queue",
         "constructPath": f"{stack}/Queue/Resource", "path": "MessageRetentionPeriod", "desired": 345600,
         "actual": 86400},
    ]
    return {
        "version": 1, "kind": "drift-detected", "account": account, "region": REGION, "stack": stack,
        "summary": {"drift": 2, "driftByTier": {"declared": 1, "undeclared": 1}, "potentialDrift": 0,
                    "status": "drift"},
        "coverage": {"total": 12, "checked": 12, "skipped": 0, "lost": 0, "accepted": 0, "complete": True,
                     "coverageLost": False, "nestedNotRecursed": 0, "summary": "12 of 12 compared"},
        "cause": None, "findings": findings, "findingsOmitted": 0,
        "resources": {"count": 1, "names": [f"{stack}/Queue"], "more": 0},
    }


class Inbox:
    """Reads the hub topic's `sqs` subscriber: (arrival, {"accountName", "document"})."""

    def __init__(self, url):
        self.sqs, self.url, self.got = client("sqs"), url, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        while not self._stop.is_set():
            self.receive(1)

    def receive(self, wait):
        msgs = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10,
                                        WaitTimeSeconds=wait).get("Messages", [])
        now = time.monotonic()
        for m in msgs:
            self.got.append((now, json.loads(json.loads(m["Body"])["Message"])))
        if msgs:
            self.sqs.delete_message_batch(QueueUrl=self.url, Entries=[
                {"Id": str(k), "ReceiptHandle": m["ReceiptHandle"]} for k, m in enumerate(msgs)])
        return msgs

    def stop(self):
        self._stop.set()
        self._thread.join()
        while self.receive(0):
            pass


class SlackReceiver:
    """A local incoming webhook answering `ok`: (arrival, the transitions (stack names) each post names)."""

    def __init__(self):
        posts = self.posts = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode(errors="replace")
                posts.append((time.monotonic(), set(re.findall(r"Bench\d{6}", body))))
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/services/T000/B000/bench"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def stop_together(*parts):
    """Stops the pollers and the inbox at once (each waits out its current long poll)."""
    threads = [threading.Thread(target=p.stop) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def put_all(bus, names, events, rate):
    """Puts transition i (stack `Bench<i>`) at start + i / rate from account i % len(names), one thread
    per member account, one event per PutEvents. Returns ({stack: (account, put time)}, refused, start, seconds)."""
    accounts, sent, refused = sorted(names), {}, []
    lock, start = threading.Lock(), time.monotonic() + 0.5

    def member(k):
        events_client = client("events", accounts[k])
        for i in range(k, events, len(accounts)):
            pause = start + i / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            stack, at = f"Bench{i:06d}", time.monotonic()
            try:
                out = events_client.put_events(Entries=[{"EventBusName": bus, "Source": SOURCE,
                                                         "DetailType": DETAIL_TYPE,
                                                         "Detail": json.dumps(transition(accounts[k], stack))}])
                bad = out["FailedEntryCount"] and out["Entries"][0].get("ErrorCode")
            except Exception as e:  # a failed call: counted, never retried
                bad = type(e).__name__
            with lock:
                if bad:
                    refused.append(bad)
                else:
                    sent[stack] = (accounts[k], at)

    threads = [threading.Thread(target=member, args=(k,)) for k in range(len(accounts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sent, refused, start, time.monotonic() - start


def percentile(sorted_values, q):
    """The q-quantile (nearest rank) of a sorted list."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, max(0, int(round(q * len(sorted_values))) - 1))]


def tally(sent, got, names):
    """What the inbox shows against what was put."""
    seen, dupes, misnamed, latencies, last = {}, 0, [], [], None
    for at, msg in got:
        doc = msg.get("document") or {}
        stack, account = doc.get("stack"), doc.get("account")
        if stack not in sent:
            continue
        if stack in seen:
            dupes += 1
            continue
        seen[stack] = at
        if sent[stack][0] != account or msg.get("accountName") != names.get(account):
            misnamed.append((stack, account, msg.get("accountName")))
        latencies.append(at - sent[stack][1])
        last = at if last is None else max(last, at)
    latencies.sort()
    return {"alerts": len(seen), "duplicates": dupes, "misnamed": misnamed, "missing": len(sent) - len(seen),
            "latency": latencies, "last": last}


def run(events=1000, rate=50.0, accounts=4, instances=None, drain_seconds=60.0, log_dir=None, slack=False):
    """One bench run; returns its figures (see report()). `slack`: the hub also posts to a local webhook."""
    settings, tag = delivery_settings(), uuid.uuid4().hex[:8]
    org_id = organization()
    names = member_accounts(accounts, tag)
    world = HubWorld(settings, org_id, tag)
    instances = instances or instances_of(settings)
    es = settings["eventSource"]
    log_dir = log_dir or os.environ.get("TMPDIR", "/tmp")
    env = {"REALDRIFT_BUCKET": world.bucket, "REALDRIFT_TOPIC_ARN": world.topic,
           "REALDRIFT_ACCOUNT_NAMES": json.dumps(names), "RUST_LOG": "warn"}
    receiver = SlackReceiver() if slack else None
    if receiver:
        env["REALDRIFT_SLACK_SECRET_ID"] = client("secretsmanager").create_secret(
            Name=f"realdrift/hub-slack-{tag}", SecretString=receiver.url)["ARN"]
    with LocalLambda(env, os.path.join(log_dir, f"hub-bench-{tag}.log")) as lambdas:
        hub = lambdas.start(HUB_BINARY, instances=instances)
        source = EventSource(world.sqs, world.delivery, hub, batch_size=es["BatchSize"],
                             window=float(es["MaximumBatchingWindowInSeconds"] or 0), concurrency=instances)
        inbox = Inbox(world.inbox)
        try:
            sent, refused, t0, put_seconds = put_all(world.bus, names, events, rate)
            bound = time.monotonic() + drain_seconds
            while time.monotonic() < bound and not delivered(sent, inbox, receiver):
                time.sleep(0.2)
        finally:
            stop_together(source, inbox)
            if receiver:
                receiver.stop()
    figures = tally(sent, inbox.got, names)
    end = figures["last"] or time.monotonic()
    figures.update({
        "events": events, "rate": rate, "accounts": accounts, "instances": instances,
        "batch_size": es["BatchSize"], "put": len(sent), "refused": refused, "put_seconds": put_seconds,
        "invocations": source.invocations, "failed_invocations": source.failed_invocations,
        "failed_items": source.failed_items, "errors": source.errors[:3],
        "wall_seconds": end - t0, "left_on_queue": world.depth(world.delivery),
        "dead_lettered": world.depth(world.dead),
        "slack": None if receiver is None else {**slack_tally(receiver.posts, sent),
                                                "last_seconds": max((at for at, _ in receiver.posts), default=t0) - t0},
    })
    return figures


def delivered(sent, inbox, receiver):
    """Whether every put transition is in the inbox (and posted to Slack, when it is on)."""
    if len({m.get("document", {}).get("stack") for _, m in inbox.got} & sent.keys()) < len(sent):
        return False
    return receiver is None or slack_tally(list(receiver.posts), sent)["named"] == len(sent)


def slack_tally(posts, sent):
    """Posts to the local webhook, the put transitions they named, and posts naming one already named."""
    named, repeats = set(), 0
    for _, stacks in posts:
        stacks = stacks & sent.keys()
        repeats += bool(stacks & named)
        named |= stacks
    return {"posts": len(posts), "named": len(named), "repeats": repeats}


def report(f):
    """The figures as lines of text."""
    lat = [x * 1000 for x in f["latency"]]
    reached = f["put"] / f["put_seconds"] if f["put_seconds"] > 0 else float("nan")
    lines = [
        f"hub delivery bench: {f['events']} transitions from {f['accounts']} member accounts at "
        f"{f['rate']:g}/s; realdrift-hub x{f['instances']}, batches of up to {f['batch_size']}",
        f"events put: {f['put']} in {f['put_seconds']:.1f} s ({reached:.1f}/s), refused: {len(f['refused'])}"
        + (f" {sorted(set(f['refused']))}" if f["refused"] else ""),
        f"alerts in the inbox: {f['alerts']} of {f['put']}, named as the account: "
        f"{f['alerts'] - len(f['misnamed'])}, duplicates: {f['duplicates']}, missing: {f['missing']}",
        f"hub invocations: {f['invocations']} ({f['put'] / max(1, f['invocations']):.1f} events each), failed: "
        f"{f['failed_invocations']}, partial-batch failures: {f['failed_items']}; left on the queue: "
        f"{f['left_on_queue']}, dead-lettered: {f['dead_lettered']}",
    ]
    if lat:
        lines.append(f"put -> inbox ms: p50 {percentile(lat, 0.5):.0f}, p95 {percentile(lat, 0.95):.0f}, "
                     f"max {lat[-1]:.0f}")
    if f["slack"]:
        sl = f["slack"]
        lines.append(f"Slack posts: {sl['posts']}, naming {sl['named']} of {f['put']} transitions, "
                     f"repeats: {sl['repeats']}, last post {sl['last_seconds']:.1f} s after the first put")
    lines.append(f"wall time (first put -> last alert): {f['wall_seconds']:.1f} s")
    if f["errors"]:
        lines.append(f"invocation errors (first 3): {f['errors']}")
    return lines


def clean(f):
    """Every transition delivered once, named, nothing refused, failed or left behind."""
    return (f["put"] == f["events"] and f["alerts"] == f["put"] and not f["duplicates"] and not f["misnamed"]
            and not f["refused"] and not f["failed_items"] and not f["failed_invocations"]
            and not f["left_on_queue"] and not f["dead_lettered"]
            and (f["slack"] is None or (f["slack"]["named"] == f["put"] and not f["slack"]["repeats"])))
