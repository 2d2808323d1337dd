"""The bucket policy verdict moto_patches/s3_cross_account.py applies to
cross-account S3 requests: what it evaluates as AWS documents, and that
everything else fails closed (an Allow it cannot evaluate grants nothing, a
Deny it cannot evaluate denies). No emulator needed."""

import json

from moto_patches.bucket_policy import decide

BUCKET = "arn:aws:s3:::hub"
MEMBER, ORG = "111111111111", "o-a1b2c3d4e5"
CONTEXT = {"aws:principalaccount": MEMBER, "aws:principalorgid": ORG, "aws:securetransport": "true"}


def policy(*statements):
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def allow(resource, action="s3:GetObject", condition=None, principal=None):
    st = {"Effect": "Allow", "Principal": principal or {"AWS": "*"}, "Action": action, "Resource": resource}
    if condition:
        st["Condition"] = condition
    return st


OWN = allow(f"{BUCKET}/baselines/*.${{aws:PrincipalAccount}}.*", condition={"StringEquals": {"aws:PrincipalOrgID": ORG}})


def test_policy_variable_and_org_condition_select_the_callers_own_files():
    assert decide(policy(OWN), "s3:GetObject", f"{BUCKET}/baselines/App.{MEMBER}.us-east-1.json", CONTEXT) == "allow"
    assert decide(policy(OWN), "s3:GetObject", f"{BUCKET}/baselines/App.222222222222.us-east-1.json", CONTEXT) == "deny"
    assert decide(policy(OWN), "s3:PutObject", f"{BUCKET}/baselines/App.{MEMBER}.us-east-1.json", CONTEXT) == "deny"
    outside = {**CONTEXT, "aws:principalorgid": None}
    assert decide(policy(OWN), "s3:GetObject", f"{BUCKET}/baselines/App.{MEMBER}.us-east-1.json", outside) == "deny"


def test_no_policy_or_no_allow_is_an_implicit_deny():
    assert decide("", "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"
    assert decide(policy(allow(f"{BUCKET}/other")), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"


def test_a_deny_wins_and_the_tls_deny_does_not_apply():
    deny_all = {"Effect": "Deny", "Principal": {"AWS": "*"}, "Action": "s3:*", "Resource": f"{BUCKET}/*"}
    assert decide(policy(OWN, deny_all), "s3:GetObject", f"{BUCKET}/baselines/App.{MEMBER}.x.json", CONTEXT) == "deny"
    tls = {**deny_all, "Condition": {"Bool": {"aws:SecureTransport": "false"}}}
    assert decide(policy(OWN, tls), "s3:GetObject", f"{BUCKET}/baselines/App.{MEMBER}.x.json", CONTEXT) == "allow"


def test_actions_match_case_insensitively_with_wildcards_and_string_like_conditions():
    st = allow(f"{BUCKET}/*", action="S3:Get*", condition={"StringLike": {"aws:PrincipalOrgID": "o-a1*"}})
    assert decide(policy(st), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "allow"
    st = allow(f"{BUCKET}/*", condition={"StringNotEquals": {"aws:PrincipalAccount": MEMBER}})
    assert decide(policy(st), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"


def test_principals_by_account_root_or_id_and_not_other_accounts():
    for p in ({"AWS": MEMBER}, {"AWS": f"arn:aws:iam::{MEMBER}:root"}, "*"):
        assert decide(policy(allow(f"{BUCKET}/*", principal=p)), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "allow", p
    other_role = {"AWS": "arn:aws:iam::222222222222:role/R"}
    assert decide(policy(allow(f"{BUCKET}/*", principal=other_role)), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"
    deny_other = {"Effect": "Deny", "Principal": other_role, "Action": "s3:*", "Resource": f"{BUCKET}/*"}
    assert decide(policy(allow(f"{BUCKET}/*"), deny_other), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "allow"


def test_what_is_not_evaluated_fails_closed():
    unknowns = [
        {"StringEqualsIfExists": {"aws:PrincipalOrgID": ORG}},
        {"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}},
        {"StringEquals": {"aws:SourceVpc": "vpc-1"}},
    ]
    for condition in unknowns:
        st = allow(f"{BUCKET}/*", condition=condition)
        assert decide(policy(st), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny", condition
        deny = {**st, "Effect": "Deny"}
        assert decide(policy(allow(f"{BUCKET}/*"), deny), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny", condition
    own_role = {"AWS": f"arn:aws:iam::{MEMBER}:role/R"}
    assert decide(policy(allow(f"{BUCKET}/*", principal=own_role)), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"
    not_principal = {"Effect": "Allow", "NotPrincipal": {"AWS": "x"}, "Action": "s3:*", "Resource": "*"}
    assert decide(policy(not_principal), "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"
    variable = allow(f"{BUCKET}/${{aws:username}}/*")
    assert decide(policy(variable), "s3:GetObject", f"{BUCKET}/x/k", CONTEXT) == "deny"
    assert decide("not json", "s3:GetObject", f"{BUCKET}/k", CONTEXT) == "deny"
