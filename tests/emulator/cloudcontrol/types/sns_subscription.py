"""AWS::SNS::Subscription — identifier: the subscription ARN."""

import json

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound, Validation
from .base import apply_writers

TYPE_NAME = "AWS::SNS::Subscription"
PRIMARY_IDENTIFIER = "Arn"
CREATE_ONLY = frozenset({"Endpoint", "Protocol", "TopicArn", "Region"})
READ_ONLY = frozenset({"Arn"})

# Subscription attributes that are JSON documents in the API and objects in the model.
_JSON_ATTRS = ("FilterPolicy", "RedrivePolicy", "DeliveryPolicy", "ReplayPolicy")
_STRING_ATTRS = ("FilterPolicyScope", "SubscriptionRoleArn")
# The attributes moto can set, in write order: FilterPolicyScope before
# FilterPolicy, as SNS validates a policy against the scope already set.
# (ReplayPolicy has no writer: moto rejects the attribute.)
_WRITE_ORDER = (
    "RawMessageDelivery",
    "FilterPolicyScope",
    "FilterPolicy",
    "RedrivePolicy",
    "DeliveryPolicy",
    "SubscriptionRoleArn",
)


def _check(ident: str):
    # arn:aws:sns:REGION:ACCOUNT:TOPIC:UUID
    if not ident.startswith("arn:") or ":sns:" not in ident or ident.count(":") != 6:
        raise Validation(f"Identifier {ident} is not a subscription ARN")


def attribute_value(value) -> str:
    """A model value as the SetSubscriptionAttributes string ("" clears it)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one subscription."""
    _check(ident)
    try:
        attrs = aws.sns.get_subscription_attributes(SubscriptionArn=ident)["Attributes"]
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Subscription {ident} not found") from err
        raise
    model = {
        "Arn": ident,
        "TopicArn": attrs["TopicArn"],
        "Protocol": attrs["Protocol"],
        "Endpoint": attrs["Endpoint"],
        # Cloud Control always reports RawMessageDelivery, false when unset.
        "RawMessageDelivery": attrs.get("RawMessageDelivery") == "true",
    }
    for key in _JSON_ATTRS:
        if attrs.get(key):
            model[key] = json.loads(attrs[key])
    for key in _STRING_ATTRS:
        if attrs.get(key):
            model[key] = attrs[key]
    return model


def list_identifiers(aws) -> list:
    """Every confirmed subscription ARN (pending ones have no ARN yet)."""
    subs = aws.sns.list_subscriptions().get("Subscriptions", [])
    return [s["SubscriptionArn"] for s in subs if s.get("SubscriptionArn", "").startswith("arn:")]


def _attr_writer(key):
    def write(aws, ident, _old, new):
        aws.sns.set_subscription_attributes(
            SubscriptionArn=ident, AttributeName=key, AttributeValue=attribute_value(new)
        )

    return write


WRITERS = {key: _attr_writer(key) for key in _WRITE_ORDER}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    _check(ident)
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after, first=_WRITE_ORDER)


def delete(aws, ident: str) -> None:
    """Unsubscribe."""
    read(aws, ident)  # NotFound when absent: Unsubscribe itself is silent about it
    aws.sns.unsubscribe(SubscriptionArn=ident)
