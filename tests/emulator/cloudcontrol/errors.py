"""Errors the endpoint answers with, named as real Cloud Control names them."""


class CloudControlError(Exception):
    """An error returned to the client as an awsJson1_0 error body."""

    code = "GeneralServiceException"
    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ResourceNotFound(CloudControlError):
    """The identifier names no resource (handler error code NotFound)."""

    code = "ResourceNotFoundException"
    handler_code = "NotFound"


class TypeNotFound(CloudControlError):
    """The type name is not one the registry (or this emulator) knows."""

    code = "TypeNotFoundException"


class UnsupportedAction(CloudControlError):
    """The type exists but Cloud Control cannot perform this action on it."""

    code = "UnsupportedActionException"


class Validation(CloudControlError):
    """The request itself is malformed (bad patch, bad identifier shape...)."""

    code = "ValidationException"


class NotUpdatable(CloudControlError):
    """The patch changes a create-only property."""

    code = "NotUpdatableException"


class RequestTokenNotFound(CloudControlError):
    """GetResourceRequestStatus was asked about a token it never issued."""

    code = "RequestTokenNotFoundException"


class ClientTokenConflict(CloudControlError):
    """A ClientToken was reused for a different request."""

    code = "ClientTokenConflictException"


class UnknownOperation(CloudControlError):
    """The X-Amz-Target names no operation of the service."""

    code = "UnknownOperationException"


class HandlerFailure(Exception):
    """A write handler failed; reported as a FAILED progress event, not a throw.

    ``handler_code`` is one of Cloud Control's HandlerErrorCode values.
    """

    def __init__(self, handler_code: str, message: str):
        super().__init__(message)
        self.handler_code = handler_code
        self.message = message


class EmulatorCannotWrite(HandlerFailure):
    """moto has no API to store this property: a named emulator gap."""

    def __init__(self, type_name: str, prop: str):
        super().__init__(
            "GeneralServiceException",
            f"realdrift emulator gap: cannot write {type_name} property {prop} "
            "(moto has no API for it)",
        )
