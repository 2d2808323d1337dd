"""AWS::Logs::LogGroup — identifier: the log group name."""

from ..errors import ResourceNotFound
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::Logs::LogGroup"
PRIMARY_IDENTIFIER = "LogGroupName"
CREATE_ONLY = frozenset({"LogGroupName"})
READ_ONLY = frozenset({"Arn"})


def _find(aws, name: str):
    pages = aws.logs.get_paginator("describe_log_groups").paginate(logGroupNamePrefix=name)
    for page in pages:
        for group in page["logGroups"]:
            if group["logGroupName"] == name:
                return group
    return None


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one log group."""
    group = _find(aws, ident)
    if group is None:
        raise ResourceNotFound(f"Log group {ident} not found")
    model = {"LogGroupName": ident, "Arn": group["arn"]}
    if group.get("retentionInDays"):
        model["RetentionInDays"] = group["retentionInDays"]
    if group.get("kmsKeyId"):
        model["KmsKeyId"] = group["kmsKeyId"]
    if group.get("logGroupClass"):
        model["LogGroupClass"] = group["logGroupClass"]
    arn = group.get("logGroupArn", group["arn"].removesuffix(":*"))
    tags = aws.logs.list_tags_for_resource(resourceArn=arn).get("tags", {})
    if tags:
        model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every log group name."""
    out = []
    for page in aws.logs.get_paginator("describe_log_groups").paginate():
        out.extend(g["logGroupName"] for g in page["logGroups"])
    return out


def _w_retention(aws, ident, _old, new):
    if new:
        aws.logs.put_retention_policy(logGroupName=ident, retentionInDays=int(new))
    else:
        aws.logs.delete_retention_policy(logGroupName=ident)


def _w_kms(aws, ident, _old, new):
    if new:
        aws.logs.associate_kms_key(logGroupName=ident, kmsKeyId=new)
    else:
        aws.logs.disassociate_kms_key(logGroupName=ident)


def _w_tags(aws, ident, old, new):
    arn = _find(aws, ident)["arn"].removesuffix(":*")
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.logs.tag_resource(resourceArn=arn, tags=to_set)
    if to_remove:
        aws.logs.untag_resource(resourceArn=arn, tagKeys=to_remove)


WRITERS = {"RetentionInDays": _w_retention, "KmsKeyId": _w_kms, "Tags": _w_tags}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Delete the log group."""
    if _find(aws, ident) is None:
        raise ResourceNotFound(f"Log group {ident} not found")
    aws.logs.delete_log_group(logGroupName=ident)
