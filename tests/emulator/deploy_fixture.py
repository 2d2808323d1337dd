#!/usr/bin/env python3
"""Create a stack from the committed fixture template in the running emulator,
then apply the harness fix-ups for moto's CloudFormation gaps (moto_gaps.py).

    deploy_fixture.py STACK_NAME [--template PATH]

Prints a JSON summary: the stack's resources with physical ids, every fix-up
applied and every emulator gap left. Needs AWS_ENDPOINT_URL (see
scripts/emulator.sh env)."""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cloudcontrol.aws import Aws  # noqa: E402
from intrinsics import Resolver  # noqa: E402
import moto_gaps  # noqa: E402

DEFAULT_TEMPLATE = os.path.join(HERE, "..", "fixtures", "app", "RealdriftFixture.template.json")
CREATE_TIMEOUT_S = 60


class DeployError(Exception):
    """The stack could not be created as the template declares it."""


def _wait_created(cfn, stack_name: str) -> dict:
    deadline = time.monotonic() + CREATE_TIMEOUT_S
    while True:
        stack = cfn.describe_stacks(StackName=stack_name)["Stacks"][0]
        status = stack["StackStatus"]
        if status == "CREATE_COMPLETE":
            return stack
        if not status.endswith("IN_PROGRESS") or time.monotonic() > deadline:
            raise DeployError(f"stack {stack_name} ended in {status}")
        time.sleep(0.2)


def deploy(stack_name: str, template_path: str = DEFAULT_TEMPLATE, endpoint_url: str = None) -> dict:
    """Create the stack, apply fix-ups, return the summary."""
    started = time.monotonic()
    aws = Aws(endpoint_url or os.environ["AWS_ENDPOINT_URL"], os.environ.get("AWS_REGION", "us-east-1"))
    cfn = aws.cloudformation
    with open(template_path, encoding="utf-8") as f:
        body = f.read()
    template = json.loads(body)
    cfn.create_stack(
        StackName=stack_name,
        TemplateBody=body,
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"],
    )
    stack = _wait_created(cfn, stack_name)
    rows = cfn.list_stack_resources(StackName=stack_name)["StackResourceSummaries"]
    physical = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in rows if r.get("LogicalResourceId")}
    resolver = Resolver(aws, stack_name, stack["StackId"], template, physical)

    fixups, gaps = [], []
    for logical_id, res in template["Resources"].items():
        rtype = res["Type"]
        props = res.get("Properties", {})
        if rtype in moto_gaps.CREATE_FIXUPS:
            if physical.get(logical_id):
                continue  # a later moto created it after all: nothing to fix
            physical[logical_id] = moto_gaps.CREATE_FIXUPS[rtype](aws, resolver.resolve(props))
            fixups.append({"logicalId": logical_id, "type": rtype, "gap": "not created by moto", "action": "created through the service API"})
            continue
        if rtype in moto_gaps.ASSERTED_GAPS and not physical.get(logical_id):
            gaps.append({"logicalId": logical_id, "type": rtype, "gap": moto_gaps.ASSERTED_GAPS[rtype]})
            continue
        for prop in moto_gaps.ignored_properties(rtype, props):
            apply = moto_gaps.property_fixup(rtype, prop)
            if apply is None:
                raise DeployError(f"{logical_id} ({rtype}): moto ignores {prop} and the harness has no fix-up")
            apply(aws, physical[logical_id], resolver.resolve(props[prop]))
            fixups.append({"logicalId": logical_id, "type": rtype, "property": prop, "gap": "ignored by moto's CloudFormation", "action": "applied through the service API"})

    return {
        "stackName": stack_name,
        "stackId": stack["StackId"],
        "resources": [
            {"logicalId": lid, "type": res["Type"], "physicalId": physical.get(lid)}
            for lid, res in template["Resources"].items()
        ],
        "fixups": fixups,
        "emulatorGaps": gaps,
        "seconds": round(time.monotonic() - started, 2),
    }


def main() -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stack_name")
    parser.add_argument("--template", default=DEFAULT_TEMPLATE)
    args = parser.parse_args()
    if "AWS_ENDPOINT_URL" not in os.environ:
        print("AWS_ENDPOINT_URL is not set: eval \"$(scripts/emulator.sh env)\" first", file=sys.stderr)
        return 2
    try:
        summary = deploy(args.stack_name, args.template)
    except DeployError as err:
        print(f"deploy_fixture: {err}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
