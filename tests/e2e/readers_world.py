#!/usr/bin/env python3
"""What tests/fixtures/templates/readers.yaml attaches to, made in the running
emulator through the service APIs (needs AWS_ENDPOINT_URL):

    readers_world.py setup   -> JSON: the stack parameters (KEY=VALUE strings)
                                under "parameters", and the ids behind them
    readers_world.py read KEY=VALUE...
                             -> JSON: what the emulator itself holds (to
                                judge a revert), for each key given: project
                                (its environment), acl + rule (the inbound
                                entry), user + key (the key's status), zone +
                                record (the A record's values), listener (its
                                non-default certificates), cluster (the DAX
                                description), instance (the DMS instance's
                                settings), location (the Lake Formation role)

A VPC's network ACL, a deploy user, a service role (CodeBuild, DAX and Lake
Formation trust it), a hosted zone, an HTTPS listener on an application load
balancer (its default certificate from ACM) and a second ACM certificate for
the listener certificate resource, a data lake bucket."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import Aws  # noqa: E402

TRUST = {
    "Version": "2012-10-17",
    "Statement": [
        {
            "Effect": "Allow",
            "Principal": {"Service": ["codebuild.amazonaws.com", "dax.amazonaws.com", "lakeformation.amazonaws.com"]},
            "Action": "sts:AssumeRole",
        }
    ],
}


def _network(aws) -> dict:
    vpc = aws.ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    acl = aws.ec2.create_network_acl(VpcId=vpc)["NetworkAcl"]["NetworkAclId"]
    subnets = [
        aws.ec2.create_subnet(VpcId=vpc, CidrBlock=cidr, AvailabilityZone=az)["Subnet"]["SubnetId"]
        for cidr, az in (("10.0.1.0/24", "us-east-1a"), ("10.0.2.0/24", "us-east-1b"))
    ]
    return {"vpc": vpc, "acl": acl, "subnets": subnets}


def _listener(aws, subnets) -> dict:
    acm, elbv2 = aws.service("acm"), aws.service("elbv2")
    default_cert = acm.request_certificate(DomainName="app.readers.example.com")["CertificateArn"]
    sni_cert = acm.request_certificate(DomainName="api.readers.example.com")["CertificateArn"]
    second_sni_cert = acm.request_certificate(DomainName="www.readers.example.com")["CertificateArn"]
    lb = elbv2.create_load_balancer(Name="readers-web", Subnets=subnets, Type="application")
    lb_arn = lb["LoadBalancers"][0]["LoadBalancerArn"]
    listener = elbv2.create_listener(
        LoadBalancerArn=lb_arn,
        Protocol="HTTPS",
        Port=443,
        Certificates=[{"CertificateArn": default_cert}],
        DefaultActions=[{"Type": "fixed-response",
                         "FixedResponseConfig": {"StatusCode": "404", "ContentType": "text/plain"}}],
    )["Listeners"][0]["ListenerArn"]
    return {"listener": listener, "sniCertificate": sni_cert, "secondSniCertificate": second_sni_cert,
            "otherCertificate": default_cert}


def setup(aws) -> dict:
    """Creates what the template is given; returns its parameters and ids."""
    net = _network(aws)
    aws.iam.create_user(UserName="readers-deployer")
    role = aws.iam.create_role(RoleName="readers-service", AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]["Arn"]
    other_role = aws.iam.create_role(RoleName="readers-other", AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]["Arn"]
    zone = aws.service("route53").create_hosted_zone(Name="readers.example.com", CallerReference="readers")
    zone_id = zone["HostedZone"]["Id"].rsplit("/", 1)[-1]
    listener = _listener(aws, net["subnets"])
    aws.s3.create_bucket(Bucket="readers-data-lake")
    parameters = {
        "NetworkAclId": net["acl"],
        "DeployUser": "readers-deployer",
        "ServiceRoleArn": role,
        "HostedZoneId": zone_id,
        "ListenerArn": listener["listener"],
        "SniCertificateArn": listener["sniCertificate"],
        "SecondSniCertificateArn": listener["secondSniCertificate"],
        "DataLocationArn": "arn:aws:s3:::readers-data-lake",
    }
    return {
        "parameters": [f"{k}={v}" for k, v in parameters.items()],
        "ids": dict(parameters, otherRoleArn=other_role, otherCertificateArn=listener["otherCertificate"]),
    }


def _read_one(aws, key: str, a: dict):
    """What the emulator holds for one key of `read` (see the module doc)."""
    if key == "project":
        return aws.service("codebuild").batch_get_projects(names=[a["project"]])["projects"][0]["environment"]
    if key == "acl":
        entries = aws.ec2.describe_network_acls(NetworkAclIds=[a["acl"]])["NetworkAcls"][0]["Entries"]
        return next((e for e in entries if e["RuleNumber"] == int(a["rule"]) and not e["Egress"]), None)
    if key == "user":
        keys = aws.iam.list_access_keys(UserName=a["user"])["AccessKeyMetadata"]
        return next((k["Status"] for k in keys if k["AccessKeyId"] == a["key"]), None)
    if key == "zone":
        sets = aws.service("route53").list_resource_record_sets(HostedZoneId=a["zone"])["ResourceRecordSets"]
        found = next((r for r in sets if r["Name"] == a["record"] and r["Type"] == "A"), {})
        return [v["Value"] for v in found.get("ResourceRecords", [])]
    if key == "listener":
        certs = aws.service("elbv2").describe_listener_certificates(ListenerArn=a["listener"])["Certificates"]
        return sorted(c["CertificateArn"] for c in certs if not c.get("IsDefault"))
    if key == "cluster":
        return aws.service("dax").describe_clusters(ClusterNames=[a["cluster"]])["Clusters"][0].get("Description")
    if key == "instance":
        found = aws.service("dms").describe_replication_instances()["ReplicationInstances"]
        return next((i for i in found if i["ReplicationInstanceArn"] == a["instance"]), None)
    if key == "location":
        return aws.service("lakeformation").describe_resource(ResourceArn=a["location"])["ResourceInfo"]
    return None


# The keys `read` answers; the others (rule, key, record) qualify one of them.
_READ_KEYS = ("project", "acl", "user", "zone", "listener", "cluster", "instance", "location")


def read(aws, args: dict) -> dict:
    """What the emulator itself holds for each key given."""
    return {k: _read_one(aws, k, args) for k in _READ_KEYS if k in args}


def main() -> int:
    """CLI entry point."""
    args = sys.argv[1:]
    pairs = dict(a.split("=", 1) for a in args[1:] if "=" in a)
    if args != ["setup"] and not (args[:1] == ["read"] and len(pairs) == len(args) - 1):
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    print(json.dumps(setup(aws) if args == ["setup"] else read(aws, pairs), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
