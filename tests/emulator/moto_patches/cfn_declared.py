"""Patch: declared properties moto's CloudFormation ignores on the served
types (gaps.NATIVE_PROPERTIES) take effect. After moto's own create, they are
applied through the Cloud Control endpoint's writers as an update of the new
resource, so what moto already set is not written twice; a property with no
writer fails the CreateStack with a message naming it."""

import copy

from botocore.exceptions import ClientError
from moto.cloudformation import parsing
from moto.cloudformation.exceptions import ValidationError

from cloudcontrol.defaults import add_defaults, strip_defaults
from cloudcontrol.errors import CloudControlError, HandlerFailure
from cloudcontrol.types import TYPES

from . import gaps, service_client


def apply_declared(type_name: str, logical_id: str, ident: str, properties: dict, region: str, account: str = None) -> list:
    """Apply the declared properties moto ignored; returns their names."""
    ignored = [p for p in gaps.ignored_properties(type_name, properties) if properties[p] is not None]
    if not ignored:
        return []
    module = TYPES[type_name]
    aws = service_client.clients(region, account)
    try:
        before = add_defaults(type_name, module.read(aws, ident))
        after = {**before, **{p: properties[p] for p in ignored}}
        strip_defaults(type_name, before, after)
        module.update(aws, ident, before, after)
    except (HandlerFailure, CloudControlError, ClientError) as err:
        raise ValidationError(
            message=f"realdrift emulator: {logical_id} ({type_name}): moto's CloudFormation ignores "
            f"{', '.join(ignored)} and applying them failed: {err}"
        ) from err
    return ignored


def _lambda_architectures(resource, declared: dict) -> None:
    # AWS sets Architectures at create; moto's create drops it and moto has no
    # API that changes it afterwards, so the model takes it directly.
    if declared.get("Architectures"):
        resource.architectures = list(declared["Architectures"])


#: Per type, declared properties set on moto's model right after its create
#: (listed as native in gaps.NATIVE_PROPERTIES).
MODEL_SETTERS = {"AWS::Lambda::Function": _lambda_architectures}


def _wrap(model_cls, type_name: str) -> None:
    original = model_cls.create_from_cloudformation_json.__func__

    def create(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        declared = copy.deepcopy(cloudformation_json.get("Properties") or {})
        resource = original(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs)
        logical_id = kwargs.get("LogicalId", resource_name)
        if type_name in MODEL_SETTERS:
            MODEL_SETTERS[type_name](resource, declared)
        apply_declared(type_name, logical_id, resource.physical_resource_id, declared, region_name, account_id)
        return resource

    model_cls.create_from_cloudformation_json = classmethod(create)


def _role_delete_detaches(model_cls) -> None:
    # Gap: moto's role delete removes inline policies only, so DeleteStack of a
    # role with ManagedPolicyArns (attached above) failed with DeleteConflict.
    # CloudFormation detaches them first.
    original = model_cls.delete_from_cloudformation_json.__func__

    def delete(cls, resource_name, cloudformation_json, account_id, region_name):
        iam = service_client.clients(region_name, account_id).iam
        for policy in iam.list_attached_role_policies(RoleName=resource_name)["AttachedPolicies"]:
            iam.detach_role_policy(RoleName=resource_name, PolicyArn=policy["PolicyArn"])
        original(cls, resource_name, cloudformation_json, account_id, region_name)

    model_cls.delete_from_cloudformation_json = classmethod(delete)


def install() -> None:
    """Wrap the create of every served type (and the role's delete)."""
    models = parsing.get_model_map()
    for type_name in gaps.NATIVE_PROPERTIES:
        _wrap(models[type_name], type_name)
    _role_delete_detaches(models["AWS::IAM::Role"])
