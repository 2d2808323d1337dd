"""AWS::DynamoDB::Table — identifier: the table name."""

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::DynamoDB::Table"
PRIMARY_IDENTIFIER = "TableName"
CREATE_ONLY = frozenset({"TableName", "ImportSourceSpecification"})
READ_ONLY = frozenset({"Arn", "StreamArn"})


def _throughput(pt: dict) -> dict:
    return {
        "ReadCapacityUnits": pt["ReadCapacityUnits"],
        "WriteCapacityUnits": pt["WriteCapacityUnits"],
    }


def _warm(wt) -> dict:
    return {
        "ReadUnitsPerSecond": wt["ReadUnitsPerSecond"],
        "WriteUnitsPerSecond": wt["WriteUnitsPerSecond"],
    }


def _index(idx: dict, provisioned: bool, gsi: bool) -> dict:
    proj = idx.get("Projection", {})
    out = {
        "IndexName": idx["IndexName"],
        "KeySchema": [{"AttributeName": k["AttributeName"], "KeyType": k["KeyType"]} for k in idx["KeySchema"]],
        "Projection": {
            "ProjectionType": proj.get("ProjectionType", "ALL"),
            "NonKeyAttributes": list(proj.get("NonKeyAttributes", [])),
        },
    }
    if gsi:
        if provisioned and idx.get("ProvisionedThroughput"):
            out["ProvisionedThroughput"] = _throughput(idx["ProvisionedThroughput"])
        if idx.get("WarmThroughput"):
            out["WarmThroughput"] = _warm(idx["WarmThroughput"])
    return out


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one table."""
    ddb = aws.dynamodb
    try:
        table = ddb.describe_table(TableName=ident)["Table"]
        backups = ddb.describe_continuous_backups(TableName=ident)["ContinuousBackupsDescription"]
        ttl = ddb.describe_time_to_live(TableName=ident)["TimeToLiveDescription"]
        tags = ddb.list_tags_of_resource(ResourceArn=table["TableArn"]).get("Tags", [])
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Table {ident} not found") from err
        raise
    billing = table.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED")
    provisioned = billing == "PROVISIONED"
    model = {
        "TableName": table["TableName"],
        "Arn": table["TableArn"],
        "AttributeDefinitions": [
            {"AttributeName": a["AttributeName"], "AttributeType": a["AttributeType"]}
            for a in table["AttributeDefinitions"]
        ],
        "KeySchema": [{"AttributeName": k["AttributeName"], "KeyType": k["KeyType"]} for k in table["KeySchema"]],
        "BillingMode": billing,
        "DeletionProtectionEnabled": bool(table.get("DeletionProtectionEnabled", False)),
        "SSESpecification": {"SSEEnabled": table.get("SSEDescription", {}).get("Status") == "ENABLED"},
    }
    if provisioned:
        model["ProvisionedThroughput"] = _throughput(table["ProvisionedThroughput"])
    if table.get("WarmThroughput"):
        model["WarmThroughput"] = _warm(table["WarmThroughput"])
    if table.get("GlobalSecondaryIndexes"):
        model["GlobalSecondaryIndexes"] = [_index(i, provisioned, True) for i in table["GlobalSecondaryIndexes"]]
    if table.get("LocalSecondaryIndexes"):
        model["LocalSecondaryIndexes"] = [_index(i, provisioned, False) for i in table["LocalSecondaryIndexes"]]
    stream = table.get("StreamSpecification", {})
    if stream.get("StreamEnabled"):
        model["StreamSpecification"] = {"StreamViewType": stream["StreamViewType"]}
        model["StreamArn"] = table["LatestStreamArn"]
    pitr = backups.get("PointInTimeRecoveryDescription", {})
    model["PointInTimeRecoverySpecification"] = {
        "PointInTimeRecoveryEnabled": pitr.get("PointInTimeRecoveryStatus") == "ENABLED"
    }
    if pitr.get("PointInTimeRecoveryStatus") == "ENABLED" and pitr.get("RecoveryPeriodInDays"):
        model["PointInTimeRecoverySpecification"]["RecoveryPeriodInDays"] = pitr["RecoveryPeriodInDays"]
    ttl_on = ttl.get("TimeToLiveStatus") == "ENABLED"
    model["TimeToLiveSpecification"] = {"Enabled": ttl_on}
    if ttl_on:
        model["TimeToLiveSpecification"]["AttributeName"] = ttl["AttributeName"]
    # Cloud Control always reports the table's Tags, [] when there are none.
    model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every table name."""
    return list(aws.dynamodb.list_tables().get("TableNames", []))


def _w_billing(aws, ident, _old, new):
    aws.dynamodb.update_table(TableName=ident, BillingMode=new or "PROVISIONED")


def _w_throughput(aws, ident, _old, new):
    if new:
        aws.dynamodb.update_table(TableName=ident, ProvisionedThroughput=new)


def _w_deletion(aws, ident, _old, new):
    aws.dynamodb.update_table(TableName=ident, DeletionProtectionEnabled=bool(new))


def _w_stream(aws, ident, _old, new):
    spec = {"StreamEnabled": True, "StreamViewType": new["StreamViewType"]} if new else {"StreamEnabled": False}
    aws.dynamodb.update_table(TableName=ident, StreamSpecification=spec)


def _w_sse(aws, ident, _old, new):
    aws.dynamodb.update_table(TableName=ident, SSESpecification={"Enabled": bool((new or {}).get("SSEEnabled"))})


def _w_pitr(aws, ident, _old, new):
    spec = {"PointInTimeRecoveryEnabled": bool((new or {}).get("PointInTimeRecoveryEnabled"))}
    if spec["PointInTimeRecoveryEnabled"] and (new or {}).get("RecoveryPeriodInDays"):
        spec["RecoveryPeriodInDays"] = int(new["RecoveryPeriodInDays"])
    aws.dynamodb.update_continuous_backups(TableName=ident, PointInTimeRecoverySpecification=spec)


def _w_ttl(aws, ident, old, new):
    new = new or {"Enabled": False}
    name = new.get("AttributeName") or (old or {}).get("AttributeName")
    if name:
        aws.dynamodb.update_time_to_live(
            TableName=ident, TimeToLiveSpecification={"Enabled": bool(new["Enabled"]), "AttributeName": name}
        )


def _w_tags(aws, ident, old, new):
    arn = aws.dynamodb.describe_table(TableName=ident)["Table"]["TableArn"]
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.dynamodb.tag_resource(ResourceArn=arn, Tags=tag_list(to_set))
    if to_remove:
        aws.dynamodb.untag_resource(ResourceArn=arn, TagKeys=to_remove)


WRITERS = {
    "BillingMode": _w_billing,
    "ProvisionedThroughput": _w_throughput,
    "DeletionProtectionEnabled": _w_deletion,
    "StreamSpecification": _w_stream,
    "SSESpecification": _w_sse,
    "PointInTimeRecoverySpecification": _w_pitr,
    "TimeToLiveSpecification": _w_ttl,
    "Tags": _w_tags,
}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Delete the table."""
    aws.dynamodb.delete_table(TableName=ident)
