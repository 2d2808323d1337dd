"""Update calls moto 5.1.22 lacks or answers unlike AWS, behind the service
writers revert uses on the per-service reader types. Each names its gap and
changes only what the call takes; everything else about the resource stays
as moto keeps it."""

import json

from moto.dax.exceptions import ClusterNotFoundFault
from moto.dax.models import DaxCluster
from moto.dax.responses import DAXResponse
from moto.dms.exceptions import ResourceNotFoundFault
from moto.dms.responses import DatabaseMigrationServiceResponse
from moto.elbv2.models import ELBv2Backend
from moto.lakeformation.exceptions import EntityNotFound
from moto.lakeformation.models import Resource as LakeFormationResource
from moto.lakeformation import urls as lakeformation_urls
from moto.lakeformation.responses import LakeFormationResponse


def _dax_update_cluster(self):
    # Gap: moto 5.1.22 has no UpdateCluster (DAX API reference, UpdateCluster:
    # https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_dax_UpdateCluster.html).
    params = json.loads(self.body)
    cluster = self.dax_backend.clusters.get(params.get("ClusterName"))
    if cluster is None:
        raise ClusterNotFoundFault()
    if "Description" in params:
        cluster.description = params["Description"]
    if "PreferredMaintenanceWindow" in params:
        cluster.preferred_maintenance_window = params["PreferredMaintenanceWindow"]
    if "ParameterGroupName" in params:
        cluster.parameter_group.name = params["ParameterGroupName"]
    if "SecurityGroupIds" in params:
        cluster.security_groups = [{"SecurityGroupIdentifier": g, "Status": "active"}
                                   for g in params["SecurityGroupIds"]]
    if "NotificationTopicArn" in params:
        cluster.realdrift_notification = {"TopicArn": params["NotificationTopicArn"],
                                          "TopicStatus": params.get("NotificationTopicStatus", "active")}
    return json.dumps({"Cluster": cluster.to_json()})


def _dax_notification() -> None:
    # Gap: moto keeps no NotificationConfiguration; DescribeClusters answers
    # the one UpdateCluster (or CreateCluster) set.
    original = DaxCluster.to_json

    def to_json(self):
        out = original(self)
        if getattr(self, "realdrift_notification", None):
            out["NotificationConfiguration"] = dict(self.realdrift_notification)
        return out

    DaxCluster.to_json = to_json


# ModifyReplicationInstance's parameters and the instance attribute each sets.
_DMS_MODIFIABLE = {
    "AllocatedStorage": "allocated_storage",
    "AutoMinorVersionUpgrade": "auto_minor_version_upgrade",
    "EngineVersion": "engine_version",
    "MultiAZ": "multi_az",
    "NetworkType": "network_type",
    "PreferredMaintenanceWindow": "preferred_maintenance_window",
    "ReplicationInstanceClass": "replication_instance_class",
}


def _dms_modify_replication_instance(self):
    # Gap: moto 5.1.22 has no ModifyReplicationInstance (DMS API reference:
    # https://docs.aws.amazon.com/dms/latest/APIReference/API_ModifyReplicationInstance.html).
    # Applied at once whatever ApplyImmediately says: moto has no maintenance window.
    arn = self._get_param("ReplicationInstanceArn")
    instance = self.dms_backend.replication_instances.get(arn)
    if instance is None:
        raise ResourceNotFoundFault("Replication instance could not be found.")
    for param, attribute in _DMS_MODIFIABLE.items():
        value = self._get_param(param)
        if value is not None:
            setattr(instance, attribute, value)
    groups = self._get_param("VpcSecurityGroupIds")
    if groups is not None:
        instance.vpc_security_groups = [{"VpcSecurityGroupId": g, "Status": "active"} for g in groups]
    return json.dumps({"ReplicationInstance": instance.to_dict()})


def _lakeformation_update_resource(self):
    # Gap: moto 5.1.22 has no UpdateResource (Lake Formation API reference:
    # https://docs.aws.amazon.com/lake-formation/latest/APIReference/API_UpdateResource.html).
    arn = self._get_param("ResourceArn")
    resource = self.lakeformation_backend.resources.get(arn)
    if resource is None:
        raise EntityNotFound
    resource.role_arn = self._get_param("RoleArn")
    for param in ("WithFederation", "HybridAccessEnabled"):
        value = self._get_param(param)
        if value is not None:
            setattr(resource, f"realdrift_{param}", value)
    return "{}"


def _lakeformation_resource_flags() -> None:
    # Gap: moto's DescribeResource answers only the ARN and the role; Lake
    # Formation answers WithFederation / HybridAccessEnabled as set.
    original = LakeFormationResource.to_dict

    def to_dict(self):
        out = original(self)
        for param in ("WithFederation", "HybridAccessEnabled"):
            value = getattr(self, f"realdrift_{param}", None)
            if value is not None:
                out[param] = value
        return out

    LakeFormationResource.to_dict = to_dict


def _elbv2_add_listener_certificates_once() -> None:
    # Gap: moto appends a certificate already in the listener's list again;
    # "If the certificate is already in the certificate list, the call is
    # successful but the certificate is not added again" (Elastic Load
    # Balancing API reference, AddListenerCertificates:
    # https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_AddListenerCertificates.html).
    original = ELBv2Backend.add_listener_certificates

    def add_listener_certificates(self, arn, certificates):
        listener = self.describe_listeners(load_balancer_arn=None, listener_arns=[arn])[0]
        new = [c for c in certificates if c["CertificateArn"] not in listener.certificates]
        return original(self, arn, new)

    ELBv2Backend.add_listener_certificates = add_listener_certificates


def install() -> None:
    """Apply every update-call patch."""
    DAXResponse.update_cluster = _dax_update_cluster
    _dax_notification()
    DatabaseMigrationServiceResponse.modify_replication_instance = _dms_modify_replication_instance
    LakeFormationResponse.update_resource = _lakeformation_update_resource
    lakeformation_urls.url_paths["{0}/UpdateResource$"] = lakeformation_urls.response.dispatch
    _lakeformation_resource_flags()
    _elbv2_add_listener_certificates_once()
