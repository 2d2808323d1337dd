"""EventBridge across accounts, as an Organization hub needs it (moto 5.1.22
gaps, docs/emulator.md):

- PutEvents naming another account's bus by ARN acts on the caller's own
  bus of that name (moto keeps only the name); AWS puts the event on the
  named account's bus when that bus's resource policy admits the caller
  (Amazon EventBridge User Guide, "Sending and receiving events between AWS
  accounts": https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-cross-account.html).
  Here: the event goes to that bus's rules, carrying the sender's account,
  when a statement allows events:PutEvents to the sender (principal "*",
  the account or its root) and its conditions hold; the only condition
  evaluated is StringEquals aws:PrincipalOrgID (against moto's
  Organizations), any other makes the statement not apply (fail closed).
  A refused entry answers AccessDeniedException, as AWS does per entry.
- A rule target that is an SNS topic raises NotImplementedError; here the
  (transformed) event is published to the topic.
- A target without an input transformer receives moto's default template,
  which leaves out the event's `account`; AWS passes the entire event
  ("Neither Input nor InputPath is specified: the entire event is passed to
  the target in JSON form", Target in the EventBridge API Reference:
  https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_Target.html).
  Here the default template carries `account` too (the hub function names
  the sender from it)."""

import copy
import json

from moto.core.utils import unix_time
from moto.events.models import EventsBackend, Rule, events_backends
from moto.events.utils import _BASE_EVENT_MESSAGE, EventTemplateParser
from moto.moto_api._internal import mock_random as random
from moto.organizations.models import organizations_backends
from moto.sns.models import sns_backends
from moto.utilities.arns import parse_arn


def org_id(account: str, partition: str = "aws"):
    """The id of the Organization `account` belongs to in moto, or None."""
    try:
        return organizations_backends[account][partition].describe_organization()["Organization"]["Id"]
    except Exception:  # not in an organization
        return None


def _as_list(v):
    return v if isinstance(v, list) else [v]


def _principal_matches(principal, account: str) -> bool:
    if principal == "*":
        return True
    values = _as_list((principal or {}).get("AWS", []))
    return any(v in ("*", account) or v.endswith(f"::{account}:root") for v in values)


def _conditions_hold(condition, account: str) -> bool:
    for op, pairs in (condition or {}).items():
        for key, expected in pairs.items():
            if op != "StringEquals" or key.lower() != "aws:principalorgid":
                return False
            if org_id(account) not in _as_list(expected):
                return False
    return True


def bus_admits(policy: str, account: str) -> bool:
    """Whether a bus policy lets `account` put events on the bus."""
    allowed = False
    for st in json.loads(policy or '{"Statement": []}')["Statement"]:
        if not any(a in ("events:PutEvents", "events:*") for a in _as_list(st.get("Action"))):
            continue
        if not _principal_matches(st.get("Principal"), account) or not _conditions_hold(st.get("Condition"), account):
            continue
        if st.get("Effect") == "Deny":
            return False
        allowed = True
    return allowed


def _put_remote(sender: EventsBackend, entry: dict) -> dict:
    arn = parse_arn(entry["EventBusName"])
    target = events_backends[arn.account][arn.region]
    name = arn.resource_id
    bus = target.event_buses.get(name)
    if bus is None:
        return {"ErrorCode": "ResourceNotFoundException", "ErrorMessage": f"Event bus {name} does not exist."}
    if not bus_admits(bus.policy, sender.account_id):
        return {
            "ErrorCode": "AccessDeniedException",
            "ErrorMessage": f"User: arn:aws:iam::{sender.account_id}:root is not authorized to perform: "
                            f"events:PutEvents on resource: {entry['EventBusName']}",
        }
    event_id = str(random.uuid4())
    for rule in list(bus.rules.values()):
        msg = copy.deepcopy(_BASE_EVENT_MESSAGE)
        msg.update({
            "id": event_id, "detail-type": entry["DetailType"], "source": entry["Source"],
            "account": sender.account_id, "time": entry.get("Time") or msg.get("time"),
            "region": arn.region, "resources": entry.get("Resources", []),
            "detail": json.loads(entry["Detail"]),
        })
        msg["time"] = msg["time"] or unix_time()
        msg["ingestion-time"] = unix_time()
        rule.send_to_targets(msg)
    return {"EventId": event_id}


def _cross_account_put_events() -> None:
    original = EventsBackend.put_events

    def put_events(self, events):
        remote = [
            e for e in events
            if str(e.get("EventBusName", "")).startswith("arn:")
            and parse_arn(e["EventBusName"]).account != self.account_id
        ]
        if not remote or len(events) > 10:
            return original(self, events)
        return [_put_remote(self, e) if e in remote else original(self, [e])[0] for e in events]

    EventsBackend.put_events = put_events


def _sns_targets() -> None:
    original = Rule.send_to_targets

    def send_to_targets(self, original_event, transform_input=True):
        topics = [t for t in self.targets if parse_arn(t["Arn"]).service == "sns"]
        if not topics:
            return original(self, original_event, transform_input)
        if not self.event_pattern.matches_event(original_event):
            return None
        others = [t for t in self.targets if t not in topics]
        if others:
            kept, self.targets = self.targets, others
            try:
                original(self, original_event, transform_input)
            finally:
                self.targets = kept
        for t in topics:
            arn = parse_arn(t["Arn"])
            transformer = t.get("InputTransformer", {})
            event = EventTemplateParser.parse(
                input_template=transformer.get("InputTemplate"),
                input_paths_map=transformer.get("InputPathsMap", {}),
                event=original_event,
            )
            message = event if isinstance(event, str) else json.dumps(event)
            backend = sns_backends[arn.account][arn.region]
            backend.publish(message=message, arn=t["Arn"])
        return None

    Rule.send_to_targets = send_to_targets


def _whole_event_default() -> None:
    template = EventTemplateParser.DEFAULT_EVENT_INPUT_TEMPLATE
    if '"account"' not in template:
        EventTemplateParser.DEFAULT_EVENT_INPUT_TEMPLATE = template.replace(
            '"version": "0",', '"version": "0", "account": "<account>",', 1)


def install() -> None:
    """Apply the EventBridge patches."""
    _cross_account_put_events()
    _sns_targets()
    _whole_event_default()
