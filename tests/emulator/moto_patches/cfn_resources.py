"""Patch: the resource types moto's CloudFormation does not create
(gaps.CREATED_TYPES) are created through the service APIs, and listed by
ListStackResources with the physical id real CloudFormation reports; the
Lambda permission and the security-group ingress rule get the physical id
CloudFormation gives them (gaps.PHYSICAL_ID_FIXES), and a rule on a custom
event bus is listed as <bus>|<name> (gaps.PHYSICAL_ID_SPELLINGS)."""

import json

from botocore.exceptions import BotoCoreError, ClientError
from moto.awslambda.models import LayerVersion, Permission
from moto.cloudformation import parsing
from moto.ec2.models.security_groups import SecurityGroupIngress
from moto.events.models import EventBus, Rule
from moto.cloudformation.exceptions import UnformattedGetAttTemplateException, ValidationError
from moto.core.common_models import CloudFormationModel

from cloudcontrol.aws import is_not_found
from cloudcontrol.errors import HandlerFailure
from cloudcontrol.types import ec2_security_group, sns_subscription

from . import service_client


class _Created:
    """What moto's stack keeps of a resource this patch created."""

    ATTRIBUTES = ()

    def __init__(self, physical_id: str, undo, attributes=None):
        self.physical_resource_id = physical_id
        self._undo = undo
        self._attributes = attributes or {}

    @staticmethod
    def cloudformation_name_type() -> str:
        # No name property: moto generates <stack>-<logical id>-<suffix>.
        return ""

    @classmethod
    def has_cfn_attr(cls, attr: str) -> bool:
        return attr in cls.ATTRIBUTES

    def get_cfn_attribute(self, attribute_name: str):
        if attribute_name in self._attributes:
            return self._attributes[attribute_name]
        raise UnformattedGetAttTemplateException()

    def is_created(self) -> bool:
        return True

    def delete(self, account_id: str, region_name: str) -> None:
        # moto deletes a stack's resources in no dependency order: what this
        # resource acted on (bucket, function, queue) may already be gone.
        try:
            self._undo()
        except ClientError as err:
            if not is_not_found(err):
                raise


def _document(doc) -> str:
    return doc if isinstance(doc, str) else json.dumps(doc)


def _create(type_name: str, logical_id: str, make):
    """Run a creation, turning a service error into a CreateStack error naming the resource."""
    try:
        return make()
    except (ClientError, BotoCoreError, HandlerFailure, KeyError) as err:
        raise ValidationError(message=f"realdrift emulator: {logical_id} ({type_name}): {err}") from err


class BucketPolicy(_Created, CloudFormationModel):
    """AWS::S3::BucketPolicy: PutBucketPolicy; physical id: the bucket name."""

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::S3::BucketPolicy"

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        props = cloudformation_json["Properties"]
        s3 = service_client.clients(region_name, account_id).s3

        def make():
            bucket = props["Bucket"]
            s3.put_bucket_policy(Bucket=bucket, Policy=_document(props["PolicyDocument"]))

            def undo():
                s3.head_bucket(Bucket=bucket)  # 404 when the bucket went first
                s3.delete_bucket_policy(Bucket=bucket)

            return cls(bucket, undo)

        return _create(cls.cloudformation_type(), kwargs.get("LogicalId", resource_name), make)


class QueuePolicy(_Created, CloudFormationModel):
    """AWS::SQS::QueuePolicy: the Policy attribute of each queue; physical id:
    the generated <stack>-<logical id>-<suffix>."""

    ATTRIBUTES = ("Id",)

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::SQS::QueuePolicy"

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        props = cloudformation_json["Properties"]
        sqs = service_client.clients(region_name, account_id).sqs

        def set_policy(policy: str):
            for url in props["Queues"]:
                sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": policy})

        def make():
            set_policy(_document(props["PolicyDocument"]))
            return cls(resource_name, lambda: set_policy(""), {"Id": resource_name})

        return _create(cls.cloudformation_type(), kwargs.get("LogicalId", resource_name), make)


_SUBSCRIPTION_TARGET = ("TopicArn", "Protocol", "Endpoint", "Region")


class Subscription(_Created, CloudFormationModel):
    """AWS::SNS::Subscription: Subscribe, then the declared attributes through
    the endpoint's writers; physical id: the subscription ARN."""

    ATTRIBUTES = ("Arn",)

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::SNS::Subscription"

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        props = cloudformation_json["Properties"]
        aws = service_client.clients(region_name, account_id)

        def make():
            if props.get("Region", region_name) != region_name:
                raise HandlerFailure("InvalidRequest", "a Region other than the stack's is not emulated")
            arn = aws.sns.subscribe(
                TopicArn=props["TopicArn"],
                Protocol=props["Protocol"],
                Endpoint=props["Endpoint"],
                ReturnSubscriptionArn=True,
            )["SubscriptionArn"]
            attributes = {k: v for k, v in props.items() if k not in _SUBSCRIPTION_TARGET and v is not None}
            sns_subscription.update(aws, arn, {}, attributes)
            return cls(arn, lambda: aws.sns.unsubscribe(SubscriptionArn=arn), {"Arn": arn})

        return _create(cls.cloudformation_type(), kwargs.get("LogicalId", resource_name), make)


def _permission_create(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
    # AddPermission with the statement id CloudFormation uses (its physical id).
    props = cloudformation_json["Properties"]
    lam = service_client.clients(region_name, account_id).lambda_

    def make():
        params = {k: v for k, v in props.items() if v is not None}
        lam.add_permission(StatementId=resource_name, **params)
        function = props["FunctionName"]

        def undo():
            lam.remove_permission(FunctionName=function, StatementId=resource_name)

        return _Created(resource_name, undo)

    return _create("AWS::Lambda::Permission", kwargs.get("LogicalId", resource_name), make)


def _layer_version_ref(layer_version) -> str:
    # Gap: moto's LayerVersion has no physical id, so a Ref to one resolved to
    # the Python object. CloudFormation's Ref of a layer version is its ARN.
    return layer_version.arn


def _ingress_create(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
    # Authorize through the EC2 API, whose answer names the rule: its id is
    # the physical id CloudFormation reports.
    props = cloudformation_json["Properties"]
    ec2 = service_client.clients(region_name, account_id).ec2

    def make():
        group = props["GroupId"]
        permission = ec2_security_group._permission(props, egress=False)
        out = ec2.authorize_security_group_ingress(GroupId=group, IpPermissions=[permission])
        (rule,) = out["SecurityGroupRules"]

        def undo():
            ec2.revoke_security_group_ingress(GroupId=group, IpPermissions=[permission])

        return _Created(rule["SecurityGroupRuleId"], undo)

    return _create("AWS::EC2::SecurityGroupIngress", kwargs.get("LogicalId", resource_name), make)


def _rule_physical_id(rule) -> str:
    # CloudFormation's physical id of a rule on a custom bus is <bus>|<name>.
    if rule.event_bus_name in ("", "default"):
        return rule.name
    return f"{rule.event_bus_name}|{rule.name}"


def install() -> None:
    """Register the new types and replace the permission's and ingress rule's
    creates, the rule's physical id and the layer version's (its Ref)."""
    Permission.create_from_cloudformation_json = classmethod(_permission_create)
    LayerVersion.physical_resource_id = property(_layer_version_ref)
    SecurityGroupIngress.create_from_cloudformation_json = classmethod(_ingress_create)
    Rule.physical_resource_id = property(_rule_physical_id)
    EventBus.physical_resource_id = property(lambda bus: bus.name)
    # moto builds its type table from CloudFormationModel's subclasses, once.
    for cached in (parsing.get_model_list, parsing.get_model_map, parsing.get_name_type_map):
        cached.cache_clear()
    models = parsing.get_model_map()
    for model in (BucketPolicy, QueuePolicy, Subscription):
        assert models[model.cloudformation_type()] is model, model.cloudformation_type()
