#!/usr/bin/env python3
"""Create a stack in the running emulator from a CloudFormation template
(the committed fixture by default; JSON or YAML with short-form tags).

    deploy_fixture.py STACK_NAME [--template PATH] [--parameter KEY=VALUE ...]

moto runs with the patches for its CloudFormation gaps (moto_patches), so the
stack comes out as real CloudFormation would create it. Prints a JSON
summary: the stack's resources with physical ids, the gaps the patches
handled (``fixups``) and the emulator gaps left (``emulatorGaps``). Fails when
a resource is missing that no asserted gap explains. Needs AWS_ENDPOINT_URL
(see scripts/emulator.sh env)."""

import argparse
import json
import os
import sys
import time

import yaml
from botocore.exceptions import ClientError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cloudcontrol.aws import Aws  # noqa: E402
from moto_patches import gaps  # noqa: E402

DEFAULT_TEMPLATE = os.path.join(HERE, "..", "fixtures", "app", "RealdriftFixture.template.json")
CREATE_TIMEOUT_S = 60


class DeployError(Exception):
    """The stack could not be created as the template declares it."""


class _CfnLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short-form tags (!Ref, !GetAtt, !Sub ...)."""


def _short_form(loader, tag_suffix, node):
    name = "Ref" if tag_suffix == "Ref" else f"Fn::{tag_suffix}"
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        if tag_suffix == "GetAtt":
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return {name: value}


_CfnLoader.add_multi_constructor("!", _short_form)


def load_template(body: str) -> dict:
    """The template as a dict; JSON or YAML (short-form tags in their long form)."""
    try:
        return json.loads(body)
    except ValueError:
        pass
    try:
        template = yaml.load(body, Loader=_CfnLoader)  # noqa: S506 (SafeLoader subclass)
    except yaml.YAMLError as err:
        raise DeployError(f"template is neither JSON nor YAML: {err}") from err
    if not isinstance(template, dict) or not isinstance(template.get("Resources"), dict):
        raise DeployError("template has no Resources map")
    return template


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


def _handled(logical_id: str, rtype: str, props: dict) -> list:
    """The gaps the patched moto handled for one resource (from moto_patches.gaps)."""
    out = []
    if rtype in gaps.CREATED_TYPES:
        out.append({"logicalId": logical_id, "type": rtype, "gap": "not created by moto's CloudFormation",
                    "action": gaps.CREATED_TYPES[rtype]})
    if rtype in gaps.PHYSICAL_ID_FIXES:
        out.append({"logicalId": logical_id, "type": rtype, "gap": "no physical id from moto's CloudFormation",
                    "action": gaps.PHYSICAL_ID_FIXES[rtype]})
    if rtype in gaps.PHYSICAL_ID_SPELLINGS and props.get("EventBusName"):
        out.append({"logicalId": logical_id, "type": rtype, "gap": "another physical id from moto's CloudFormation",
                    "action": gaps.PHYSICAL_ID_SPELLINGS[rtype]})
    for prop in gaps.ignored_properties(rtype, props):
        out.append({"logicalId": logical_id, "type": rtype, "property": prop,
                    "gap": "ignored by moto's CloudFormation",
                    "action": "applied through the service API by the patched moto"})
    return out


def parse_parameters(pairs) -> list:
    """CreateStack Parameters from KEY=VALUE strings."""
    out = []
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise DeployError(f"--parameter {pair!r}: expected KEY=VALUE")
        out.append({"ParameterKey": key, "ParameterValue": value})
    return out


def deploy(stack_name: str, template_path: str = DEFAULT_TEMPLATE, endpoint_url: str = None,
           parameters=None) -> dict:
    """Create the stack and return the summary. ``parameters``: KEY=VALUE strings."""
    started = time.monotonic()
    # REALDRIFT_EMULATOR_ACCOUNT: create the stack in another moto account.
    aws = Aws(
        endpoint_url or os.environ["AWS_ENDPOINT_URL"],
        os.environ.get("AWS_REGION", "us-east-1"),
        account=os.environ.get("REALDRIFT_EMULATOR_ACCOUNT"),
    )
    cfn = aws.cloudformation
    with open(template_path, encoding="utf-8") as f:
        body = f.read()
    template = load_template(body)
    try:
        cfn.create_stack(
            StackName=stack_name,
            TemplateBody=body,
            Parameters=parse_parameters(parameters),
            Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"],
        )
        stack = _wait_created(cfn, stack_name)
        rows = cfn.list_stack_resources(StackName=stack_name)["StackResourceSummaries"]
    except ClientError as err:
        raise DeployError(f"stack {stack_name}: {err}") from err
    physical = {r["LogicalResourceId"]: r.get("PhysicalResourceId") for r in rows if r.get("LogicalResourceId")}

    fixups, emulator_gaps = [], []
    for logical_id, res in template["Resources"].items():
        rtype = res["Type"]
        if physical.get(logical_id):
            fixups += _handled(logical_id, rtype, res.get("Properties") or {})
        elif rtype in gaps.ASSERTED_GAPS:
            emulator_gaps.append({"logicalId": logical_id, "type": rtype, "gap": gaps.ASSERTED_GAPS[rtype]})
        elif "Condition" not in res:
            raise DeployError(
                f"{logical_id} ({rtype}) was not created and no asserted gap explains it "
                "(is moto running with moto_patches? start it with scripts/emulator.sh)"
            )

    return {
        "stackName": stack_name,
        "stackId": stack["StackId"],
        "resources": [
            {"logicalId": lid, "type": res["Type"], "physicalId": physical.get(lid)}
            for lid, res in template["Resources"].items()
        ],
        "fixups": fixups,
        "emulatorGaps": emulator_gaps,
        "seconds": round(time.monotonic() - started, 2),
    }


def main() -> int:
    """CLI entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stack_name")
    parser.add_argument("--template", default=DEFAULT_TEMPLATE)
    parser.add_argument("--parameter", action="append", default=[], metavar="KEY=VALUE",
                        help="a stack parameter (repeatable)")
    args = parser.parse_args()
    if "AWS_ENDPOINT_URL" not in os.environ:
        print("AWS_ENDPOINT_URL is not set: eval \"$(scripts/emulator.sh env)\" first", file=sys.stderr)
        return 2
    try:
        summary = deploy(args.stack_name, args.template, parameters=args.parameter)
    except (DeployError, OSError) as err:
        print(f"deploy_fixture: {err}", file=sys.stderr)
        return 1
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
