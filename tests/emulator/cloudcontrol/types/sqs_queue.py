"""AWS::SQS::Queue — identifier: the queue URL."""

import json
from urllib.parse import urlparse

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound, Validation
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::SQS::Queue"
PRIMARY_IDENTIFIER = "QueueUrl"
CREATE_ONLY = frozenset({"FifoQueue", "QueueName"})
READ_ONLY = frozenset({"QueueUrl", "Arn"})

# Attributes whose API string values Cloud Control returns as numbers.
_INT_ATTRS = (
    "DelaySeconds",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ReceiveMessageWaitTimeSeconds",
    "VisibilityTimeout",
    "KmsDataKeyReusePeriodSeconds",
)
_BOOL_ATTRS = ("SqsManagedSseEnabled", "ContentBasedDeduplication")
_FIFO_ONLY = ("ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit")
_JSON_ATTRS = ("RedrivePolicy", "RedriveAllowPolicy")


def _parse(ident: str):
    """(account, queue name) from a queue URL of any host."""
    parts = [p for p in urlparse(ident).path.split("/") if p]
    if len(parts) != 2 or not ident.startswith(("http://", "https://")):
        raise Validation(f"Identifier {ident} is not a queue URL")
    return parts[0], parts[1]


def canonical_url(region: str, account: str, name: str) -> str:
    """The queue URL in the form real SQS (and CloudFormation) report it."""
    return f"https://sqs.{region}.amazonaws.com/{account}/{name}"


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one queue."""
    account, name = _parse(ident)
    url = canonical_url(aws.region, account, name)
    try:
        attrs = aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
        tags = aws.sqs.list_queue_tags(QueueUrl=url).get("Tags", {})
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Queue {ident} not found") from err
        raise
    model = {"QueueUrl": url, "QueueName": name, "Arn": attrs["QueueArn"]}
    for key in _INT_ATTRS:
        if key in attrs:
            model[key] = int(attrs[key])
    fifo = attrs.get("FifoQueue") == "true"
    for key in _BOOL_ATTRS:
        if key in attrs and (fifo or key not in _FIFO_ONLY):
            model[key] = attrs[key] == "true"
    if fifo:
        model["FifoQueue"] = True
        for key in ("DeduplicationScope", "FifoThroughputLimit"):
            if key in attrs:
                model[key] = attrs[key]
    if attrs.get("KmsMasterKeyId"):
        model["KmsMasterKeyId"] = attrs["KmsMasterKeyId"]
    else:
        model.pop("KmsDataKeyReusePeriodSeconds", None)
    for key in _JSON_ATTRS:
        if attrs.get(key):
            value = json.loads(attrs[key])
            if "maxReceiveCount" in value:
                value["maxReceiveCount"] = int(value["maxReceiveCount"])
            model[key] = value
    if tags:
        model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every queue URL, in canonical form."""
    out = []
    for url in aws.sqs.list_queues().get("QueueUrls", []):
        account, name = _parse(url)
        out.append(canonical_url(aws.region, account, name))
    return out


def _attr_writer(key):
    def write(aws, ident, _old, new):
        if new is None:
            value = ""
        elif isinstance(new, bool):
            value = "true" if new else "false"
        elif isinstance(new, (dict, list)):
            value = json.dumps(new)
        else:
            value = str(new)
        aws.sqs.set_queue_attributes(QueueUrl=ident, Attributes={key: value})

    return write


def _w_tags(aws, ident, old, new):
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.sqs.tag_queue(QueueUrl=ident, Tags=to_set)
    if to_remove:
        aws.sqs.untag_queue(QueueUrl=ident, TagKeys=to_remove)


WRITERS = {
    key: _attr_writer(key)
    for key in _INT_ATTRS
    + _BOOL_ATTRS
    + _JSON_ATTRS
    + ("KmsMasterKeyId", "DeduplicationScope", "FifoThroughputLimit")
}
WRITERS["Tags"] = _w_tags


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    account, name = _parse(ident)
    apply_writers(TYPE_NAME, WRITERS, aws, canonical_url(aws.region, account, name), before, after)


def delete(aws, ident: str) -> None:
    """Delete the queue."""
    account, name = _parse(ident)
    aws.sqs.delete_queue(QueueUrl=canonical_url(aws.region, account, name))
