"""AWS::IAM::Role — identifier: the role name."""

import json
from urllib.parse import unquote

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::IAM::Role"
PRIMARY_IDENTIFIER = "RoleName"
CREATE_ONLY = frozenset({"Path", "RoleName"})
READ_ONLY = frozenset({"Arn", "RoleId"})


def _document(raw):
    """A policy document as an object; IAM returns it URL-encoded JSON.

    A document that is not JSON (moto's CloudFormation stores a role's inline
    ``Policies`` as a Python repr) is returned unchanged, as a string, so the
    gap stays visible instead of being guessed around."""
    if isinstance(raw, dict):
        return raw
    text = unquote(raw)
    try:
        return json.loads(text)
    except ValueError:
        return text


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one role."""
    iam = aws.iam
    try:
        role = iam.get_role(RoleName=ident)["Role"]
        attached = iam.list_attached_role_policies(RoleName=ident)["AttachedPolicies"]
        inline_names = iam.list_role_policies(RoleName=ident)["PolicyNames"]
        policies = [
            {
                "PolicyName": name,
                "PolicyDocument": _document(
                    iam.get_role_policy(RoleName=ident, PolicyName=name)["PolicyDocument"]
                ),
            }
            for name in inline_names
        ]
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Role {ident} not found") from err
        raise
    model = {
        "RoleName": role["RoleName"],
        "Arn": role["Arn"],
        "RoleId": role["RoleId"],
        "Path": role["Path"],
        "MaxSessionDuration": role.get("MaxSessionDuration", 3600),
        "AssumeRolePolicyDocument": _document(role["AssumeRolePolicyDocument"]),
        # Cloud Control reports "" for a role without a description.
        "Description": role.get("Description", ""),
    }
    if attached:
        model["ManagedPolicyArns"] = [p["PolicyArn"] for p in attached]
    if policies:
        model["Policies"] = policies
    boundary = role.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")
    if boundary:
        model["PermissionsBoundary"] = boundary
    if role.get("Tags"):
        model["Tags"] = tag_list(role["Tags"])
    return model


def list_identifiers(aws) -> list:
    """Every role name."""
    return [r["RoleName"] for r in aws.iam.list_roles()["Roles"]]


def _w_description(aws, ident, _old, new):
    aws.iam.update_role(RoleName=ident, Description=new or "")


def _w_max_session(aws, ident, _old, new):
    aws.iam.update_role(RoleName=ident, MaxSessionDuration=int(new or 3600))


def _w_assume(aws, ident, _old, new):
    aws.iam.update_assume_role_policy(RoleName=ident, PolicyDocument=json.dumps(new))


def _w_managed(aws, ident, old, new):
    old_set, new_set = set(old or []), set(new or [])
    for arn in old_set - new_set:
        aws.iam.detach_role_policy(RoleName=ident, PolicyArn=arn)
    for arn in new_set - old_set:
        aws.iam.attach_role_policy(RoleName=ident, PolicyArn=arn)


def _w_policies(aws, ident, old, new):
    new_by_name = {p["PolicyName"]: p["PolicyDocument"] for p in new or []}
    for p in old or []:
        if p["PolicyName"] not in new_by_name:
            aws.iam.delete_role_policy(RoleName=ident, PolicyName=p["PolicyName"])
    old_by_name = {p["PolicyName"]: p["PolicyDocument"] for p in old or []}
    for name, doc in new_by_name.items():
        if old_by_name.get(name) != doc:
            aws.iam.put_role_policy(RoleName=ident, PolicyName=name, PolicyDocument=json.dumps(doc))


def _w_boundary(aws, ident, _old, new):
    if new:
        aws.iam.put_role_permissions_boundary(RoleName=ident, PermissionsBoundary=new)
    else:
        aws.iam.delete_role_permissions_boundary(RoleName=ident)


def _w_tags(aws, ident, old, new):
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.iam.tag_role(RoleName=ident, Tags=tag_list(to_set))
    if to_remove:
        aws.iam.untag_role(RoleName=ident, TagKeys=to_remove)


WRITERS = {
    "Description": _w_description,
    "MaxSessionDuration": _w_max_session,
    "AssumeRolePolicyDocument": _w_assume,
    "ManagedPolicyArns": _w_managed,
    "Policies": _w_policies,
    "PermissionsBoundary": _w_boundary,
    "Tags": _w_tags,
}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Detach and delete the role's policies, then the role (as the CC handler does)."""
    iam = aws.iam
    for p in iam.list_attached_role_policies(RoleName=ident)["AttachedPolicies"]:
        iam.detach_role_policy(RoleName=ident, PolicyArn=p["PolicyArn"])
    for name in iam.list_role_policies(RoleName=ident)["PolicyNames"]:
        iam.delete_role_policy(RoleName=ident, PolicyName=name)
    iam.delete_role(RoleName=ident)
