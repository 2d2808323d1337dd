"""The emulator's CloudWatch anomaly detectors (JSON for boto3, RPC v2 CBOR
for the Rust SDK) and EC2 Client VPN (moto_patches.cloudwatch_anomaly,
moto_patches.client_vpn, and their CloudFormation types in cfn_readers)."""

import json
import os
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

import deploy_fixture
from moto_patches import cbor

METRIC = {"Namespace": "AWS/ApplicationELB", "MetricName": "RequestCount", "Stat": "Sum",
          "Dimensions": [{"Name": "LoadBalancer", "Value": "app/web/1"}]}


def _cbor_call(endpoint: str, operation: str, params: dict):
    """One signed RPC v2 CBOR call, as aws-sdk-cloudwatch sends it: (status, decoded body)."""
    url = f"{endpoint}/service/GraniteServiceVersion20100801/operation/{operation}"
    headers = {"Content-Type": "application/cbor", "smithy-protocol": "rpc-v2-cbor", "Accept": "application/cbor"}
    request = AWSRequest(method="POST", url=url, data=cbor.encode(params), headers=headers)
    SigV4Auth(Credentials("testing", "testing"), "monitoring", "us-east-1").add_auth(request)
    try:
        with urlopen(Request(url, data=request.body, headers=dict(request.headers), method="POST")) as answer:
            assert answer.headers["smithy-protocol"] == "rpc-v2-cbor"
            return answer.status, cbor.decode(answer.read())
    except HTTPError as err:
        return err.code, cbor.decode(err.read())


def test_cbor_round_trips_what_the_protocol_uses():
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    value = {"a": [1, -2, 300000, 1.5, True, False, "é"], "t": when, "b": b"\x00\x01", "n": {}}
    assert cbor.decode(cbor.encode(value)) == value
    # Indefinite-length map and array (minicbor's begin_map / begin_array).
    assert cbor.decode(b"\xbf\x61k\x9f\x01\x02\xff\xff") == {"k": [1, 2]}
    with pytest.raises(cbor.CborError):
        cbor.decode(b"\x82\x01")


def test_anomaly_detector_put_describe_delete_over_json(aws):
    cw = aws.service("cloudwatch")
    metric = dict(METRIC, MetricName=f"m-{uuid.uuid4().hex[:6]}")
    config = {"ExcludedTimeRanges": [{"StartTime": "2026-01-01T00:00:00", "EndTime": "2026-01-02T00:00:00"}],
              "MetricTimezone": "Europe/Paris"}
    cw.put_anomaly_detector(SingleMetricAnomalyDetector=metric, Configuration=config)
    (found,) = cw.describe_anomaly_detectors(MetricName=metric["MetricName"])["AnomalyDetectors"]
    assert found["SingleMetricAnomalyDetector"] == metric
    assert found["Configuration"]["MetricTimezone"] == "Europe/Paris"
    assert found["Configuration"]["ExcludedTimeRanges"][0]["StartTime"] == datetime(2026, 1, 1, tzinfo=timezone.utc)
    # A put on the same metric replaces the configuration.
    cw.put_anomaly_detector(SingleMetricAnomalyDetector=metric, Configuration={"MetricTimezone": "UTC"})
    (found,) = cw.describe_anomaly_detectors(MetricName=metric["MetricName"])["AnomalyDetectors"]
    assert found["Configuration"] == {"MetricTimezone": "UTC"}
    cw.delete_anomaly_detector(SingleMetricAnomalyDetector=metric)
    assert cw.describe_anomaly_detectors(MetricName=metric["MetricName"])["AnomalyDetectors"] == []
    with pytest.raises(ClientError):
        cw.delete_anomaly_detector(SingleMetricAnomalyDetector=metric)


def test_anomaly_detector_over_cbor_as_the_rust_sdk_sends_it(aws, emulator):
    endpoint = emulator["AWS_ENDPOINT_URL"]
    metric = dict(METRIC, MetricName=f"c-{uuid.uuid4().hex[:6]}")
    start = datetime(2026, 3, 1, tzinfo=timezone.utc)
    config = {"ExcludedTimeRanges": [{"StartTime": start, "EndTime": datetime(2026, 3, 2, tzinfo=timezone.utc)}]}
    assert _cbor_call(endpoint, "PutAnomalyDetector", {"SingleMetricAnomalyDetector": metric,
                                                       "Configuration": config}) == (200, {})
    status, body = _cbor_call(endpoint, "DescribeAnomalyDetectors", {"AnomalyDetectorTypes": ["SINGLE_METRIC"]})
    assert status == 200
    (found,) = [d for d in body["AnomalyDetectors"] if d.get("MetricName") == metric["MetricName"]]
    assert found["Configuration"]["ExcludedTimeRanges"][0]["StartTime"] == start
    # The same state boto3 sees.
    seen = aws.service("cloudwatch").describe_anomaly_detectors(MetricName=metric["MetricName"])
    assert len(seen["AnomalyDetectors"]) == 1
    assert _cbor_call(endpoint, "DeleteAnomalyDetector", {"SingleMetricAnomalyDetector": metric}) == (200, {})
    status, body = _cbor_call(endpoint, "DeleteAnomalyDetector", {"SingleMetricAnomalyDetector": metric})
    assert (status, body["__type"]) == (404, "ResourceNotFound")
    status, body = _cbor_call(endpoint, "PutMetricAlarm", {})
    assert (status, body["__type"]) == (404, "UnknownOperationException")


def _vpc(aws):
    vpc = aws.ec2.create_vpc(CidrBlock="10.8.0.0/16")["Vpc"]["VpcId"]
    subnet = aws.ec2.create_subnet(VpcId=vpc, CidrBlock="10.8.1.0/24")["Subnet"]["SubnetId"]
    group = aws.ec2.create_security_group(GroupName=f"vpn-{uuid.uuid4().hex[:6]}", Description="vpn",
                                          VpcId=vpc)["GroupId"]
    return vpc, subnet, group


def test_client_vpn_endpoint_lifecycle(aws):
    vpc, subnet, group = _vpc(aws)
    cert = "arn:aws:acm:us-east-1:123456789012:certificate/server"
    created = aws.ec2.create_client_vpn_endpoint(
        ClientCidrBlock="10.100.0.0/22", ServerCertificateArn=cert,
        AuthenticationOptions=[{"Type": "certificate-authentication",
                                "MutualAuthentication": {"ClientRootCertificateChainArn": cert}}],
        ConnectionLogOptions={"Enabled": False}, VpcId=vpc)
    endpoint = created["ClientVpnEndpointId"]
    assert created["Status"]["Code"] == "pending-associate"
    (e,) = aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=[endpoint])["ClientVpnEndpoints"]
    assert (e["SplitTunnel"], e["VpnPort"], e["TransportProtocol"], e["SessionTimeoutHours"]) == (False, 443, "udp", 24)
    assert e["AuthenticationOptions"][0]["MutualAuthentication"] == {"ClientRootCertificateChain": cert}
    assert e["ConnectionLogOptions"] == {"Enabled": False}
    default = aws.ec2.describe_security_groups(Filters=[{"Name": "vpc-id", "Values": [vpc]},
                                                        {"Name": "group-name", "Values": ["default"]}])
    assert e["SecurityGroupIds"] == [default["SecurityGroups"][0]["GroupId"]]

    aws.ec2.modify_client_vpn_endpoint(ClientVpnEndpointId=endpoint, SplitTunnel=True, SessionTimeoutHours=8,
                                       SecurityGroupIds=[group], VpcId=vpc,
                                       ConnectionLogOptions={"Enabled": True, "CloudwatchLogGroup": "vpn"})
    (e,) = aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=[endpoint])["ClientVpnEndpoints"]
    assert (e["SplitTunnel"], e["SessionTimeoutHours"], e["SecurityGroupIds"]) == (True, 8, [group])
    assert e["ConnectionLogOptions"] == {"Enabled": True, "CloudwatchLogGroup": "vpn"}

    association = aws.ec2.associate_client_vpn_target_network(ClientVpnEndpointId=endpoint,
                                                              SubnetId=subnet)["AssociationId"]
    (t,) = aws.ec2.describe_client_vpn_target_networks(ClientVpnEndpointId=endpoint,
                                                        AssociationIds=[association])["ClientVpnTargetNetworks"]
    assert (t["TargetNetworkId"], t["VpcId"], t["Status"]["Code"]) == (subnet, vpc, "associated")
    aws.ec2.disassociate_client_vpn_target_network(ClientVpnEndpointId=endpoint, AssociationId=association)
    assert aws.ec2.describe_client_vpn_target_networks(ClientVpnEndpointId=endpoint)["ClientVpnTargetNetworks"] == []

    aws.ec2.delete_client_vpn_endpoint(ClientVpnEndpointId=endpoint)
    (e,) = aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=[endpoint])["ClientVpnEndpoints"]
    assert e["Status"]["Code"] == "deleted"
    with pytest.raises(ClientError) as err:
        aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=["cvpn-endpoint-0000000000000000f"])
    assert err.value.response["Error"]["Code"] == "InvalidClientVpnEndpointId.NotFound"


def test_the_readers_vpn_fixture_deploys_through_the_service_apis(aws):
    # moto_patches.cfn_readers creates the three types as CloudFormation does,
    # through the APIs above; what it creates is what the services answer.
    here = os.path.dirname(os.path.abspath(__file__))
    world = os.path.join(here, "..", "e2e", "readers_vpn_world.py")
    setup = json.loads(subprocess.run([sys.executable, world, "setup"], check=True, capture_output=True,
                                      text=True).stdout)
    template = os.path.join(here, "..", "fixtures", "templates", "readers-vpn.yaml")
    stack = deploy_fixture.deploy(f"Vpn{uuid.uuid4().hex[:6]}", template, parameters=setup["parameters"])
    ids = {r["logicalId"]: r["physicalId"] for r in stack["resources"]}
    (vpn,) = aws.ec2.describe_client_vpn_endpoints(ClientVpnEndpointIds=[ids["Vpn"]])["ClientVpnEndpoints"]
    assert (vpn["Status"]["Code"], vpn["SessionTimeoutHours"]) == ("available", 8)
    assert vpn["SecurityGroupIds"] == [setup["ids"]["SecurityGroupId"]]
    assert vpn["ConnectionLogOptions"] == {"Enabled": True, "CloudwatchLogGroup": "/vpn/connections"}
    (target,) = aws.ec2.describe_client_vpn_target_networks(ClientVpnEndpointId=ids["Vpn"])["ClientVpnTargetNetworks"]
    assert (target["AssociationId"], target["TargetNetworkId"]) == (ids["VpnSubnet"], setup["ids"]["SubnetId"])
    detectors = aws.service("cloudwatch").describe_anomaly_detectors(MetricName="RequestCount")["AnomalyDetectors"]
    assert any(d["Configuration"].get("MetricTimezone") == "Europe/Paris" for d in detectors)
