"""boto3 clients pointed at the moto server, shared by every request thread."""

import threading

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

# Error codes the service APIs use for "this resource does not exist".
NOT_FOUND_CODES = frozenset(
    {
        "NoSuchBucket",
        "AWS.SimpleQueueService.NonExistentQueue",
        "QueueDoesNotExist",
        "NotFound",
        "NoSuchEntity",
        "ResourceNotFoundException",
        "404",
    }
)


def is_not_found(err: ClientError) -> bool:
    """True when a moto ClientError means the resource is absent."""
    return err.response.get("Error", {}).get("Code", "") in NOT_FOUND_CODES


def error_code(err: ClientError) -> str:
    """The service error code of a ClientError."""
    return err.response.get("Error", {}).get("Code", "")


class Aws:
    """One client per service, all aimed at the same moto endpoint."""

    SERVICES = ("s3", "sqs", "sns", "iam", "lambda", "dynamodb", "logs", "events", "sts", "cloudformation", "ec2")

    def __init__(self, endpoint_url: str, region: str = "us-east-1", access_key: str = "testing", account: str = None):
        self.endpoint_url = endpoint_url
        self.region = region
        self.access_key = access_key
        # moto maps an assumed role's access key to the role's account, so a
        # caller's key selects the account its requests act in.
        session = boto3.session.Session(
            aws_access_key_id=access_key,
            aws_secret_access_key="testing",
            region_name=region,
        )
        if account:
            # moto's server mode acts in the account this header names
            # (docs/multi_account.rst, "Configure the account ID using a request header").
            session.events.register("before-sign", _account_header(account))
        config = Config(
            s3={"addressing_style": "path"},
            retries={"max_attempts": 2, "mode": "standard"},
            max_pool_connections=32,
        )
        for name in self.SERVICES:
            client = session.client(name, endpoint_url=endpoint_url, config=config)
            setattr(self, name.replace("lambda", "lambda_"), client)
        self._session, self._config = session, config
        self._more = {}
        self._more_lock = threading.Lock()
        self._account_id = None

    def service(self, name: str):
        """A client for a service outside SERVICES, created on first use (the
        per-service reader types: codebuild, docdb, dax, dms, ...), so the
        common clients stay the only ones every request thread pays for."""
        with self._more_lock:  # boto3 sessions are not thread-safe
            if name not in self._more:
                self._more[name] = self._session.client(name, endpoint_url=self.endpoint_url, config=self._config)
            return self._more[name]

    @property
    def account_id(self) -> str:
        """The emulated account id (asked once from STS)."""
        if self._account_id is None:
            self._account_id = self.sts.get_caller_identity()["Account"]
        return self._account_id


def caller_scope(authorization: str):
    """(access key id, region) from a SigV4 Authorization header, or None:
    ``... Credential=AKID/DATE/REGION/SERVICE/aws4_request, ...``."""
    for part in authorization.replace(",", " ").split():
        if part.startswith("Credential="):
            fields = part[len("Credential="):].split("/")
            if len(fields) == 5 and fields[0] and fields[2]:
                return fields[0], fields[2]
    return None


def _account_header(account: str):
    def add(request, **_):
        request.headers["x-moto-account-id"] = account

    return add
