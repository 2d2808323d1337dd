"""Patches to moto's service APIs where an answer differs from AWS's in a way
realdrift reads. Each names its gap."""

import json
import re
from urllib.parse import unquote

import xmltodict
from moto.awslambda import urls as lambda_urls
from moto.awslambda.exceptions import UnknownFunctionException
from moto.awslambda.models import LambdaFunction
from moto.awslambda.responses import LambdaResponse
from moto.codebuild.exceptions import ResourceNotFoundException as CodeBuildNotFound
from moto.codebuild.responses import CodeBuildResponse
from moto.core.utils import unix_time
from moto.dms.models import FakeReplicationInstance
from moto.route53 import responses as route53_responses
from moto.dynamodb.models import DynamoDBBackend
from moto.iam.access_control import IAMPolicyStatement, PermissionResult
from moto.s3 import responses as s3_responses
from moto.iam.models import iam_backends
from moto.s3.models import FakeBucket
from moto.sts.exceptions import STSClientError
from moto.sts.models import STSBackend
from moto.utilities.utils import get_partition

# DynamoDB's retention when PointInTimeRecoverySpecification gives none
# (DynamoDB API reference, PointInTimeRecoverySpecification.RecoveryPeriodInDays).
_PITR_DEFAULT_DAYS = 35


def _list_function_url_configs(self):
    # Gap: moto 5.1.22 has no ListFunctionUrlConfigs. A function has at most
    # one URL config here (moto does not model qualifiers).
    name = unquote(self.path.rstrip("/").split("/")[-2])
    function = self.backend._lambdas.get_function_by_name_or_arn_forbid_qualifier(name)
    if not function:
        raise UnknownFunctionException(arn=name)
    configs = [function.url_config.to_dict()] if function.url_config else []
    return 200, {}, json.dumps({"FunctionUrlConfigs": configs})


def _lambda_function_urls() -> None:
    LambdaResponse.list_function_url_configs = _list_function_url_configs
    pattern = r"{0}/(?P<api_version>[^/]+)/functions/(?P<function_name>[\w_:%-]+)/urls/?$"
    lambda_urls.url_paths[pattern] = LambdaResponse.dispatch


def _replace_once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise RuntimeError(f"moto template changed: expected one {old!r}")
    return text.replace(old, new)


_FILTER_RULE_NAME = re.compile(r"<Name>(Prefix|Suffix)</Name>")


def _s3_notification() -> None:
    # Gaps: PutBucketNotificationConfiguration rejects (HTTP 500) the filter
    # rule names "Prefix" / "Suffix" that S3 itself answers and accepts back;
    # GetBucketNotificationConfiguration drops EventBridgeConfiguration, and
    # echoes filter rule names as written where S3 answers "Prefix" / "Suffix".
    original = s3_responses.S3Response._notification_config_from_body

    def notification_config_from_body(self):
        body = self.body.decode() if isinstance(self.body, bytes) else self.body
        self.body = _FILTER_RULE_NAME.sub(lambda m: f"<Name>{m.group(1).lower()}</Name>", body)
        return original(self)

    s3_responses.S3Response._notification_config_from_body = notification_config_from_body
    text = s3_responses.S3_GET_BUCKET_NOTIFICATION_CONFIG
    if '{{ rule["Name"] }}' not in text:
        raise RuntimeError("moto template changed: no filter rule name")
    text = text.replace('{{ rule["Name"] }}', '{{ rule["Name"] | capitalize }}')
    text = _replace_once(
        text,
        "</NotificationConfiguration>",
        "{% if config.event_bridge is not none %}<EventBridgeConfiguration></EventBridgeConfiguration>{% endif %}"
        "</NotificationConfiguration>",
    )
    s3_responses.S3_GET_BUCKET_NOTIFICATION_CONFIG = text


def _s3_object_lock() -> None:
    # Gap: GetObjectLockConfiguration answers both Days and Years (one of them
    # 0); S3 answers the one that is set.
    s3_responses.S3_BUCKET_LOCK_CONFIGURATION = _replace_once(
        s3_responses.S3_BUCKET_LOCK_CONFIGURATION,
        "<Days>{{days}}</Days>\n            <Years>{{years}}</Years>",
        "{% if days %}<Days>{{days}}</Days>{% endif %}{% if years %}<Years>{{years}}</Years>{% endif %}",
    )


def _s3_replication() -> None:
    # Gap: GetBucketReplication renders a fixed subset of each rule (no
    # filter, storage class, selection criteria; delete-marker replication
    # always Disabled). moto keeps the configuration as PutBucketReplication
    # sent it: answer that.
    original = s3_responses.S3Response.get_bucket_replication

    def get_bucket_replication(self):
        replication = self.backend.get_bucket_replication(self.bucket_name)
        if not replication:
            return original(self)
        return xmltodict.unparse({"ReplicationConfiguration": replication})

    s3_responses.S3Response.get_bucket_replication = get_bucket_replication


# The request context of every S3 call: AWS clients reach S3 over TLS, while
# moto is served over plain HTTP on the loopback interface.
_S3_REQUEST_CONTEXT = {"aws:securetransport": "true"}


def _holds_in_s3_context(statement: dict) -> bool:
    """False when a Bool condition on a key of the request context does not hold."""
    for key, expected in (statement.get("Condition") or {}).get("Bool", {}).items():
        actual = _S3_REQUEST_CONTEXT.get(key.lower())
        values = expected if isinstance(expected, list) else [expected]
        if actual is not None and actual not in [str(v).lower() for v in values]:
            return False
    return True


def _s3_bucket_policy_conditions() -> None:
    # Gap: moto skips Bool conditions (it evaluates StringEquals only), so a
    # bucket policy's usual "deny unless aws:SecureTransport" statement denies
    # every object write. On AWS, reached over TLS, that statement does not
    # apply. Other statements are evaluated by moto as before.
    def get_permission(self, action, resource):
        if self.policy is None:
            return PermissionResult.NEUTRAL
        statements = json.loads(self.policy.decode()).get("Statement", [])
        result = PermissionResult.NEUTRAL
        for raw in statements if isinstance(statements, list) else [statements]:
            if not _holds_in_s3_context(raw):
                continue
            outcome = IAMPolicyStatement(raw).is_action_permitted(action, resource)
            if outcome == PermissionResult.DENIED:
                return outcome
            if outcome == PermissionResult.PERMITTED:
                result = outcome
        return result

    FakeBucket.get_permission = get_permission


def _dynamodb_pitr_period() -> None:
    # Gap: moto drops RecoveryPeriodInDays; DynamoDB reports it (35 by default)
    # while point-in-time recovery is on.
    original = DynamoDBBackend.update_continuous_backups

    def update_continuous_backups(self, table_name, point_in_time_spec):
        result = original(self, table_name, point_in_time_spec)
        description = result["PointInTimeRecoveryDescription"]
        if description["PointInTimeRecoveryStatus"] == "ENABLED":
            days = point_in_time_spec.get("RecoveryPeriodInDays") or description.get("RecoveryPeriodInDays")
            description["RecoveryPeriodInDays"] = int(days or _PITR_DEFAULT_DAYS)
        return result

    DynamoDBBackend.update_continuous_backups = update_continuous_backups


def _lambda_logging_config() -> None:
    # Gap: moto neither stores nor returns LoggingConfig. Lambda returns it on
    # every function: text format into /aws/lambda/<name> unless set otherwise.
    original_update = LambdaFunction.update_configuration
    original_get = LambdaFunction.get_configuration

    def update_configuration(self, config_updates):
        if "LoggingConfig" in config_updates:
            self.realdrift_logging_config = dict(config_updates["LoggingConfig"] or {})
        rest = {k: v for k, v in config_updates.items() if k != "LoggingConfig"}
        return original_update(self, rest)

    def get_configuration(self, *args, **kwargs):
        config = original_get(self, *args, **kwargs)
        stored = getattr(self, "realdrift_logging_config", None) or {}
        config["LoggingConfig"] = {
            "LogFormat": stored.get("LogFormat", "Text"),
            "LogGroup": stored.get("LogGroup", f"/aws/lambda/{self.function_name}"),
            **{k: v for k, v in stored.items() if k not in ("LogFormat", "LogGroup")},
        }
        return config

    LambdaFunction.update_configuration = update_configuration
    LambdaFunction.get_configuration = get_configuration


def _assume_role_needs_the_role() -> None:
    # Gap: moto 5.1.22 lets any role ARN be assumed, existing or not
    # (docs/multi_account.rst). AWS answers AccessDenied when the caller may
    # not assume the role, and a role that does not exist cannot trust anyone
    # (IAM User Guide, "Troubleshooting IAM roles", I can't assume a role:
    # https://docs.aws.amazon.com/IAM/latest/UserGuide/troubleshoot_roles.html).
    original = STSBackend.assume_role

    def assume_role(self, region_name, role_session_name, role_arn, *args, **kwargs):
        fields = role_arn.split(":")
        account = fields[4] if len(fields) > 5 else ""
        roles = iam_backends[account][get_partition(region_name)].get_roles() if account else []
        if not any(r.arn == role_arn for r in roles):
            raise STSClientError("AccessDenied", f"User is not authorized to perform: sts:AssumeRole on resource: {role_arn}")
        return original(self, region_name, role_session_name, role_arn, *args, **kwargs)

    STSBackend.assume_role = assume_role


# UpdateProject's settings a console edit changes, as BatchGetProjects
# answers them (a structure given replaces the stored one whole).
_CODEBUILD_UPDATABLE = ("description", "source", "artifacts", "environment", "cache", "serviceRole",
                        "timeoutInMinutes", "queuedTimeoutInMinutes", "sourceVersion", "vpcConfig",
                        "logsConfig", "tags")


def _codebuild_update_project(self):
    # Gap: moto 5.1.22 has no UpdateProject, the call behind every edit of a
    # project in the console (CodeBuild API reference, UpdateProject:
    # https://docs.aws.amazon.com/codebuild/latest/APIReference/API_UpdateProject.html).
    name = self._get_param("name")
    project = self.codebuild_backend.codebuild_projects.get(name)
    if project is None:
        raise CodeBuildNotFound(f"Project cannot be found: arn:aws:codebuild:{self.region}:{self.current_account}:project/{name}")
    for key in _CODEBUILD_UPDATABLE:
        value = self._get_param(key)
        if value is not None:
            project.project_metadata[key] = value
    project.project_metadata["lastModifiedDate"] = unix_time()
    return json.dumps({"project": project.project_metadata})


def _route53_record_values() -> None:
    # Gap: ListResourceRecordSets wraps each record value in CDATA, which
    # Route 53 never does; the Rust SDK's XML reader reads such a value as
    # "" (boto3 unwraps it). Answered as Route 53 does: the value, escaped.
    route53_responses.LIST_RRSET_RESPONSE = _replace_once(
        route53_responses.LIST_RRSET_RESPONSE,
        "<Value><![CDATA[{{ resource }}]]></Value>",
        "<Value>{{ resource | e }}</Value>",
    )


def _dms_instance_create_time() -> None:
    # Gap: DescribeReplicationInstances answers InstanceCreateTime as an ISO
    # string; the DMS JSON protocol sends timestamps as epoch seconds, and
    # the Rust SDK rejects the whole answer on the string.
    original = FakeReplicationInstance.to_dict

    def to_dict(self):
        out = original(self)
        out["InstanceCreateTime"] = unix_time(self.creation_date)
        return out

    FakeReplicationInstance.to_dict = to_dict


def install() -> None:
    """Apply every service API patch."""
    _route53_record_values()
    _dms_instance_create_time()
    CodeBuildResponse.update_project = _codebuild_update_project
    _assume_role_needs_the_role()
    _lambda_function_urls()
    _lambda_logging_config()
    _s3_notification()
    _s3_object_lock()
    _s3_replication()
    _s3_bucket_policy_conditions()
    _dynamodb_pitr_period()
