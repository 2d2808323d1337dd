"""The Cloud Control operations, over the per-type modules (no HTTP here)."""

import base64
import json
import os
import threading
import time
import uuid

from botocore.exceptions import ClientError

from .aws import Aws, error_code, is_not_found
from .defaults import add_defaults, strip_defaults
from .errors import (
    ClientTokenConflict,
    HandlerFailure,
    NotUpdatable,
    RequestTokenNotFound,
    ResourceNotFound,
    TypeNotFound,
    UnknownOperation,
    UnsupportedAction,
    Validation,
)
from .patch import apply_patch
from .types import TYPES

_UNSUPPORTED_PATH = os.path.join(os.path.dirname(__file__), "data", "unsupported_types.json")
with open(_UNSUPPORTED_PATH, encoding="utf-8") as _f:
    UNSUPPORTED_TYPES = {k: v for k, v in json.load(_f).items() if not k.startswith("_")}

# moto error codes that mean the request (not the emulator) was at fault.
_INVALID_REQUEST_CODES = frozenset({"InvalidParameterValue", "InvalidParameterValueException", "ValidationException", "ValidationError", "InvalidArgument", "MalformedXML", "InvalidAttributeValue"})


def _type(type_name):
    if not isinstance(type_name, str) or not type_name:
        raise Validation("TypeName is required")
    module = TYPES.get(type_name)
    if module is not None:
        return module
    if type_name in UNSUPPORTED_TYPES:
        raise UnsupportedAction(
            f"Resource type {type_name} does not support this action ({UNSUPPORTED_TYPES[type_name]})"
        )
    raise TypeNotFound(
        f"The type {type_name} cannot be found (the realdrift emulator serves: {', '.join(sorted(TYPES))})"
    )


def _identifier(body: dict) -> str:
    ident = body.get("Identifier")
    if not isinstance(ident, str) or not ident:
        raise Validation("Identifier is required")
    return ident


def _read(module, ident: str) -> dict:
    try:
        model = module.read(_aws(), ident)
    except ClientError as err:
        if is_not_found(err):
            raise ResourceNotFound(f"{module.TYPE_NAME} {ident} not found") from err
        raise
    return add_defaults(module.TYPE_NAME, model)


class _State:
    """The endpoint's state: moto clients, issued progress events, client
    tokens seen, and injected faults (tests only)."""

    aws = None
    lock = threading.Lock()
    requests: dict = {}
    # ClientToken -> (request parameters, RequestToken of the request it made).
    client_tokens: dict = {}
    # Injected write failures: [{operation, identifier, errorCode, message, times}].
    faults: list = []


def configure(aws) -> None:
    """Point the operations at a moto-backed :class:`aws.Aws`."""
    _State.aws = aws


# Clients per caller (access key, region), made on first use; the request's
# thread reads through its caller's (see use_caller).
_callers: dict = {}
_local = threading.local()


def use_caller(scope) -> None:
    """Serve this thread's request as the caller of ``scope`` (access key,
    region from its signature): another account's assumed-role key reads that
    account. None (or the default caller) uses the default clients."""
    default = _State.aws
    if scope is None or default is None or scope == (default.access_key, default.region):
        _local.aws = None
        return
    with _State.lock:
        aws = _callers.get(scope)
        if aws is None:
            aws = Aws(default.endpoint_url, scope[1], access_key=scope[0])
            _callers[scope] = aws
    _local.aws = aws


def _aws():
    return getattr(_local, "aws", None) or _State.aws


def reset() -> None:
    """Forget every issued request token, client token and fault (moto keeps the resources)."""
    with _State.lock:
        _State.requests.clear()
        _State.client_tokens.clear()
        _State.faults.clear()


def add_fault(body: dict) -> None:
    """Makes later UpdateResource / DeleteResource calls on one identifier
    fail with a handler error code (``times`` calls, or every call when 0):
    the end-to-end tests use it to make one resource's write fail, or
    throttle it once. Cleared by :func:`reset`."""
    op = body.get("operation")
    if op not in ("UpdateResource", "DeleteResource"):
        raise Validation("operation must be UpdateResource or DeleteResource")
    if not isinstance(body.get("identifier"), str) or not isinstance(body.get("errorCode"), str):
        raise Validation("identifier and errorCode are required strings")
    fault = {
        "operation": op,
        "identifier": body["identifier"],
        "errorCode": body["errorCode"],
        "message": body.get("message") or "injected failure",
        "times": int(body.get("times") or 0),
    }
    with _State.lock:
        _State.faults.append(fault)


def _take_fault(operation: str, ident: str):
    """The injected (error code, message) for this call, consuming one use."""
    with _State.lock:
        for fault in _State.faults:
            if fault["operation"] == operation and fault["identifier"] == ident:
                if fault["times"] == 1:
                    _State.faults.remove(fault)
                elif fault["times"] > 1:
                    fault["times"] -= 1
                return fault["errorCode"], fault["message"]
    return None


def _replayed(body: dict, operation: str):
    """The earlier ProgressEvent of a request with the same ClientToken, as
    Cloud Control answers a repeated token; ``ClientTokenConflictException``
    when the token was used for a different request; ``None`` when new."""
    token = body.get("ClientToken")
    if not token:
        return None
    params = (operation, body.get("TypeName"), body.get("Identifier"), body.get("PatchDocument"))
    with _State.lock:
        seen = _State.client_tokens.get(token)
        if seen is None:
            return None
        if seen[0] != params:
            raise ClientTokenConflict(f"ClientToken {token} was used for a different request")
        return {"ProgressEvent": _State.requests[seen[1]]}


def _remember(body: dict, operation: str, answer: dict) -> dict:
    token = body.get("ClientToken")
    if token:
        params = (operation, body.get("TypeName"), body.get("Identifier"), body.get("PatchDocument"))
        with _State.lock:
            _State.client_tokens[token] = (params, answer["ProgressEvent"]["RequestToken"])
    return answer


def _progress(module, ident, operation, status, model=None, error=None) -> dict:
    event = {
        "TypeName": module.TYPE_NAME,
        "Identifier": ident,
        "RequestToken": str(uuid.uuid4()),
        "Operation": operation,
        "OperationStatus": status,
        "EventTime": time.time(),
    }
    if model is not None:
        event["ResourceModel"] = json.dumps(model)
    if error is not None:
        event["ErrorCode"], event["StatusMessage"] = error
    with _State.lock:
        _State.requests[event["RequestToken"]] = event
    return event


def _failure(err) -> tuple:
    """(HandlerErrorCode, message) for an exception raised by a write handler."""
    if isinstance(err, HandlerFailure):
        return err.handler_code, err.message
    if isinstance(err, ResourceNotFound):
        return "NotFound", err.message
    if isinstance(err, ClientError):
        if is_not_found(err):
            return "NotFound", str(err)
        if error_code(err) in _INVALID_REQUEST_CODES:
            return "InvalidRequest", str(err)
        return "GeneralServiceException", str(err)
    raise err


def get_resource(body: dict) -> dict:
    """GetResource: the resource's current model."""
    module = _type(body.get("TypeName"))
    ident = _identifier(body)
    model = _read(module, ident)
    return {
        "TypeName": module.TYPE_NAME,
        "ResourceDescription": {
            "Identifier": str(model[module.PRIMARY_IDENTIFIER]),
            "Properties": json.dumps(model),
        },
    }


def list_resources(body: dict) -> dict:
    """ListResources: primary identifiers of every resource, paginated."""
    module = _type(body.get("TypeName"))
    max_results = body.get("MaxResults") or 20
    if not isinstance(max_results, int) or not 1 <= max_results <= 100:
        raise Validation("MaxResults must be between 1 and 100")
    start = 0
    if body.get("NextToken"):
        try:
            start = int(base64.b64decode(body["NextToken"]).decode())
        except ValueError as err:
            raise Validation("NextToken is not valid") from err
    idents = sorted(module.list_identifiers(_aws()))
    page = idents[start : start + max_results]
    out = {
        "TypeName": module.TYPE_NAME,
        "ResourceDescriptions": [
            {"Identifier": i, "Properties": json.dumps({module.PRIMARY_IDENTIFIER: i})} for i in page
        ],
    }
    if start + max_results < len(idents):
        out["NextToken"] = base64.b64encode(str(start + max_results).encode()).decode()
    return out


def _check_updatable(module, before: dict, after: dict) -> None:
    for key in module.CREATE_ONLY:
        if before.get(key) != after.get(key):
            raise NotUpdatable(
                f"Invalid patch update: createOnlyProperties [/properties/{key}] cannot be updated"
            )
    for key in module.READ_ONLY:
        if before.get(key) != after.get(key):
            raise Validation(
                f"Invalid patch update: readOnlyProperties [/properties/{key}] cannot be updated"
            )


def update_resource(body: dict) -> dict:
    """UpdateResource: apply the RFC 6902 patch, write it back through moto.
    A repeated ClientToken answers the earlier request instead."""
    replayed = _replayed(body, "UPDATE")
    if replayed is not None:
        return replayed
    return _remember(body, "UPDATE", _update(body))


def _update(body: dict) -> dict:
    module = _type(body.get("TypeName"))
    ident = _identifier(body)
    patch = body.get("PatchDocument")
    if not isinstance(patch, str):
        raise Validation("PatchDocument is required")
    fault = _take_fault("UpdateResource", ident)
    if fault is not None:
        return {"ProgressEvent": _progress(module, ident, "UPDATE", "FAILED", error=fault)}
    try:
        before = _read(module, ident)
    except ResourceNotFound as err:
        return {"ProgressEvent": _progress(module, ident, "UPDATE", "FAILED", error=("NotFound", err.message))}
    after = apply_patch(before, patch)
    _check_updatable(module, before, after)
    try:
        b, a = dict(before), dict(after)
        strip_defaults(module.TYPE_NAME, b, a)
        module.update(_aws(), ident, b, a)
        model = _read(module, ident)
    except (HandlerFailure, ResourceNotFound, ClientError) as err:
        return {"ProgressEvent": _progress(module, ident, "UPDATE", "FAILED", error=_failure(err))}
    return {"ProgressEvent": _progress(module, ident, "UPDATE", "SUCCESS", model=model)}


def delete_resource(body: dict) -> dict:
    """DeleteResource: delete through moto; a missing resource fails with
    NotFound. A repeated ClientToken answers the earlier request instead."""
    replayed = _replayed(body, "DELETE")
    if replayed is not None:
        return replayed
    return _remember(body, "DELETE", _delete(body))


def _delete(body: dict) -> dict:
    module = _type(body.get("TypeName"))
    ident = _identifier(body)
    fault = _take_fault("DeleteResource", ident)
    if fault is not None:
        return {"ProgressEvent": _progress(module, ident, "DELETE", "FAILED", error=fault)}
    try:
        _read(module, ident)
        module.delete(_aws(), ident)
    except (HandlerFailure, ResourceNotFound, ClientError) as err:
        return {"ProgressEvent": _progress(module, ident, "DELETE", "FAILED", error=_failure(err))}
    return {"ProgressEvent": _progress(module, ident, "DELETE", "SUCCESS")}


def get_resource_request_status(body: dict) -> dict:
    """GetResourceRequestStatus: the (already final) event of an earlier request."""
    token = body.get("RequestToken")
    with _State.lock:
        event = _State.requests.get(token)
    if event is None:
        raise RequestTokenNotFound(f"Request token {token} not found")
    return {"ProgressEvent": event}


#: X-Amz-Target operation name -> handler.
OPERATIONS = {
    "GetResource": get_resource,
    "ListResources": list_resources,
    "UpdateResource": update_resource,
    "DeleteResource": delete_resource,
    "GetResourceRequestStatus": get_resource_request_status,
}

#: Real operations this emulator does not implement (answered, not hung up on).
NOT_IMPLEMENTED = ("CreateResource", "CancelResourceRequest", "ListResourceRequests")


def dispatch(operation: str, body: dict) -> dict:
    """Run one operation; raises :class:`CloudControlError` for error replies."""
    handler = OPERATIONS.get(operation)
    if handler is None:
        if operation in NOT_IMPLEMENTED:
            raise UnsupportedAction(f"the realdrift emulator does not implement {operation}")
        raise UnknownOperation(f"Unknown operation {operation}")
    if not isinstance(body, dict):
        raise Validation("request body must be a JSON object")
    return handler(body)

