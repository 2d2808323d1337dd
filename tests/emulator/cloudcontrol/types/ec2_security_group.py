"""AWS::EC2::SecurityGroup — identifier: the group id.

Cloud Control lists one rule per source: an EC2 permission with two CIDR
ranges and a source group is three entries, each with its protocol and
ports (-1 when the protocol has none)."""

from botocore.exceptions import ClientError

from ..aws import error_code
from ..errors import ResourceNotFound
from .base import apply_writers, put_if, tag_changes, tag_list

TYPE_NAME = "AWS::EC2::SecurityGroup"
PRIMARY_IDENTIFIER = "Id"
CREATE_ONLY = frozenset({"GroupDescription", "GroupName", "VpcId"})
READ_ONLY = frozenset({"Id", "GroupId"})


def _describe(aws, ident: str) -> dict:
    try:
        groups = aws.ec2.describe_security_groups(GroupIds=[ident])["SecurityGroups"]
    except ClientError as err:
        if error_code(err) in ("InvalidGroup.NotFound", "InvalidGroupId.Malformed"):
            raise ResourceNotFound(f"Security group {ident} not found") from err
        raise
    if not groups:
        raise ResourceNotFound(f"Security group {ident} not found")
    return groups[0]


def _rules(permissions: list, egress: bool) -> list:
    """Cloud Control's flat rule list from EC2 IpPermissions."""
    peer = "Destination" if egress else "Source"
    out = []
    for p in permissions:
        base = {"IpProtocol": p["IpProtocol"], "FromPort": p.get("FromPort", -1), "ToPort": p.get("ToPort", -1)}
        sources = [({"CidrIp": r["CidrIp"]}, r) for r in p.get("IpRanges", [])]
        sources += [({"CidrIpv6": r["CidrIpv6"]}, r) for r in p.get("Ipv6Ranges", [])]
        sources += [({f"{peer}PrefixListId": r["PrefixListId"]}, r) for r in p.get("PrefixListIds", [])]
        for pair in p.get("UserIdGroupPairs", []):
            key = {f"{peer}SecurityGroupId": pair["GroupId"]}
            if not egress:
                key["SourceSecurityGroupOwnerId"] = pair["UserId"]
            sources.append((key, pair))
        for key, src in sources:
            rule = dict(base, **key)
            put_if(rule, "Description", src.get("Description"))
            out.append(rule)
    return out


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one security group."""
    g = _describe(aws, ident)
    model = {
        "GroupDescription": g["Description"],
        "GroupName": g["GroupName"],
        "Id": g["GroupId"],
        "GroupId": g["GroupId"],
        "SecurityGroupEgress": _rules(g.get("IpPermissionsEgress", []), egress=True),
    }
    put_if(model, "VpcId", g.get("VpcId"))
    ingress = _rules(g.get("IpPermissions", []), egress=False)
    if ingress:
        model["SecurityGroupIngress"] = ingress
    if g.get("Tags"):
        model["Tags"] = tag_list(g["Tags"])
    return model


def list_identifiers(aws) -> list:
    """Every security group id."""
    out = []
    for page in aws.ec2.get_paginator("describe_security_groups").paginate():
        out.extend(g["GroupId"] for g in page["SecurityGroups"])
    return out


def _permission(rule: dict, egress: bool) -> dict:
    """One EC2 IpPermission from one Cloud Control rule."""
    peer = "Destination" if egress else "Source"
    p = {"IpProtocol": rule["IpProtocol"]}
    if rule["IpProtocol"] != "-1":
        p["FromPort"], p["ToPort"] = rule.get("FromPort", -1), rule.get("ToPort", -1)
    desc = {"Description": rule["Description"]} if "Description" in rule else {}
    if "CidrIp" in rule:
        p["IpRanges"] = [dict(CidrIp=rule["CidrIp"], **desc)]
    elif "CidrIpv6" in rule:
        p["Ipv6Ranges"] = [dict(CidrIpv6=rule["CidrIpv6"], **desc)]
    elif f"{peer}PrefixListId" in rule:
        p["PrefixListIds"] = [dict(PrefixListId=rule[f"{peer}PrefixListId"], **desc)]
    else:
        p["UserIdGroupPairs"] = [dict(GroupId=rule[f"{peer}SecurityGroupId"], **desc)]
    return p


def _rule_writer(egress: bool):
    authorize = "authorize_security_group_egress" if egress else "authorize_security_group_ingress"
    revoke = "revoke_security_group_egress" if egress else "revoke_security_group_ingress"

    def write(aws, ident, old, new):
        old, new = old or [], new or []
        gone = [_permission(r, egress) for r in old if r not in new]
        added = [_permission(r, egress) for r in new if r not in old]
        if gone:
            getattr(aws.ec2, revoke)(GroupId=ident, IpPermissions=gone)
        if added:
            getattr(aws.ec2, authorize)(GroupId=ident, IpPermissions=added)

    return write


def _w_tags(aws, ident, old, new):
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.ec2.create_tags(Resources=[ident], Tags=tag_list(to_set))
    if to_remove:
        aws.ec2.delete_tags(Resources=[ident], Tags=[{"Key": k} for k in to_remove])


WRITERS = {
    "SecurityGroupIngress": _rule_writer(egress=False),
    "SecurityGroupEgress": _rule_writer(egress=True),
    "Tags": _w_tags,
}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, ident, before, after)


def delete(aws, ident: str) -> None:
    """Delete the security group."""
    _describe(aws, ident)
    aws.ec2.delete_security_group(GroupId=ident)
