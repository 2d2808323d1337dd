"""Patch: EC2 Client VPN endpoints and their target network associations.

Gap (moto 5.1.22): no Client VPN API at all (CreateClientVpnEndpoint,
DescribeClientVpnEndpoints, ... "has not been implemented"). Served here:
Create / Describe / Modify / Delete ClientVpnEndpoint and Associate /
Describe / Disassociate ClientVpnTargetNetwork, through moto's EC2 dispatch
(query protocol parsed and answered by moto from botocore's model), state in
the EC2 backend of the account and region. Only what realdrift reads and a
console edit changes is kept; the answers take AWS's documented defaults
(EC2 API reference, ClientVpnEndpoint:
https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ClientVpnEndpoint.html;
ModifyClientVpnEndpoint:
https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifyClientVpnEndpoint.html)."""

from moto.core.responses import ActionResult
from moto.core.utils import utcnow
from moto.ec2.exceptions import EC2ClientError, InvalidSubnetIdError
from moto.ec2.responses import EC2Response
from moto.ec2.utils import random_id

# CreateClientVpnEndpoint's documented defaults.
_DEFAULTS = {"TransportProtocol": "udp", "VpnPort": 443, "SplitTunnel": False, "SessionTimeoutHours": 24,
             "DisconnectOnSessionTimeout": True}
# Settings ModifyClientVpnEndpoint sets as given (DnsServers has its own shape).
_MODIFIABLE = ("ServerCertificateArn", "Description", "VpnPort", "SplitTunnel", "SecurityGroupIds", "VpcId",
               "SessionTimeoutHours", "DisconnectOnSessionTimeout")


def _not_found(endpoint_id: str) -> EC2ClientError:
    # moto finds an error's service by its class's module: an EC2 class, not a subclass here.
    return EC2ClientError("InvalidClientVpnEndpointId.NotFound", f"The Client VPN endpoint ID '{endpoint_id}' does not exist")


def _state(backend) -> dict:
    if not hasattr(backend, "realdrift_client_vpn"):
        backend.realdrift_client_vpn = {"endpoints": {}, "targets": {}}
    return backend.realdrift_client_vpn


def _endpoint(backend, endpoint_id: str) -> dict:
    found = _state(backend)["endpoints"].get(endpoint_id)
    if found is None or found["Status"]["Code"] == "deleted":
        raise _not_found(endpoint_id)
    return found


def _authentication(request: dict) -> dict:
    """An authentication option as DescribeClientVpnEndpoints answers it."""
    out = {"Type": request["Type"]}
    if request.get("ActiveDirectory"):
        out["ActiveDirectory"] = {"DirectoryId": request["ActiveDirectory"]["DirectoryId"]}
    if request.get("MutualAuthentication"):
        chain = request["MutualAuthentication"]["ClientRootCertificateChainArn"]
        out["MutualAuthentication"] = {"ClientRootCertificateChain": chain}
    if request.get("FederatedAuthentication"):
        fed = request["FederatedAuthentication"]
        out["FederatedAuthentication"] = {"SamlProviderArn": fed.get("SAMLProviderArn"),
                                          "SelfServiceSamlProviderArn": fed.get("SelfServiceSAMLProviderArn")}
    return out


def _default_group(backend, vpc_id: str) -> list:
    group = backend.get_default_security_group(vpc_id)
    return [group.id] if group else []


def create_client_vpn_endpoint(self):
    """CreateClientVpnEndpoint: pending-associate until a subnet is associated."""
    backend = self.ec2_backend
    endpoint_id = random_id("cvpn-endpoint")
    endpoint = {
        "ClientVpnEndpointId": endpoint_id,
        "Description": self._get_param("Description"),
        "Status": {"Code": "pending-associate"},
        "CreationTime": utcnow().strftime("%Y-%m-%dT%H:%M:%S"),
        "DnsName": f"*.{endpoint_id}.prod.clientvpn.{self.region}.amazonaws.com",
        "ClientCidrBlock": self._get_param("ClientCidrBlock"),
        "DnsServers": self._get_param("DnsServers") or None,
        "VpnProtocol": "openvpn",
        "ServerCertificateArn": self._get_param("ServerCertificateArn"),
        "AuthenticationOptions": [_authentication(a) for a in self._get_param("AuthenticationOptions") or []],
        "ConnectionLogOptions": self._get_param("ConnectionLogOptions") or {"Enabled": False},
        "VpcId": self._get_param("VpcId"),
        "SecurityGroupIds": self._get_param("SecurityGroupIds") or None,
    }
    for key, default in _DEFAULTS.items():
        given = self._get_param(key)
        endpoint[key] = default if given is None else given
    if endpoint["VpcId"] and not endpoint["SecurityGroupIds"]:
        # Without groups, the VPC's default group applies.
        endpoint["SecurityGroupIds"] = _default_group(backend, endpoint["VpcId"])
    _state(backend)["endpoints"][endpoint_id] = endpoint
    return ActionResult({"ClientVpnEndpointId": endpoint_id, "Status": endpoint["Status"],
                         "DnsName": endpoint["DnsName"]})


def describe_client_vpn_endpoints(self):
    """DescribeClientVpnEndpoints, by id (all when none given); one page."""
    ids = self._get_param("ClientVpnEndpointIds") or []
    endpoints = _state(self.ec2_backend)["endpoints"]
    missing = [i for i in ids if i not in endpoints]
    if missing:
        raise _not_found(missing[0])
    chosen = [endpoints[i] for i in ids] if ids else list(endpoints.values())
    return ActionResult({"ClientVpnEndpoints": [{k: v for k, v in e.items() if v is not None} for e in chosen]})


def modify_client_vpn_endpoint(self):
    """ModifyClientVpnEndpoint: each setting given replaces the stored one."""
    endpoint = _endpoint(self.ec2_backend, self._get_param("ClientVpnEndpointId"))
    for key in _MODIFIABLE:
        value = self._get_param(key)
        if value is not None:
            endpoint[key] = value
    logs = self._get_param("ConnectionLogOptions")
    if logs is not None:
        endpoint["ConnectionLogOptions"] = logs if logs.get("Enabled") else {"Enabled": False}
    dns = self._get_param("DnsServers")
    if dns is not None:
        endpoint["DnsServers"] = (dns.get("CustomDnsServers") or None) if dns.get("Enabled", True) else None
    return ActionResult({"Return": True})


def delete_client_vpn_endpoint(self):
    """DeleteClientVpnEndpoint: answered as deleted from then on (as AWS lists it for a while)."""
    endpoint = _endpoint(self.ec2_backend, self._get_param("ClientVpnEndpointId"))
    endpoint["Status"] = {"Code": "deleted"}
    return ActionResult({"Status": {"Code": "deleting"}})


def associate_client_vpn_target_network(self):
    """AssociateClientVpnTargetNetwork: the endpoint takes the subnet's VPC
    (and, without groups, its default group) and becomes available."""
    backend = self.ec2_backend
    endpoint = _endpoint(backend, self._get_param("ClientVpnEndpointId"))
    subnet_id = self._get_param("SubnetId")
    try:
        subnet = backend.get_subnet(subnet_id)
    except Exception as err:  # moto raises its own not-found error
        raise InvalidSubnetIdError(subnet_id) from err
    if not endpoint.get("VpcId"):
        endpoint["VpcId"] = subnet.vpc_id
    if not endpoint.get("SecurityGroupIds"):
        endpoint["SecurityGroupIds"] = _default_group(backend, subnet.vpc_id)
    endpoint["Status"] = {"Code": "available"}
    association_id = random_id("cvpn-assoc")
    _state(backend)["targets"][association_id] = {
        "AssociationId": association_id,
        "VpcId": subnet.vpc_id,
        "TargetNetworkId": subnet_id,
        "ClientVpnEndpointId": endpoint["ClientVpnEndpointId"],
        "Status": {"Code": "associated"},
        "SecurityGroups": endpoint["SecurityGroupIds"],
    }
    return ActionResult({"AssociationId": association_id, "Status": {"Code": "associating"}})


def describe_client_vpn_target_networks(self):
    """DescribeClientVpnTargetNetworks of one endpoint, by association id."""
    endpoint = _endpoint(self.ec2_backend, self._get_param("ClientVpnEndpointId"))
    ids = self._get_param("AssociationIds") or []
    targets = [t for t in _state(self.ec2_backend)["targets"].values()
               if t["ClientVpnEndpointId"] == endpoint["ClientVpnEndpointId"]
               and (not ids or t["AssociationId"] in ids)]
    return ActionResult({"ClientVpnTargetNetworks": targets})


def disassociate_client_vpn_target_network(self):
    """DisassociateClientVpnTargetNetwork: the association is gone; the
    endpoint without any is pending-associate again."""
    backend = self.ec2_backend
    endpoint = _endpoint(backend, self._get_param("ClientVpnEndpointId"))
    association_id = self._get_param("AssociationId")
    targets = _state(backend)["targets"]
    target = targets.get(association_id)
    if target is None or target["ClientVpnEndpointId"] != endpoint["ClientVpnEndpointId"]:
        raise EC2ClientError("InvalidClientVpnAssociationId.NotFound",
                             f"The association ID '{association_id}' does not exist")
    del targets[association_id]
    if not any(t["ClientVpnEndpointId"] == endpoint["ClientVpnEndpointId"] for t in targets.values()):
        endpoint["Status"] = {"Code": "pending-associate"}
    return ActionResult({"AssociationId": association_id, "Status": {"Code": "disassociating"}})


OPERATIONS = (create_client_vpn_endpoint, describe_client_vpn_endpoints, modify_client_vpn_endpoint,
              delete_client_vpn_endpoint, associate_client_vpn_target_network,
              describe_client_vpn_target_networks, disassociate_client_vpn_target_network)


def install() -> None:
    """Add the operations to moto's EC2 dispatch (it finds methods by the Action's snake_case name)."""
    for op in OPERATIONS:
        setattr(EC2Response, op.__name__, op)
