"""AWS::SNS::Topic — identifier: the topic ARN."""

import json

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound, Validation
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::SNS::Topic"
PRIMARY_IDENTIFIER = "TopicArn"
CREATE_ONLY = frozenset({"TopicName", "FifoTopic"})
READ_ONLY = frozenset({"TopicArn"})

# Attributes copied verbatim when the topic has them set (non-empty).
_STRING_ATTRS = ("DisplayName", "KmsMasterKeyId", "SignatureVersion", "TracingConfig")
_JSON_ATTRS = ("DeliveryPolicy", "DataProtectionPolicy")


def _check(ident: str):
    if not ident.startswith("arn:") or ":sns:" not in ident:
        raise Validation(f"Identifier {ident} is not a topic ARN")


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one topic."""
    _check(ident)
    try:
        attrs = aws.sns.get_topic_attributes(TopicArn=ident)["Attributes"]
        tags = aws.sns.list_tags_for_resource(ResourceArn=ident).get("Tags", [])
        subs = aws.sns.list_subscriptions_by_topic(TopicArn=ident).get("Subscriptions", [])
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Topic {ident} not found") from err
        raise
    fifo = attrs.get("FifoTopic") == "true"
    model = {
        "TopicArn": ident,
        "TopicName": ident.rsplit(":", 1)[-1],
        "FifoTopic": fifo,
    }
    for key in _STRING_ATTRS:
        if attrs.get(key):
            model[key] = attrs[key]
    for key in _JSON_ATTRS:
        if attrs.get(key):
            model[key] = json.loads(attrs[key])
    if fifo:
        model["ContentBasedDeduplication"] = attrs.get("ContentBasedDeduplication") == "true"
    # Cloud Control always reports ArchivePolicy, {} when none is set.
    model["ArchivePolicy"] = json.loads(attrs["ArchivePolicy"]) if attrs.get("ArchivePolicy") else {}
    live_subs = [
        {"Endpoint": s["Endpoint"], "Protocol": s["Protocol"]}
        for s in subs
        if s.get("SubscriptionArn", "").startswith("arn:")
    ]
    if live_subs:
        model["Subscription"] = live_subs
    if tags:
        model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every topic ARN."""
    return [t["TopicArn"] for t in aws.sns.list_topics().get("Topics", [])]


def _attr_writer(key):
    def write(aws, ident, _old, new):
        if new is None:
            value = ""
        elif isinstance(new, bool):
            value = "true" if new else "false"
        elif isinstance(new, (dict, list)):
            value = json.dumps(new) if new else ""
        else:
            value = str(new)
        aws.sns.set_topic_attributes(TopicArn=ident, AttributeName=key, AttributeValue=value)

    return write


def _w_subscription(aws, ident, old, new):
    old_set = {(s["Protocol"], s["Endpoint"]) for s in old or []}
    new_set = {(s["Protocol"], s["Endpoint"]) for s in new or []}
    for protocol, endpoint in new_set - old_set:
        aws.sns.subscribe(TopicArn=ident, Protocol=protocol, Endpoint=endpoint)
    if old_set - new_set:
        for sub in aws.sns.list_subscriptions_by_topic(TopicArn=ident)["Subscriptions"]:
            if (sub["Protocol"], sub["Endpoint"]) in old_set - new_set:
                aws.sns.unsubscribe(SubscriptionArn=sub["SubscriptionArn"])


def _w_tags(aws, ident, old, new):
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.sns.tag_resource(ResourceArn=ident, Tags=tag_list(to_set))
    if to_remove:
        aws.sns.untag_resource(ResourceArn=ident, TagKeys=to_remove)


WRITERS = {key: _attr_writer(key) for key in _STRING_ATTRS + _JSON_ATTRS + ("ContentBasedDeduplication", "ArchivePolicy")}
WRITERS["Subscription"] = _w_subscription
WRITERS["Tags"] = _w_tags


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Delete the topic."""
    aws.sns.delete_topic(TopicArn=ident)
