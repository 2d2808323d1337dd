"""Every known gap of moto 5.1.22's CloudFormation, and the harness fix-up
for each — the one place the harness works around the emulator.

A fix-up applies the template's declared value through the service API, as
real CloudFormation would have. A gap with no fix-up is reported as an
emulator gap, never silently dropped."""

import json

from cloudcontrol.types import TYPES

# Declared properties moto's CloudFormation applies, for the types where it
# ignores others. Types not listed apply every declared property.
APPLIED_PROPERTIES = {
    # moto applies only BucketName, BucketEncryption and Tags.
    "AWS::S3::Bucket": {"BucketName", "BucketEncryption", "Tags"},
    # moto creates the topic by name and its inline subscriptions only.
    "AWS::SNS::Topic": {"TopicName", "Subscription"},
    # moto ignores ManagedPolicyArns and stores inline Policies as a Python repr.
    "AWS::IAM::Role": {
        "RoleName",
        "AssumeRolePolicyDocument",
        "Path",
        "PermissionsBoundary",
        "Description",
        "Tags",
        "MaxSessionDuration",
    },
}


def _subscription(aws, props: dict) -> str:
    # Gap: moto does not create AWS::SNS::Subscription.
    attributes = {}
    for key in ("RawMessageDelivery", "FilterPolicyScope", "RedrivePolicy", "FilterPolicy", "DeliveryPolicy"):
        if key in props:
            value = props[key]
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, dict):
                value = json.dumps(value)
            attributes[key] = str(value)
    resp = aws.sns.subscribe(
        TopicArn=props["TopicArn"],
        Protocol=props["Protocol"],
        Endpoint=props["Endpoint"],
        Attributes=attributes,
        ReturnSubscriptionArn=True,
    )
    return resp["SubscriptionArn"]


def _queue_policy(aws, props: dict) -> str:
    # Gap: moto does not create AWS::SQS::QueuePolicy.
    for url in props["Queues"]:
        aws.sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": json.dumps(props["PolicyDocument"])})
    return ",".join(props["Queues"])


def _bucket_policy(aws, props: dict) -> str:
    # Gap: moto does not create AWS::S3::BucketPolicy.
    aws.s3.put_bucket_policy(Bucket=props["Bucket"], Policy=json.dumps(props["PolicyDocument"]))
    return props["Bucket"]


#: Resource types moto does not create -> the fix-up that creates them.
CREATE_FIXUPS = {
    "AWS::SNS::Subscription": _subscription,
    "AWS::SQS::QueuePolicy": _queue_policy,
    "AWS::S3::BucketPolicy": _bucket_policy,
}

#: Resource types moto mishandles with no fix-up: asserted emulator gaps.
ASSERTED_GAPS = {
    "AWS::Lambda::Permission": (
        "moto adds the statement to the function policy with a random Sid, but "
        "ListStackResources has no logical or physical id for it"
    ),
    "AWS::CDK::Metadata": "moto does not create CDK metadata (no AWS effect)",
}


def property_fixup(rtype: str, prop: str):
    """The writer that applies a declared property moto ignored, or None.

    It is the same writer the Cloud Control endpoint's UpdateResource uses,
    called with no previous value."""
    module = TYPES.get(rtype)
    writer = getattr(module, "WRITERS", {}).get(prop) if module else None
    if writer is None:
        return None
    def apply(aws, physical_id, value):
        writer(aws, physical_id, None, value)

    return apply


def ignored_properties(rtype: str, props: dict) -> list:
    """Declared properties moto's CloudFormation did not apply."""
    applied = APPLIED_PROPERTIES.get(rtype)
    if applied is None:
        return []
    extra = [p for p in props if p not in applied]
    if rtype == "AWS::IAM::Role" and "Policies" in props:
        # Applied, but stored as a Python repr: re-put as JSON.
        extra = [p for p in extra if p != "Policies"] + ["Policies"]
    return extra
