#!/usr/bin/env python3
"""What tests/fixtures/templates/readers.yaml attaches to, made in the running
emulator through the service APIs (needs AWS_ENDPOINT_URL):

    readers_world.py setup   -> JSON: the stack parameters (KEY=VALUE strings)
                                under "parameters", and the ids behind them
    readers_world.py read PROJECT ACL RULE
                             -> JSON: what the emulator itself holds for the
                                CodeBuild project's environment and the
                                ACL's inbound entry RULE (to judge a revert)

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
    return {"listener": listener, "sniCertificate": sni_cert, "otherCertificate": default_cert}


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
        "DataLocationArn": "arn:aws:s3:::readers-data-lake",
    }
    return {
        "parameters": [f"{k}={v}" for k, v in parameters.items()],
        "ids": dict(parameters, otherRoleArn=other_role, otherCertificateArn=listener["otherCertificate"]),
    }


def read(aws, project: str, acl: str, rule: str) -> dict:
    """The project's environment and the inbound ACL entry, as the services answer them."""
    env = aws.service("codebuild").batch_get_projects(names=[project])["projects"][0]["environment"]
    entries = aws.ec2.describe_network_acls(NetworkAclIds=[acl])["NetworkAcls"][0]["Entries"]
    entry = next((e for e in entries if e["RuleNumber"] == int(rule) and not e["Egress"]), None)
    return {"environment": env, "aclEntry": entry}


def main() -> int:
    """CLI entry point."""
    args = sys.argv[1:]
    if args not in (["setup"],) and not (len(args) == 4 and args[0] == "read"):
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    print(json.dumps(setup(aws) if args == ["setup"] else read(aws, *args[1:]), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
