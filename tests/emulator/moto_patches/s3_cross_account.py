"""S3 requests from another account are judged by the bucket's policy (moto
5.1.22 gap, docs/emulator.md): moto serves any account's request on any
bucket whatever its policy, so a member of an Organization could read
every account's baselines in the hub's bucket.

As AWS does for a cross-account request (IAM User Guide, "Cross-account
policy evaluation logic":
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic-cross-account.html),
a request whose account (moto's: from the access key, an assumed role's
key or the x-moto-account-id header) is not the bucket owner's is allowed
only when the bucket policy allows it and no statement denies it
(bucket_policy.decide: principals, Action/Resource wildcards, policy
variables, StringEquals / StringLike / Bool conditions; anything else fails
closed). The request context: aws:PrincipalAccount, aws:PrincipalOrgID
(moto's Organizations; absent outside one), aws:SecureTransport true (AWS
clients reach S3 over TLS; service_apis.py assumes the same).
Simplification: the caller's identity-based policies are not evaluated
(moto enforces none by default); they count as allowing.

A GetObject/HeadObject of a missing key the policy allows answers 403, not
404, unless the policy also allows s3:ListBucket (Amazon S3 API Reference,
GetObject, "Permissions":
https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html).

Same-account requests keep moto's behaviour; CreateBucket of a taken name
keeps moto's answer (BucketAlreadyExists)."""

from moto.s3 import responses as s3_responses
from moto.s3.exceptions import S3AccessDeniedError
from moto.s3.models import s3_backends

from .bucket_policy import decide
from .events_org import org_id

# Actions a bucket's policy does not govern (AWS answers them by other rules).
_NOT_GOVERNED = {"CreateBucket"}


def _context(account: str, partition: str) -> dict:
    return {
        "aws:principalaccount": account,
        "aws:principalorgid": org_id(account, partition),
        "aws:securetransport": "true",
    }


def _verdict(bucket, action: str, resource: str, account: str) -> str:
    policy = bucket.policy.decode() if bucket.policy else ""
    return decide(policy, f"s3:{action}", resource, _context(account, bucket.partition))


def check(response, bucket_name, key_name) -> None:
    """Raise AccessDenied when another account's request is not allowed by the bucket policy."""
    owner = s3_backends.bucket_accounts.get(bucket_name or "")
    action = response.data.get("Action")
    if owner is None or owner[1] == response.current_account or action in _NOT_GOVERNED:
        return
    partition, account = owner
    bucket = s3_backends[account][partition].get_bucket(bucket_name)
    arn = f"arn:{partition}:s3:::{bucket_name}" + (f"/{key_name}" if key_name else "")
    if not action or _verdict(bucket, action, arn, response.current_account) != "allow":
        raise S3AccessDeniedError()
    if action == "GetObject" and key_name and key_name not in bucket.keys:
        if _verdict(bucket, "ListBucket", f"arn:{partition}:s3:::{bucket_name}", response.current_account) != "allow":
            raise S3AccessDeniedError()


def install() -> None:
    """Hook the bucket policy check into every S3 action moto authorizes."""
    original = s3_responses.S3Response._authenticate_and_authorize_s3_action

    def authorize(self, bucket_name=None, key_name=None):
        original(self, bucket_name=bucket_name, key_name=key_name)
        check(self, bucket_name, key_name)

    s3_responses.S3Response._authenticate_and_authorize_s3_action = authorize
