#!/usr/bin/env python3
"""The hub's bucket with the policy the infra app synthesizes, read from
member accounts of an Organization in the emulator (tests/e2e/org_baselines.rs;
needs AWS_ENDPOINT_URL):

    org_baselines.py setup             -> JSON: organization id, hub bucket, and for member
                                          accounts "a" and "b" and an account outside the
                                          Organization "outsider": account id and
                                          assumed-role credentials
    org_baselines.py put KEY FILE      -> puts FILE at KEY in the hub bucket, as the hub
    org_baselines.py probe SETUP_JSON  -> JSON: name -> outcome of each direct S3 request
                                          ("ok", the error code, or the listed keys), then
                                          what the hub reads back after the members' writes

The policy is tests/fixtures/org/hub-bucket-policy.json, which
infra/test/organization.test.ts asserts is the synthesized one; only the
bucket's ARN and the Organization id are put in (moto's own)."""

import json
import os
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import _account_header  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "org", "hub-bucket-policy.json")
REGION = "us-east-1"
HUB_BUCKET = "realdrift-hub"
ROLE = "RealdriftMember"
OUTSIDER = "999999999999"
STACK = "OrgApp"


def client(service, account=None, creds=None):
    session = boto3.session.Session(region_name=REGION, **({
        "aws_access_key_id": creds["accessKeyId"], "aws_secret_access_key": creds["secretAccessKey"],
        "aws_session_token": creds["sessionToken"]} if creds else {}))
    if account:
        session.events.register("before-sign", _account_header(account))
    return session.client(service, endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                          config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def resolve(value, bucket_logical_id, bucket, org_from, org_to):
    """The synthesized policy with the bucket's Ref/GetAtt Arn/Join resolved
    and the synth test's Organization id replaced; any other intrinsic fails."""
    if isinstance(value, list):
        return [resolve(v, bucket_logical_id, bucket, org_from, org_to) for v in value]
    if isinstance(value, str):
        return org_to if value == org_from else value
    if not isinstance(value, dict):
        return value
    if value == {"Ref": bucket_logical_id}:
        return bucket
    if value == {"Fn::GetAtt": [bucket_logical_id, "Arn"]}:
        return f"arn:aws:s3:::{bucket}"
    if value == {"Ref": "AWS::Partition"}:
        return "aws"
    if set(value) == {"Fn::Join"}:
        sep, parts = value["Fn::Join"]
        return sep.join(resolve(p, bucket_logical_id, bucket, org_from, org_to) for p in parts)
    if any(k.startswith("Fn::") or k == "Ref" for k in value):
        raise SystemExit(f"unresolved intrinsic in the synthesized policy: {value}")
    return {k: resolve(v, bucket_logical_id, bucket, org_from, org_to) for k, v in value.items()}


def hub_policy(org_id, bucket=HUB_BUCKET):
    """The synthesized hub bucket policy for `bucket` in Organization `org_id`."""
    with open(FIXTURE) as f:
        fixture = json.load(f)
    logical = fixture["Bucket"]["Ref"]
    return resolve(fixture["PolicyDocument"], logical, bucket, fixture["organizationId"], org_id)


def new_account(org, name):
    status = org.create_account(Email=f"{name}@example.invalid", AccountName=name)["CreateAccountStatus"]
    return org.describe_create_account_status(CreateAccountRequestId=status["Id"])["CreateAccountStatus"]["AccountId"]


def credentials_in(account):
    """Assumed-role credentials in `account` (a role trusted by the management account)."""
    me = client("sts").get_caller_identity()["Account"]
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
             "Principal": {"AWS": f"arn:aws:iam::{me}:root"}}]}
    arn = client("iam", account).create_role(RoleName=ROLE, AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
    c = client("sts").assume_role(RoleArn=arn, RoleSessionName="realdrift")["Credentials"]
    return {"account": account, "accessKeyId": c["AccessKeyId"], "secretAccessKey": c["SecretAccessKey"],
            "sessionToken": c["SessionToken"]}


def put(key, body):
    client("s3").put_object(Bucket=HUB_BUCKET, Key=key, Body=body)


def setup():
    org = client("organizations")
    org_id = org.create_organization(FeatureSet="ALL")["Organization"]["Id"]
    a, b = new_account(org, "member-a"), new_account(org, "member-b")
    s3 = client("s3")
    s3.create_bucket(Bucket=HUB_BUCKET)
    s3.put_bucket_policy(Bucket=HUB_BUCKET, Policy=json.dumps(hub_policy(org_id)))
    for account in (b, OUTSIDER):
        put(f"baselines/{STACK}.{account}.{REGION}.json", b'{"placeholder": true}')
    put("baselines/ignore.yaml", b"ignore: []\n")
    put(f"org/{b}/{REGION}/{STACK}.json", b'{"owner": "b"}')
    return {"organizationId": org_id, "hubBucket": HUB_BUCKET,
            "a": credentials_in(a), "b": credentials_in(b), "outsider": credentials_in(OUTSIDER)}


def outcome(call):
    try:
        out = call()
    except ClientError as e:
        return e.response["Error"]["Code"]
    if isinstance(out, dict) and "Contents" in out:
        return sorted(o["Key"] for o in out["Contents"])
    return "ok"


def probe(world):
    a, b, out = world["a"], world["b"], world["outsider"]
    sa, sb, so, hub = client("s3", creds=a), client("s3", creds=b), client("s3", creds=out), client("s3")
    A, B, O = a["account"], b["account"], out["account"]

    def get(s3, key):
        return outcome(lambda: s3.get_object(Bucket=HUB_BUCKET, Key=key)["Body"].read())

    def write(s3, key):
        return outcome(lambda: s3.put_object(Bucket=HUB_BUCKET, Key=key, Body=b'{"owner": "a"}'))

    def delete(s3, key):
        return outcome(lambda: s3.delete_object(Bucket=HUB_BUCKET, Key=key))

    base = f"baselines/{STACK}.%s.{REGION}.json"
    result = {
        "a reads its own baseline": get(sa, base % A),
        "a reads the ignore file": get(sa, "baselines/ignore.yaml"),
        "a reads b's baseline": get(sa, base % B),
        "a heads b's baseline": outcome(lambda: sa.head_object(Bucket=HUB_BUCKET, Key=base % B)),
        "a reads a missing baseline of its own": get(sa, f"baselines/Other.{A}.{REGION}.json"),
        "a reads a missing baseline of b": get(sa, f"baselines/Other.{B}.{REGION}.json"),
        "a lists baselines/": outcome(lambda: sa.list_objects_v2(Bucket=HUB_BUCKET, Prefix="baselines/")),
        "a writes its own baseline": write(sa, base % A),
        "a reads the bucket policy": outcome(lambda: sa.get_bucket_policy(Bucket=HUB_BUCKET)),
        "b reads its own baseline": get(sb, base % B),
        "b reads a's baseline": get(sb, base % A),
        "a writes its own status": write(sa, f"org/{A}/{REGION}/{STACK}.json"),
        "a reads its own status": get(sa, f"org/{A}/{REGION}/{STACK}.json"),
        "a writes b's status": write(sa, f"org/{B}/{REGION}/{STACK}.json"),
        "a reads b's status": get(sa, f"org/{B}/{REGION}/{STACK}.json"),
        "a deletes b's status": delete(sa, f"org/{B}/{REGION}/{STACK}.json"),
        "outsider reads the baseline named for it": get(so, base % O),
        "outsider lists the bucket": outcome(lambda: so.list_objects_v2(Bucket=HUB_BUCKET)),
        "outsider writes its status": write(so, f"org/{O}/{REGION}/{STACK}.json"),
        "hub reads b's baseline": get(hub, base % B),
    }
    # Judged by reading the emulator directly, as the hub: what the members' writes left.
    result["hub sees b's status"] = hub.get_object(Bucket=HUB_BUCKET, Key=f"org/{B}/{REGION}/{STACK}.json")["Body"].read().decode()
    result["hub sees a's status"] = hub.get_object(Bucket=HUB_BUCKET, Key=f"org/{A}/{REGION}/{STACK}.json")["Body"].read().decode()
    result["a deletes its own status"] = delete(sa, f"org/{A}/{REGION}/{STACK}.json")
    result["hub lists org/"] = outcome(lambda: hub.list_objects_v2(Bucket=HUB_BUCKET, Prefix="org/"))
    return result


def main(argv):
    verb = argv[1] if len(argv) > 1 else ""
    if verb == "setup":
        print(json.dumps(setup()))
    elif verb == "put":
        with open(argv[3], "rb") as f:
            put(argv[2], f.read())
        print("{}")
    elif verb == "probe":
        print(json.dumps(probe(json.loads(argv[2]))))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
