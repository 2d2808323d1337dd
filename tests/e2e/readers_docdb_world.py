#!/usr/bin/env python3
"""What tests/fixtures/templates/readers-docdb.yaml attaches to, made in the
running emulator (needs AWS_ENDPOINT_URL):

    readers_docdb_world.py setup   -> JSON: the stack parameters (KEY=VALUE
                                      strings) under "parameters"
    readers_docdb_world.py read CLUSTER INSTANCE
                                   -> JSON: the cluster and the instance as
                                      DocumentDB itself answers them (to
                                      judge a revert)

A VPC with a security group for the cluster; the master password is a
fresh random one, known only to this run."""

import json
import os
import secrets
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import Aws  # noqa: E402


def setup(aws) -> dict:
    """Creates what the template is given; returns its parameters."""
    vpc = aws.ec2.create_vpc(CidrBlock="10.1.0.0/16")["Vpc"]["VpcId"]
    group = aws.ec2.create_security_group(GroupName="docs-db", Description="DocumentDB clients", VpcId=vpc)["GroupId"]
    password = secrets.token_urlsafe(18)
    return {"parameters": [f"MasterPassword={password}", f"SecurityGroupId={group}"], "password": password}


def read(aws, cluster: str, instance: str) -> dict:
    """The cluster and the instance, as DocumentDB answers them."""
    docdb = aws.service("docdb")
    (c,) = docdb.describe_db_clusters(DBClusterIdentifier=cluster)["DBClusters"]
    (i,) = docdb.describe_db_instances(DBInstanceIdentifier=instance)["DBInstances"]
    return {"cluster": c, "instance": i}


def main() -> int:
    """CLI entry point."""
    args = sys.argv[1:]
    if args != ["setup"] and not (len(args) == 3 and args[0] == "read"):
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    print(json.dumps(setup(aws) if args == ["setup"] else read(aws, *args[1:]), default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
