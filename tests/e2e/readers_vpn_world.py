#!/usr/bin/env python3
"""What tests/fixtures/templates/readers-vpn.yaml attaches to, a person's
console changes to it, and what the emulator holds afterwards, through the
service APIs (needs AWS_ENDPOINT_URL):

    readers_vpn_world.py setup          -> JSON: the stack parameters
                                           (KEY=VALUE strings) under
                                           "parameters", and the ids behind them
    readers_vpn_world.py mutate ENDPOINT ASSOCIATION DEFAULT_GROUP VPC
                                        -> the console changes: the endpoint's
                                           split tunnel on, connection logging
                                           off, the VPC's default security group
                                           instead of the declared one; the
                                           detector's time zone changed and its
                                           excluded range dropped; the subnet
                                           disassociated
    readers_vpn_world.py read ENDPOINT  -> JSON: the endpoint and the detector
                                           as the services answer them (to judge
                                           a revert)

A VPC with a subnet and a security group, a server and a client root
certificate in ACM, a log group for connection logs."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import Aws  # noqa: E402

#: The template's detector metric (its identity).
METRIC = {"Namespace": "AWS/ApplicationELB", "MetricName": "RequestCount", "Stat": "Sum",
          "Dimensions": [{"Name": "LoadBalancer", "Value": "app/vpn-portal/0123456789abcdef"}]}


def setup(aws) -> dict:
    """Creates what the template is given; returns its parameters and ids."""
    vpc = aws.ec2.create_vpc(CidrBlock="10.20.0.0/16")["Vpc"]["VpcId"]
    subnet = aws.ec2.create_subnet(VpcId=vpc, CidrBlock="10.20.1.0/24", AvailabilityZone="us-east-1a")["Subnet"]
    group = aws.ec2.create_security_group(GroupName="vpn-clients", Description="Client VPN", VpcId=vpc)["GroupId"]
    default = aws.ec2.describe_security_groups(Filters=[{"Name": "vpc-id", "Values": [vpc]},
                                                        {"Name": "group-name", "Values": ["default"]}])
    acm = aws.service("acm")
    server = acm.request_certificate(DomainName="vpn.readers.example.com")["CertificateArn"]
    client_root = acm.request_certificate(DomainName="clients.vpn.readers.example.com")["CertificateArn"]
    logs = aws.service("logs")
    try:
        logs.create_log_group(logGroupName="/vpn/connections")
    except logs.exceptions.ResourceAlreadyExistsException:
        pass  # a second world in one emulator shares it
    parameters = {
        "VpcId": vpc,
        "SubnetId": subnet["SubnetId"],
        "SecurityGroupId": group,
        "ServerCertificateArn": server,
        "ClientRootCertificateArn": client_root,
        "LogGroupName": "/vpn/connections",
    }
    return {
        "parameters": [f"{k}={v}" for k, v in parameters.items()],
        "ids": dict(parameters, defaultGroupId=default["SecurityGroups"][0]["GroupId"]),
    }


def mutate(aws, endpoint: str, association: str, default_group: str, vpc: str) -> dict:
    """A person's console edits of the endpoint, the detector and the association."""
    aws.ec2.modify_client_vpn_endpoint(ClientVpnEndpointId=endpoint, SplitTunnel=True,
                                       ConnectionLogOptions={"Enabled": False},
                                       SecurityGroupIds=[default_group], VpcId=vpc)
    aws.service("cloudwatch").put_anomaly_detector(SingleMetricAnomalyDetector=METRIC,
                                                   Configuration={"MetricTimezone": "UTC"})
    aws.ec2.disassociate_client_vpn_target_network(ClientVpnEndpointId=endpoint, AssociationId=association)
    return {}


def read(aws, endpoint: str) -> dict:
    """The endpoint and the detector, as the services answer them."""
    (vpn,) = aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=[endpoint])["ClientVpnEndpoints"]
    detectors = aws.service("cloudwatch").describe_anomaly_detectors(MetricName=METRIC["MetricName"])
    return {"endpoint": vpn, "detectors": detectors["AnomalyDetectors"]}


def main() -> int:
    """CLI entry point."""
    args = sys.argv[1:]
    commands = {"setup": (setup, 0), "mutate": (mutate, 4), "read": (read, 1)}
    if not args or args[0] not in commands or len(args) - 1 != commands[args[0]][1]:
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    print(json.dumps(commands[args[0]][0](aws, *args[1:]), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
