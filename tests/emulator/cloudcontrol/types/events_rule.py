"""AWS::Events::Rule — identifier: the rule ARN (a bare name means the default bus)."""

import json

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound, Validation
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::Events::Rule"
PRIMARY_IDENTIFIER = "Arn"
CREATE_ONLY = frozenset({"Name"})
READ_ONLY = frozenset({"Arn"})

# Target keys Cloud Control reports as they are: same names and shapes in the
# EventBridge API and the CloudFormation model. (EcsParameters is not: its API
# shape uses awsvpcConfiguration; it is not read, see docs/emulator.md.)
_TARGET_KEYS = (
    "Id",
    "Arn",
    "RoleArn",
    "Input",
    "InputPath",
    "InputTransformer",
    "DeadLetterConfig",
    "RetryPolicy",
    "SqsParameters",
    "KinesisParameters",
    "HttpParameters",
    "RunCommandParameters",
    "BatchParameters",
    "RedshiftDataParameters",
    "SageMakerPipelineParameters",
    "AppSyncParameters",
)


def parse(ident: str):
    """(event bus name, rule name) from a rule ARN or a bare rule name."""
    if ident.startswith("arn:"):
        if ":rule/" not in ident:
            raise Validation(f"Identifier {ident} is not a rule ARN")
        path = ident.split(":rule/", 1)[1].split("/")
        return ("default", path[0]) if len(path) == 1 else (path[0], path[1])
    if not ident or "/" in ident:
        raise Validation(f"Identifier {ident} is not a rule ARN or name")
    return "default", ident


def _target(t: dict) -> dict:
    return {k: t[k] for k in _TARGET_KEYS if k in t}


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one rule."""
    bus, name = parse(ident)
    ev = aws.events
    try:
        rule = ev.describe_rule(Name=name, EventBusName=bus)
        targets = ev.list_targets_by_rule(Rule=name, EventBusName=bus).get("Targets", [])
        tags = ev.list_tags_for_resource(ResourceARN=rule["Arn"]).get("Tags", [])
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Rule {ident} not found") from err
        raise
    model = {
        "Name": rule["Name"],
        "Arn": rule["Arn"],
        # Cloud Control's Id is the rule name on the default bus, bus|name elsewhere.
        "Id": rule["Name"] if bus == "default" else f"{bus}|{rule['Name']}",
        "EventBusName": rule.get("EventBusName", bus),
        "State": rule.get("State", "ENABLED"),
        "Targets": [_target(t) for t in targets],
    }
    if rule.get("ScheduleExpression"):
        model["ScheduleExpression"] = rule["ScheduleExpression"]
    if rule.get("EventPattern"):
        model["EventPattern"] = json.loads(rule["EventPattern"])
    if rule.get("Description"):
        model["Description"] = rule["Description"]
    if rule.get("RoleArn"):
        model["RoleArn"] = rule["RoleArn"]
    if tags:
        model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every rule ARN on the default bus."""
    return [r["Arn"] for r in aws.events.list_rules().get("Rules", [])]


def _put_rule(aws, after: dict):
    kwargs = {"Name": after["Name"], "EventBusName": after.get("EventBusName", "default")}
    kwargs["State"] = after.get("State", "ENABLED")
    if after.get("ScheduleExpression"):
        kwargs["ScheduleExpression"] = after["ScheduleExpression"]
    if after.get("EventPattern"):
        kwargs["EventPattern"] = json.dumps(after["EventPattern"])
    kwargs["Description"] = after.get("Description", "")
    if after.get("RoleArn"):
        kwargs["RoleArn"] = after["RoleArn"]
    aws.events.put_rule(**kwargs)


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    bus, name = parse(ident)
    rule_keys = ("State", "ScheduleExpression", "EventPattern", "Description", "RoleArn")
    if any(before.get(k) != after.get(k) for k in rule_keys):
        _put_rule(aws, after)

    def w_targets(aws_, _ident, old, new):
        new_ids = {t["Id"] for t in new or []}
        gone = [t["Id"] for t in old or [] if t["Id"] not in new_ids]
        if gone:
            aws_.events.remove_targets(Rule=name, EventBusName=bus, Ids=gone)
        changed = [t for t in new or [] if t not in (old or [])]
        if changed:
            aws_.events.put_targets(Rule=name, EventBusName=bus, Targets=changed)

    def w_tags(aws_, _ident, old, new):
        to_set, to_remove = tag_changes(old, new)
        if to_set:
            aws_.events.tag_resource(ResourceARN=after["Arn"], Tags=tag_list(to_set))
        if to_remove:
            aws_.events.untag_resource(ResourceARN=after["Arn"], TagKeys=to_remove)

    writers = {k: (lambda *_: None) for k in rule_keys}
    writers["Targets"] = w_targets
    writers["Tags"] = w_tags
    apply_writers(TYPE_NAME, writers, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Remove the rule's targets, then the rule."""
    bus, name = parse(ident)
    read(aws, ident)  # NotFound when absent: DeleteRule itself is silent about it
    targets = aws.events.list_targets_by_rule(Rule=name, EventBusName=bus).get("Targets", [])
    if targets:
        aws.events.remove_targets(Rule=name, EventBusName=bus, Ids=[t["Id"] for t in targets])
    aws.events.delete_rule(Name=name, EventBusName=bus)
