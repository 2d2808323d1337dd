"""Patch: the types realdrift reads with a per-service reader (issue 46) whose
service moto serves but whose CloudFormation type moto does not create
(listed in gaps.CREATED_TYPES) are created through that service's API, as
CloudFormation does, and deleted with the stack.

Only the declared properties each create passes on are accepted: any other
declared property fails the CreateStack naming it, so a property the emulator
would drop is never silently missing from the stack."""

from moto.cloudformation import parsing
from moto.core.common_models import CloudFormationModel

from cloudcontrol.errors import HandlerFailure

from . import service_client
from .cfn_resources import _create, _Created


def _camel(value):
    """CloudFormation's PascalCase keys as the JSON APIs' camelCase, nested."""
    if isinstance(value, dict):
        return {k[:1].lower() + k[1:]: _camel(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_camel(v) for v in value]
    return value


def _only(props: dict, allowed) -> None:
    """Fail the create on a declared property the API call does not pass on."""
    extra = sorted(set(props) - set(allowed))
    if extra:
        raise HandlerFailure("InvalidRequest", f"declared but not applied by the emulator: {', '.join(extra)}")


def _tags(props: dict) -> list:
    return [{"Key": t["Key"], "Value": t["Value"]} for t in props.get("Tags") or []]


class _Model(_Created):
    """A type created through a service API: subclasses (each a direct
    CloudFormationModel subclass, which is how moto finds types) name the
    type, the declared properties they pass on, and ``make``."""

    TYPE = ""
    ALLOWED = ()

    @classmethod
    def cloudformation_type(cls) -> str:
        return cls.TYPE

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        props = cloudformation_json.get("Properties") or {}
        logical_id = kwargs.get("LogicalId", resource_name)
        aws = service_client.clients(region_name, account_id)

        def make():
            _only(props, cls.ALLOWED)
            physical_id, undo, attributes = cls.make(aws, resource_name, props)
            return cls(physical_id, undo, attributes)

        return _create(cls.TYPE, logical_id, make)


class NetworkAclEntry(_Model, CloudFormationModel):
    """AWS::EC2::NetworkAclEntry: CreateNetworkAclEntry; physical id: the generated name."""

    TYPE = "AWS::EC2::NetworkAclEntry"
    ALLOWED = ("NetworkAclId", "RuleNumber", "Protocol", "RuleAction", "Egress", "CidrBlock",
               "Ipv6CidrBlock", "PortRange", "Icmp")

    @staticmethod
    def make(aws, name, props):
        params = {k: v for k, v in props.items() if k not in ("Protocol", "Egress", "RuleNumber")}
        # A template may give these as strings (JSON templates often do).
        params["Protocol"] = str(props["Protocol"])
        params["RuleNumber"] = int(props["RuleNumber"])
        params["Egress"] = str(props.get("Egress", False)).lower() == "true"
        if "Icmp" in params:
            params["IcmpTypeCode"] = params.pop("Icmp")
        aws.ec2.create_network_acl_entry(**params)

        def undo():
            aws.ec2.delete_network_acl_entry(NetworkAclId=props["NetworkAclId"],
                                             RuleNumber=params["RuleNumber"], Egress=params["Egress"])

        return name, undo, {}


class CodeBuildProject(_Model, CloudFormationModel):
    """AWS::CodeBuild::Project: CreateProject; physical id: the project name."""

    TYPE = "AWS::CodeBuild::Project"
    ALLOWED = ("Name", "Description", "ServiceRole", "Source", "Artifacts", "Environment", "Cache",
               "TimeoutInMinutes", "QueuedTimeoutInMinutes", "SourceVersion", "VpcConfig", "Tags")

    @staticmethod
    def cloudformation_name_type() -> str:
        return "Name"

    @staticmethod
    def make(aws, name, props):
        codebuild = aws.service("codebuild")
        params = {k[:1].lower() + k[1:]: _camel(v) for k, v in props.items() if k not in ("Name", "Tags")}
        if "buildSpec" in params.get("source", {}):
            # The API spells it buildspec (CloudFormation: BuildSpec).
            params["source"]["buildspec"] = params["source"].pop("buildSpec")
        params["tags"] = [{"key": t["Key"], "value": t["Value"]} for t in _tags(props)]
        out = codebuild.create_project(name=name, **params)["project"]
        return name, lambda: codebuild.delete_project(name=name), {"Arn": out["arn"]}

    ATTRIBUTES = ("Arn",)


class DaxCluster(_Model, CloudFormationModel):
    """AWS::DAX::Cluster: CreateCluster; physical id: the cluster name."""

    TYPE = "AWS::DAX::Cluster"
    ALLOWED = ("ClusterName", "NodeType", "ReplicationFactor", "IAMRoleARN", "Description",
               "SSESpecification", "ClusterEndpointEncryptionType", "Tags")

    @staticmethod
    def cloudformation_name_type() -> str:
        return "ClusterName"

    @staticmethod
    def make(aws, name, props):
        dax = aws.service("dax")
        # A DAX cluster name is at most 20 characters, lower-case.
        ident = name.lower()[:20].rstrip("-")
        params = {
            "ClusterName": ident,
            "NodeType": props["NodeType"],
            "ReplicationFactor": props["ReplicationFactor"],
            "IamRoleArn": props["IAMRoleARN"],
            "Tags": [{"Key": k, "Value": v} for k, v in (props.get("Tags") or {}).items()],
        }
        if "Description" in props:
            params["Description"] = props["Description"]
        if "SSESpecification" in props:
            params["SSESpecification"] = {"Enabled": bool(props["SSESpecification"].get("SSEEnabled"))}
        if "ClusterEndpointEncryptionType" in props:
            params["ClusterEndpointEncryptionType"] = props["ClusterEndpointEncryptionType"]
        out = dax.create_cluster(**params)["Cluster"]
        return ident, lambda: dax.delete_cluster(ClusterName=ident), {"Arn": out["ClusterArn"]}

    ATTRIBUTES = ("Arn",)


class DmsReplicationInstance(_Model, CloudFormationModel):
    """AWS::DMS::ReplicationInstance: CreateReplicationInstance; physical id:
    the instance ARN (CloudFormation's Ref)."""

    TYPE = "AWS::DMS::ReplicationInstance"
    ALLOWED = ("ReplicationInstanceIdentifier", "ReplicationInstanceClass", "AllocatedStorage",
               "VpcSecurityGroupIds", "AvailabilityZone", "ReplicationSubnetGroupIdentifier",
               "PreferredMaintenanceWindow", "MultiAZ", "EngineVersion", "AutoMinorVersionUpgrade",
               "KmsKeyId", "PubliclyAccessible", "NetworkType", "Tags")

    @staticmethod
    def cloudformation_name_type() -> str:
        return "ReplicationInstanceIdentifier"

    @staticmethod
    def make(aws, name, props):
        dms = aws.service("dms")
        params = {k: v for k, v in props.items() if k not in ("ReplicationInstanceIdentifier", "Tags")}
        out = dms.create_replication_instance(ReplicationInstanceIdentifier=name.lower(), Tags=_tags(props),
                                              **params)["ReplicationInstance"]
        arn = out["ReplicationInstanceArn"]
        return arn, lambda: dms.delete_replication_instance(ReplicationInstanceArn=arn), {}


class LakeFormationResource(_Model, CloudFormationModel):
    """AWS::LakeFormation::Resource: RegisterResource; physical id: the generated name."""

    TYPE = "AWS::LakeFormation::Resource"
    ALLOWED = ("ResourceArn", "RoleArn", "UseServiceLinkedRole")

    @staticmethod
    def make(aws, name, props):
        lf = aws.service("lakeformation")
        if props.get("UseServiceLinkedRole") and "RoleArn" not in props:
            # moto's RegisterResource keeps only RoleArn: the service-linked
            # role would not show in DescribeResource.
            raise HandlerFailure("InvalidRequest", "UseServiceLinkedRole without RoleArn is not emulated")
        lf.register_resource(ResourceArn=props["ResourceArn"], RoleArn=props["RoleArn"],
                             UseServiceLinkedRole=bool(props.get("UseServiceLinkedRole", False)))
        arn = props["ResourceArn"]
        return name, lambda: lf.deregister_resource(ResourceArn=arn), {}


class ListenerCertificate(_Model, CloudFormationModel):
    """AWS::ElasticLoadBalancingV2::ListenerCertificate: AddListenerCertificates;
    physical id: the generated name."""

    TYPE = "AWS::ElasticLoadBalancingV2::ListenerCertificate"
    ALLOWED = ("ListenerArn", "Certificates")

    @staticmethod
    def make(aws, name, props):
        elbv2 = aws.service("elbv2")
        listener = props["ListenerArn"]
        certs = [{"CertificateArn": c["CertificateArn"]} for c in props["Certificates"]]
        elbv2.add_listener_certificates(ListenerArn=listener, Certificates=certs)
        return name, lambda: elbv2.remove_listener_certificates(ListenerArn=listener, Certificates=certs), {}


def _flag(value) -> bool:
    """A template boolean (JSON templates often give "true" / "false")."""
    return str(value).lower() == "true"


class AnomalyDetector(_Model, CloudFormationModel):
    """AWS::CloudWatch::AnomalyDetector: PutAnomalyDetector; physical id: the
    generated name (a detector has no name; its metric is its identity)."""

    TYPE = "AWS::CloudWatch::AnomalyDetector"
    ALLOWED = ("Namespace", "MetricName", "Dimensions", "Stat", "SingleMetricAnomalyDetector",
               "MetricMathAnomalyDetector", "Configuration", "MetricCharacteristics")

    @staticmethod
    def make(aws, name, props):
        cloudwatch = aws.service("cloudwatch")
        metric = {k: v for k, v in props.items() if k not in ("Configuration", "MetricCharacteristics")}
        params = dict(metric)
        config = dict(props.get("Configuration") or {})
        if "MetricTimeZone" in config:
            # The API spells it MetricTimezone.
            config["MetricTimezone"] = config.pop("MetricTimeZone")
        if config:
            params["Configuration"] = config
        if "MetricCharacteristics" in props:
            spikes = props["MetricCharacteristics"].get("PeriodicSpikes")
            params["MetricCharacteristics"] = {} if spikes is None else {"PeriodicSpikes": _flag(spikes)}
        cloudwatch.put_anomaly_detector(**params)
        return name, lambda: cloudwatch.delete_anomaly_detector(**metric), {}


class ClientVpnEndpoint(_Model, CloudFormationModel):
    """AWS::EC2::ClientVpnEndpoint: CreateClientVpnEndpoint; physical id: the endpoint id."""

    TYPE = "AWS::EC2::ClientVpnEndpoint"
    ALLOWED = ("ClientCidrBlock", "ServerCertificateArn", "AuthenticationOptions", "ConnectionLogOptions",
               "Description", "DnsServers", "SecurityGroupIds", "SplitTunnel", "TransportProtocol", "VpcId",
               "VpnPort", "SessionTimeoutHours", "DisconnectOnSessionTimeout")

    @staticmethod
    def make(aws, name, props):
        params = dict(props)
        for key in ("SplitTunnel", "DisconnectOnSessionTimeout"):
            if key in params:
                params[key] = _flag(params[key])
        for key in ("VpnPort", "SessionTimeoutHours"):
            if key in params:
                params[key] = int(params[key])
        logs = dict(params["ConnectionLogOptions"])
        logs["Enabled"] = _flag(logs.get("Enabled"))
        params["ConnectionLogOptions"] = logs
        endpoint = aws.ec2.create_client_vpn_endpoint(**params)["ClientVpnEndpointId"]
        return endpoint, lambda: aws.ec2.delete_client_vpn_endpoint(ClientVpnEndpointId=endpoint), {}


class ClientVpnTargetNetworkAssociation(_Model, CloudFormationModel):
    """AWS::EC2::ClientVpnTargetNetworkAssociation: AssociateClientVpnTargetNetwork;
    physical id: the association id."""

    TYPE = "AWS::EC2::ClientVpnTargetNetworkAssociation"
    ALLOWED = ("ClientVpnEndpointId", "SubnetId")

    @staticmethod
    def make(aws, name, props):
        endpoint = props["ClientVpnEndpointId"]
        association = aws.ec2.associate_client_vpn_target_network(
            ClientVpnEndpointId=endpoint, SubnetId=props["SubnetId"])["AssociationId"]

        def undo():
            aws.ec2.disassociate_client_vpn_target_network(ClientVpnEndpointId=endpoint, AssociationId=association)

        return association, undo, {}


class DocDbCluster(_Model, CloudFormationModel):
    """AWS::DocDB::DBCluster: CreateDBCluster (engine docdb, through the
    DocumentDB API); physical id: the cluster identifier (lower-case, as
    DocumentDB stores it)."""

    TYPE = "AWS::DocDB::DBCluster"
    ALLOWED = ("DBClusterIdentifier", "BackupRetentionPeriod", "Port", "EngineVersion", "MasterUsername",
               "MasterUserPassword", "PreferredBackupWindow", "PreferredMaintenanceWindow", "StorageEncrypted",
               "KmsKeyId", "DeletionProtection", "DBClusterParameterGroupName", "VpcSecurityGroupIds",
               "AvailabilityZones", "EnableCloudwatchLogsExports", "StorageType", "CopyTagsToSnapshot", "Tags")

    @staticmethod
    def cloudformation_name_type() -> str:
        return "DBClusterIdentifier"

    @staticmethod
    def make(aws, name, props):
        docdb = aws.service("docdb")
        ident = name.lower()
        params = {k: v for k, v in props.items() if k not in ("DBClusterIdentifier", "Tags")}
        for key in ("BackupRetentionPeriod", "Port"):
            if key in params:
                params[key] = int(params[key])
        for key in ("StorageEncrypted", "DeletionProtection", "CopyTagsToSnapshot"):
            if key in params:
                params[key] = str(params[key]).lower() == "true"
        out = docdb.create_db_cluster(DBClusterIdentifier=ident, Engine="docdb", Tags=_tags(props),
                                      **params)["DBCluster"]

        def undo():
            # DeletionProtection fails this, as it fails CloudFormation's delete on AWS.
            docdb.delete_db_cluster(DBClusterIdentifier=ident, SkipFinalSnapshot=True)

        return ident, undo, {"Endpoint": out.get("Endpoint", ""), "Port": str(out.get("Port", "")),
                             "ClusterResourceId": out.get("DbClusterResourceId", "")}

    ATTRIBUTES = ("Endpoint", "Port", "ClusterResourceId")


class DocDbInstance(_Model, CloudFormationModel):
    """AWS::DocDB::DBInstance: CreateDBInstance (engine docdb) in the
    declared cluster; physical id: the instance identifier (lower-case)."""

    TYPE = "AWS::DocDB::DBInstance"
    ALLOWED = ("DBInstanceIdentifier", "DBInstanceClass", "DBClusterIdentifier", "AvailabilityZone",
               "AutoMinorVersionUpgrade", "PreferredMaintenanceWindow", "CACertificateIdentifier", "Tags")

    @staticmethod
    def cloudformation_name_type() -> str:
        return "DBInstanceIdentifier"

    @staticmethod
    def make(aws, name, props):
        docdb = aws.service("docdb")
        ident = name.lower()
        params = {k: v for k, v in props.items() if k not in ("DBInstanceIdentifier", "Tags")}
        if "AutoMinorVersionUpgrade" in params:
            params["AutoMinorVersionUpgrade"] = str(params["AutoMinorVersionUpgrade"]).lower() == "true"
        out = docdb.create_db_instance(DBInstanceIdentifier=ident, Engine="docdb", Tags=_tags(props),
                                       **params)["DBInstance"]
        endpoint = out.get("Endpoint") or {}
        return ident, lambda: docdb.delete_db_instance(DBInstanceIdentifier=ident), {
            "Endpoint": endpoint.get("Address", ""), "Port": str(endpoint.get("Port", ""))}

    ATTRIBUTES = ("Endpoint", "Port")


MODELS = (NetworkAclEntry, CodeBuildProject, DaxCluster,
          DmsReplicationInstance, LakeFormationResource, ListenerCertificate,
          AnomalyDetector, ClientVpnEndpoint, ClientVpnTargetNetworkAssociation,
          DocDbCluster, DocDbInstance)


def install() -> None:
    """Register the types (moto builds its type table from CloudFormationModel's subclasses, once)."""
    for cached in (parsing.get_model_list, parsing.get_model_map, parsing.get_name_type_map):
        cached.cache_clear()
    models = parsing.get_model_map()
    for model in MODELS:
        assert models[model.cloudformation_type()] is model, model.cloudformation_type()
