"""AWS::EC2::LaunchTemplate — identifier: the launch template id.

Cloud Control's model holds the name, id and the default and latest version
numbers (as strings, as the corpus shows); the template's data is
write-only in the registry schema, so it is not in the model (realdrift
reads the default version's data itself, with DescribeLaunchTemplateVersions)."""

from botocore.exceptions import ClientError

from ..aws import error_code
from ..errors import ResourceNotFound
from .base import apply_writers

TYPE_NAME = "AWS::EC2::LaunchTemplate"
PRIMARY_IDENTIFIER = "LaunchTemplateId"
CREATE_ONLY = frozenset({"LaunchTemplateName"})
READ_ONLY = frozenset({"LaunchTemplateId", "DefaultVersionNumber", "LatestVersionNumber"})


def _describe(aws, ident: str) -> dict:
    try:
        found = aws.ec2.describe_launch_templates(LaunchTemplateIds=[ident])["LaunchTemplates"]
    except ClientError as err:
        if error_code(err).startswith("InvalidLaunchTemplateId"):
            raise ResourceNotFound(f"Launch template {ident} not found") from err
        raise
    if not found:
        raise ResourceNotFound(f"Launch template {ident} not found")
    return found[0]


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one launch template."""
    t = _describe(aws, ident)
    return {
        "LaunchTemplateName": t["LaunchTemplateName"],
        "LaunchTemplateId": t["LaunchTemplateId"],
        "DefaultVersionNumber": str(t["DefaultVersionNumber"]),
        "LatestVersionNumber": str(t["LatestVersionNumber"]),
    }


def list_identifiers(aws) -> list:
    """Every launch template id."""
    out = []
    for page in aws.ec2.get_paginator("describe_launch_templates").paginate():
        out.extend(t["LaunchTemplateId"] for t in page["LaunchTemplates"])
    return out


#: No writer: a new version of the (write-only) data is not emulated, so any
#: update is a named emulator gap.
WRITERS = {}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models (none can be)."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Delete the launch template."""
    _describe(aws, ident)
    aws.ec2.delete_launch_template(LaunchTemplateId=ident)
