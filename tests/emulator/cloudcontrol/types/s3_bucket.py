"""AWS::S3::Bucket — identifier: the bucket name."""

from botocore.exceptions import ClientError

from ..aws import error_code, is_not_found
from ..errors import HandlerFailure, ResourceNotFound
from .base import apply_writers, tag_list, tag_map
from .s3_configs import notification_from_api, notification_to_api, replication_from_api, replication_to_api

TYPE_NAME = "AWS::S3::Bucket"
PRIMARY_IDENTIFIER = "BucketName"
CREATE_ONLY = frozenset({"BucketName", "BucketNamePrefix", "BucketNamespace"})
READ_ONLY = frozenset({"Arn", "DomainName", "DualStackDomainName", "RegionalDomainName", "WebsiteURL"})

# S3 answers these codes when a bucket simply has no such sub-configuration.
_ABSENT = frozenset(
    {
        "ServerSideEncryptionConfigurationNotFoundError",
        "NoSuchPublicAccessBlockConfiguration",
        "OwnershipControlsNotFoundError",
        "NoSuchTagSet",
        "NoSuchCORSConfiguration",
        "NoSuchLifecycleConfiguration",
        "ObjectLockConfigurationNotFoundError",
        "ReplicationConfigurationNotFoundError",
    }
)


def _optional(call, **kwargs):
    """The response of an S3 sub-configuration read, or None when unset."""
    try:
        return call(**kwargs)
    except ClientError as err:
        if error_code(err) in _ABSENT:
            return None
        raise


def _encryption(resp) -> dict:
    rules = []
    for rule in resp["ServerSideEncryptionConfiguration"]["Rules"]:
        default = rule.get("ApplyServerSideEncryptionByDefault", {})
        sse = {"SSEAlgorithm": default.get("SSEAlgorithm")}
        if default.get("KMSMasterKeyID"):
            sse["KMSMasterKeyID"] = default["KMSMasterKeyID"]
        rules.append(
            {
                "BucketKeyEnabled": bool(rule.get("BucketKeyEnabled", False)),
                "ServerSideEncryptionByDefault": sse,
            }
        )
    return {"ServerSideEncryptionConfiguration": rules}


def _cors_rule(rule: dict) -> dict:
    out = {}
    for api, cfn in (
        ("ID", "Id"),
        ("AllowedHeaders", "AllowedHeaders"),
        ("AllowedMethods", "AllowedMethods"),
        ("AllowedOrigins", "AllowedOrigins"),
        ("ExposeHeaders", "ExposedHeaders"),
        ("MaxAgeSeconds", "MaxAge"),
    ):
        if api in rule:
            out[cfn] = rule[api]
    return out


def _cors_rule_api(rule: dict) -> dict:
    out = {}
    for api, cfn in (
        ("ID", "Id"),
        ("AllowedHeaders", "AllowedHeaders"),
        ("AllowedMethods", "AllowedMethods"),
        ("AllowedOrigins", "AllowedOrigins"),
        ("ExposeHeaders", "ExposedHeaders"),
        ("MaxAgeSeconds", "MaxAge"),
    ):
        if cfn in rule:
            out[api] = rule[cfn]
    return out


def _lifecycle_rule(rule: dict) -> dict:
    out = {"Status": rule["Status"]}
    if "ID" in rule:
        out["Id"] = rule["ID"]
    prefix = rule.get("Filter", {}).get("Prefix", rule.get("Prefix"))
    if prefix is not None:
        out["Prefix"] = prefix
    exp = rule.get("Expiration", {})
    if "Days" in exp:
        out["ExpirationInDays"] = exp["Days"]
    if "Date" in exp:
        out["ExpirationDate"] = exp["Date"].strftime("%Y-%m-%dT%H:%M:%SZ") if hasattr(exp["Date"], "strftime") else exp["Date"]
    if "ExpiredObjectDeleteMarker" in exp:
        out["ExpiredObjectDeleteMarker"] = exp["ExpiredObjectDeleteMarker"]
    transitions = []
    for t in rule.get("Transitions", []):
        item = {"StorageClass": t["StorageClass"]}
        if "Days" in t:
            item["TransitionInDays"] = t["Days"]
        if "Date" in t:
            item["TransitionDate"] = t["Date"].strftime("%Y-%m-%dT%H:%M:%SZ") if hasattr(t["Date"], "strftime") else t["Date"]
        transitions.append(item)
    if transitions:
        out["Transitions"] = transitions
    if "AbortIncompleteMultipartUpload" in rule:
        out["AbortIncompleteMultipartUpload"] = {
            "DaysAfterInitiation": rule["AbortIncompleteMultipartUpload"]["DaysAfterInitiation"]
        }
    if "NoncurrentVersionExpiration" in rule:
        out["NoncurrentVersionExpiration"] = {
            "NoncurrentDays": rule["NoncurrentVersionExpiration"]["NoncurrentDays"]
        }
    return out


def _lifecycle_rule_api(rule: dict) -> dict:
    out = {"Status": rule["Status"], "Filter": {"Prefix": rule.get("Prefix", "")}}
    if "Id" in rule:
        out["ID"] = rule["Id"]
    exp = {}
    if "ExpirationInDays" in rule:
        exp["Days"] = rule["ExpirationInDays"]
    if "ExpirationDate" in rule:
        exp["Date"] = rule["ExpirationDate"]
    if "ExpiredObjectDeleteMarker" in rule:
        exp["ExpiredObjectDeleteMarker"] = rule["ExpiredObjectDeleteMarker"]
    if exp:
        out["Expiration"] = exp
    transitions = []
    for t in rule.get("Transitions", []):
        item = {"StorageClass": t["StorageClass"]}
        if "TransitionInDays" in t:
            item["Days"] = t["TransitionInDays"]
        if "TransitionDate" in t:
            item["Date"] = t["TransitionDate"]
        transitions.append(item)
    if transitions:
        out["Transitions"] = transitions
    if "AbortIncompleteMultipartUpload" in rule:
        out["AbortIncompleteMultipartUpload"] = rule["AbortIncompleteMultipartUpload"]
    if "NoncurrentVersionExpiration" in rule:
        out["NoncurrentVersionExpiration"] = rule["NoncurrentVersionExpiration"]
    return out


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one bucket."""
    s3 = aws.s3
    try:
        s3.head_bucket(Bucket=ident)
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Bucket {ident} not found") from err
        raise
    region = aws.region
    model = {
        "BucketName": ident,
        "Arn": f"arn:aws:s3:::{ident}",
        "DomainName": f"{ident}.s3.amazonaws.com",
        "DualStackDomainName": f"{ident}.s3.dualstack.{region}.amazonaws.com",
        "RegionalDomainName": f"{ident}.s3.{region}.amazonaws.com",
        "WebsiteURL": f"http://{ident}.s3-website-{region}.amazonaws.com",
    }
    enc = _optional(s3.get_bucket_encryption, Bucket=ident)
    if enc:
        model["BucketEncryption"] = _encryption(enc)
    pab = _optional(s3.get_public_access_block, Bucket=ident)
    if pab:
        model["PublicAccessBlockConfiguration"] = dict(pab["PublicAccessBlockConfiguration"])
    own = _optional(s3.get_bucket_ownership_controls, Bucket=ident)
    if own:
        model["OwnershipControls"] = {
            "Rules": [{"ObjectOwnership": r["ObjectOwnership"]} for r in own["OwnershipControls"]["Rules"]]
        }
    ver = s3.get_bucket_versioning(Bucket=ident)
    if ver.get("Status"):
        model["VersioningConfiguration"] = {"Status": ver["Status"]}
    acc = s3.get_bucket_accelerate_configuration(Bucket=ident)
    if acc.get("Status"):
        model["AccelerateConfiguration"] = {"AccelerationStatus": acc["Status"]}
    cors = _optional(s3.get_bucket_cors, Bucket=ident)
    if cors:
        model["CorsConfiguration"] = {"CorsRules": [_cors_rule(r) for r in cors["CORSRules"]]}
    life = _optional(s3.get_bucket_lifecycle_configuration, Bucket=ident)
    if life:
        model["LifecycleConfiguration"] = {"Rules": [_lifecycle_rule(r) for r in life["Rules"]]}
        if life.get("TransitionDefaultMinimumObjectSize"):
            model["LifecycleConfiguration"]["TransitionDefaultMinimumObjectSize"] = life[
                "TransitionDefaultMinimumObjectSize"
            ]
    lock = _optional(s3.get_object_lock_configuration, Bucket=ident)
    if lock and lock["ObjectLockConfiguration"].get("ObjectLockEnabled") == "Enabled":
        model["ObjectLockEnabled"] = True
        model["ObjectLockConfiguration"] = dict(lock["ObjectLockConfiguration"])
    logging = s3.get_bucket_logging(Bucket=ident).get("LoggingEnabled")
    if logging:
        model["LoggingConfiguration"] = {"DestinationBucketName": logging["TargetBucket"]}
        if logging.get("TargetPrefix"):
            model["LoggingConfiguration"]["LogFilePrefix"] = logging["TargetPrefix"]
    notification = notification_from_api(s3.get_bucket_notification_configuration(Bucket=ident))
    if notification:
        model["NotificationConfiguration"] = notification
    replication = _optional(s3.get_bucket_replication, Bucket=ident)
    if replication:
        model["ReplicationConfiguration"] = replication_from_api(replication["ReplicationConfiguration"])
    tags = _optional(s3.get_bucket_tagging, Bucket=ident)
    if tags and tags.get("TagSet"):
        model["Tags"] = tag_list(tags["TagSet"])
    return model


def list_identifiers(aws) -> list:
    """Every bucket name."""
    return [b["Name"] for b in aws.s3.list_buckets().get("Buckets", [])]


def _w_versioning(aws, ident, _old, new):
    # A bucket cannot return to "never versioned": removal suspends it, as CC does.
    status = (new or {}).get("Status", "Suspended")
    aws.s3.put_bucket_versioning(Bucket=ident, VersioningConfiguration={"Status": status})


def _w_accelerate(aws, ident, _old, new):
    status = (new or {}).get("AccelerationStatus", "Suspended")
    aws.s3.put_bucket_accelerate_configuration(
        Bucket=ident, AccelerateConfiguration={"Status": status}
    )


def _w_cors(aws, ident, _old, new):
    if new:
        rules = [_cors_rule_api(r) for r in new.get("CorsRules", [])]
        aws.s3.put_bucket_cors(Bucket=ident, CORSConfiguration={"CORSRules": rules})
    else:
        aws.s3.delete_bucket_cors(Bucket=ident)


def _w_lifecycle(aws, ident, _old, new):
    if new:
        rules = [_lifecycle_rule_api(r) for r in new.get("Rules", [])]
        aws.s3.put_bucket_lifecycle_configuration(
            Bucket=ident, LifecycleConfiguration={"Rules": rules}
        )
    else:
        aws.s3.delete_bucket_lifecycle(Bucket=ident)


def _w_pab(aws, ident, _old, new):
    if new:
        aws.s3.put_public_access_block(Bucket=ident, PublicAccessBlockConfiguration=new)
    else:
        aws.s3.delete_public_access_block(Bucket=ident)


def _w_ownership(aws, ident, _old, new):
    if new:
        aws.s3.put_bucket_ownership_controls(Bucket=ident, OwnershipControls=new)
    else:
        aws.s3.delete_bucket_ownership_controls(Bucket=ident)


def _w_encryption(aws, ident, _old, new):
    if new:
        rules = []
        for rule in new.get("ServerSideEncryptionConfiguration", []):
            rules.append(
                {
                    "ApplyServerSideEncryptionByDefault": rule.get("ServerSideEncryptionByDefault", {}),
                    "BucketKeyEnabled": rule.get("BucketKeyEnabled", False),
                }
            )
        aws.s3.put_bucket_encryption(
            Bucket=ident, ServerSideEncryptionConfiguration={"Rules": rules}
        )
    else:
        aws.s3.delete_bucket_encryption(Bucket=ident)


def _w_logging(aws, ident, _old, new):
    status = {}
    if new:
        status["LoggingEnabled"] = {
            "TargetBucket": new["DestinationBucketName"],
            "TargetPrefix": new.get("LogFilePrefix", ""),
        }
    aws.s3.put_bucket_logging(Bucket=ident, BucketLoggingStatus=status)


def _w_notification(aws, ident, _old, new):
    aws.s3.put_bucket_notification_configuration(
        Bucket=ident, NotificationConfiguration=notification_to_api(new)
    )


def _w_replication(aws, ident, _old, new):
    if new:
        aws.s3.put_bucket_replication(Bucket=ident, ReplicationConfiguration=replication_to_api(new))
    else:
        aws.s3.delete_bucket_replication(Bucket=ident)


def _enable_object_lock(aws, ident):
    # S3 turns object lock on only for a versioned bucket (and keeps it versioned).
    aws.s3.put_bucket_versioning(Bucket=ident, VersioningConfiguration={"Status": "Enabled"})
    aws.s3.put_object_lock_configuration(
        Bucket=ident, ObjectLockConfiguration={"ObjectLockEnabled": "Enabled"}
    )


def _lock_stays_on(ident):
    return HandlerFailure("InvalidRequest", f"Object lock cannot be turned off on bucket {ident}")


def _w_object_lock_enabled(aws, ident, _old, new):
    if not new:
        raise _lock_stays_on(ident)
    _enable_object_lock(aws, ident)


def _w_object_lock(aws, ident, _old, new):
    if not new:
        raise _lock_stays_on(ident)
    _enable_object_lock(aws, ident)
    aws.s3.put_object_lock_configuration(Bucket=ident, ObjectLockConfiguration=new)


# CloudFormation's AccessControl values -> S3 canned ACLs.
_CANNED_ACLS = {
    "Private": "private",
    "PublicRead": "public-read",
    "PublicReadWrite": "public-read-write",
    "AuthenticatedRead": "authenticated-read",
    "LogDeliveryWrite": "log-delivery-write",
    "BucketOwnerRead": "bucket-owner-read",
    "BucketOwnerFullControl": "bucket-owner-full-control",
    "AwsExecRead": "aws-exec-read",
}


def _w_access_control(aws, ident, _old, new):
    # Write-only: Cloud Control never reads it back, so only a set value is written.
    if new:
        aws.s3.put_bucket_acl(Bucket=ident, ACL=_CANNED_ACLS[new])


def _w_tags(aws, ident, _old, new):
    if new:
        aws.s3.put_bucket_tagging(Bucket=ident, Tagging={"TagSet": tag_list(tag_map(new))})
    else:
        aws.s3.delete_bucket_tagging(Bucket=ident)


# S3 needs a versioned bucket for object lock and replication.
_WRITE_FIRST = ("VersioningConfiguration", "ObjectLockEnabled", "ObjectLockConfiguration")

WRITERS = {
    "VersioningConfiguration": _w_versioning,
    "AccelerateConfiguration": _w_accelerate,
    "CorsConfiguration": _w_cors,
    "LifecycleConfiguration": _w_lifecycle,
    "PublicAccessBlockConfiguration": _w_pab,
    "OwnershipControls": _w_ownership,
    "BucketEncryption": _w_encryption,
    "LoggingConfiguration": _w_logging,
    "NotificationConfiguration": _w_notification,
    "ReplicationConfiguration": _w_replication,
    "ObjectLockEnabled": _w_object_lock_enabled,
    "ObjectLockConfiguration": _w_object_lock,
    "AccessControl": _w_access_control,
    "Tags": _w_tags,
}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after, first=_WRITE_FIRST)


def delete(aws, ident: str) -> None:
    """Delete the bucket (it must be empty, as with real S3)."""
    aws.s3.delete_bucket(Bucket=ident)

