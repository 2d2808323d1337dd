"""AWS::Lambda::Function — identifier: the function name (an ARN is accepted too)."""

from botocore.exceptions import ClientError

from ..aws import is_not_found
from ..errors import ResourceNotFound
from .base import apply_writers, tag_changes, tag_list

TYPE_NAME = "AWS::Lambda::Function"
PRIMARY_IDENTIFIER = "FunctionName"
CREATE_ONLY = frozenset({"FunctionName", "PackageType", "TenancyConfig"})
READ_ONLY = frozenset({"Arn", "SnapStartResponse"})


def _name(ident: str) -> str:
    # arn:aws:lambda:region:account:function:NAME
    return ident.split(":")[6] if ident.startswith("arn:") else ident


def read(aws, ident: str) -> dict:
    """The Cloud Control model of one function."""
    name = _name(ident)
    lam = aws.lambda_
    try:
        fn = lam.get_function(FunctionName=name)
        conc = lam.get_function_concurrency(FunctionName=name)
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"Function {ident} not found") from err
        raise
    cfg = fn["Configuration"]
    model = {
        "FunctionName": cfg["FunctionName"],
        "Arn": cfg["FunctionArn"],
        "Role": cfg["Role"],
        "PackageType": cfg.get("PackageType", "Zip"),
        "Description": cfg.get("Description", ""),
        "MemorySize": cfg.get("MemorySize", 128),
        "Timeout": cfg.get("Timeout", 3),
        "TracingConfig": {"Mode": cfg.get("TracingConfig", {}).get("Mode", "PassThrough")},
        "Architectures": list(cfg.get("Architectures", ["x86_64"])),
        "EphemeralStorage": {"Size": cfg.get("EphemeralStorage", {}).get("Size", 512)},
        "FileSystemConfigs": [
            {"Arn": f["Arn"], "LocalMountPath": f["LocalMountPath"]}
            for f in cfg.get("FileSystemConfigs", [])
        ],
        # Code is write-only: Cloud Control answers an empty object for zip functions.
        "Code": {},
    }
    if model["PackageType"] == "Zip":
        model["Runtime"] = cfg.get("Runtime")
        model["Handler"] = cfg.get("Handler")
    snap = cfg.get("SnapStart")
    if snap:
        model["SnapStartResponse"] = {
            "ApplyOn": snap.get("ApplyOn", "None"),
            "OptimizationStatus": snap.get("OptimizationStatus", "Off"),
        }
    env = cfg.get("Environment", {}).get("Variables")
    if env:
        model["Environment"] = {"Variables": dict(env)}
    vpc = cfg.get("VpcConfig")
    if vpc and (vpc.get("SubnetIds") or vpc.get("SecurityGroupIds")):
        model["VpcConfig"] = {
            "SubnetIds": list(vpc.get("SubnetIds", [])),
            "SecurityGroupIds": list(vpc.get("SecurityGroupIds", [])),
            "Ipv6AllowedForDualStack": bool(vpc.get("Ipv6AllowedForDualStack", False)),
        }
    if cfg.get("DeadLetterConfig", {}).get("TargetArn"):
        model["DeadLetterConfig"] = {"TargetArn": cfg["DeadLetterConfig"]["TargetArn"]}
    if cfg.get("KMSKeyArn"):
        model["KmsKeyArn"] = cfg["KMSKeyArn"]
    if cfg.get("LoggingConfig"):
        model["LoggingConfig"] = dict(cfg["LoggingConfig"])
    if cfg.get("Layers"):
        model["Layers"] = [layer["Arn"] for layer in cfg["Layers"]]
    if conc.get("ReservedConcurrentExecutions") is not None:
        model["ReservedConcurrentExecutions"] = conc["ReservedConcurrentExecutions"]
    tags = fn.get("Tags") or {}
    if tags:
        model["Tags"] = tag_list(tags)
    return model


def list_identifiers(aws) -> list:
    """Every function name."""
    return [f["FunctionName"] for f in aws.lambda_.list_functions()["Functions"]]


def _config_writer(key, api_key=None, shape=None):
    def write(aws, ident, _old, new):
        value = shape(new) if shape else new
        aws.lambda_.update_function_configuration(FunctionName=ident, **{api_key or key: value})

    return write


def _w_concurrency(aws, ident, _old, new):
    if new is None:
        aws.lambda_.delete_function_concurrency(FunctionName=ident)
    else:
        aws.lambda_.put_function_concurrency(FunctionName=ident, ReservedConcurrentExecutions=int(new))


def _w_tags(aws, ident, old, new):
    arn = aws.lambda_.get_function(FunctionName=ident)["Configuration"]["FunctionArn"]
    to_set, to_remove = tag_changes(old, new)
    if to_set:
        aws.lambda_.tag_resource(Resource=arn, Tags=to_set)
    if to_remove:
        aws.lambda_.untag_resource(Resource=arn, TagKeys=to_remove)


WRITERS = {
    "Description": _config_writer("Description", shape=lambda v: v or ""),
    "MemorySize": _config_writer("MemorySize"),
    "Timeout": _config_writer("Timeout"),
    "Handler": _config_writer("Handler"),
    "Runtime": _config_writer("Runtime"),
    "Role": _config_writer("Role"),
    "Environment": _config_writer("Environment", shape=lambda v: v or {"Variables": {}}),
    "TracingConfig": _config_writer("TracingConfig", shape=lambda v: v or {"Mode": "PassThrough"}),
    "DeadLetterConfig": _config_writer("DeadLetterConfig", shape=lambda v: v or {}),
    "KmsKeyArn": _config_writer("KmsKeyArn", "KMSKeyArn", shape=lambda v: v or ""),
    "Layers": _config_writer("Layers", shape=lambda v: v or []),
    "LoggingConfig": _config_writer("LoggingConfig", shape=lambda v: v or {}),
    "EphemeralStorage": _config_writer("EphemeralStorage", shape=lambda v: v or {"Size": 512}),
    "ReservedConcurrentExecutions": _w_concurrency,
    "Tags": _w_tags,
}


def update(aws, ident: str, before: dict, after: dict) -> None:
    """Write the properties that differ between two models."""
    apply_writers(TYPE_NAME, WRITERS, aws, _name(ident), before, after)


def delete(aws, ident: str) -> None:
    """Delete the function."""
    aws.lambda_.delete_function(FunctionName=_name(ident))
