#!/usr/bin/env python3
"""An AWS Organization in the emulator for `check --org` (tests/e2e/accounts.rs).

    organization.py

In moto's default account (the management account): an Organization, an OU
`Workloads` under the root, an OU `Prod` under `Workloads`, one account
created and moved into `Prod`, one left at the root. moto gives each created
account the role OrganizationAccountAccessRole, trusted by the management
account, as Organizations does. Prints
{"root": ..., "workloads": ..., "nested": ..., "outside": ...} (ids).
Needs AWS_ENDPOINT_URL."""

import json
import os
import sys

import boto3


def create_account(org, name):
    status = org.create_account(Email=f"{name}@example.invalid", AccountName=name)
    return status["CreateAccountStatus"]["AccountId"]


def main() -> int:
    if "AWS_ENDPOINT_URL" not in os.environ:
        print(__doc__, file=sys.stderr)
        return 2
    org = boto3.client(
        "organizations",
        endpoint_url=os.environ["AWS_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    org.create_organization(FeatureSet="ALL")
    root = org.list_roots()["Roots"][0]["Id"]
    workloads = org.create_organizational_unit(ParentId=root, Name="Workloads")["OrganizationalUnit"]["Id"]
    prod = org.create_organizational_unit(ParentId=workloads, Name="Prod")["OrganizationalUnit"]["Id"]
    nested = create_account(org, "nested")
    org.move_account(AccountId=nested, SourceParentId=root, DestinationParentId=prod)
    outside = create_account(org, "outside")
    print(json.dumps({"root": root, "workloads": workloads, "nested": nested, "outside": outside}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
