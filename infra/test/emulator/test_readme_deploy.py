"""The README's deploy section works as written (readme_deploy.py runs it,
command by command, into the emulator; what differs from a reader's run is
listed there and printed). A README command that no longer works fails
here, naming it: fix the README, not the test.
"""

import shlex

import boto3

from readme_deploy import HOME_REGION, README, REPLACED, STACK, readme_commands


def test_readme_marks_its_deploy_commands():
    commands = readme_commands(open(README, encoding="utf-8").read())
    programs = [shlex.split(c, comments=True)[:3] for c in commands]
    assert ["npx", "cdk", "deploy"] in programs, f"the README's deploy section has no `npx cdk deploy`: {commands}"
    # Every replaced command is still in the README (a stale entry would hide a drift).
    assert set(REPLACED) <= {p[0] for p in programs}


def stack_status(name, region):
    return boto3.client("cloudformation", region_name=region).describe_stacks(StackName=name)["Stacks"][0]["StackStatus"]


def test_readme_deploy_creates_both_stacks(readme_deploy):
    assert stack_status(STACK, HOME_REGION) == "CREATE_COMPLETE"
    # Home region outside us-east-1: --all also deployed the forwarder there.
    assert stack_status(f"{STACK}GlobalEvents", "us-east-1") == "CREATE_COMPLETE"


def test_readme_deploy_applies_its_context(readme_deploy):
    cf = boto3.client("cloudformation", region_name=HOME_REGION)
    rows = cf.list_stack_resources(StackName=STACK)["StackResourceSummaries"]
    ids = lambda t: [r["PhysicalResourceId"] for r in rows if r.get("ResourceType") == t]  # noqa: E731
    lam = boto3.client("lambda", region_name=HOME_REGION)
    ours = [lam.get_function(FunctionName=n)["Configuration"] for n in ids("AWS::Lambda::Function")]
    ours = [c for c in ours if c["Runtime"] == "provided.al2023"]
    assert len(ours) == 3
    for config in ours:
        assert config["Architectures"] == ["x86_64"]
        variables = config["Environment"]["Variables"]
        assert variables["REALDRIFT_STACKS"] == "Prod*,Payments"
    events = boto3.client("events", region_name=HOME_REGION)
    schedules = [events.describe_rule(Name=r).get("ScheduleExpression") for r in ids("AWS::Events::Rule")]
    assert [s for s in schedules if s] == ["rate(30 minutes)"]
