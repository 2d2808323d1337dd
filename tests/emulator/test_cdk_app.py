"""The CDK fixture app: its committed template is current, and the real CDK
CLI (bootstrap + deploy) deploys it into the emulator. Needs npm and takes
about a minute, so it runs when REALDRIFT_CDK_TESTS=1 (run.sh sets it)."""

import json
import os
import shutil
import subprocess
import uuid

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(
    os.environ.get("REALDRIFT_CDK_TESTS") != "1" or shutil.which("npx") is None,
    reason="CDK tests run with REALDRIFT_CDK_TESTS=1 and npm installed",
)
APP = os.path.join(ROOT, "tests", "fixtures", "app")


def test_committed_template_is_current():
    result = subprocess.run([os.path.join(APP, "check-template.sh")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_cdk_bootstrap_and_deploy_into_the_emulator(emulator, aws, cc):
    stack = f"RealdriftCdk{uuid.uuid4().hex[:6]}"
    script = os.path.join(ROOT, "tests", "emulator", "deploy_with_cdk.sh")
    result = subprocess.run([script, stack], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
    timings = json.loads(result.stdout.strip().splitlines()[-1])
    print("cdk timings:", timings)
    status = aws.cloudformation.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"]
    assert status == "CREATE_COMPLETE"
    rows = aws.cloudformation.list_stack_resources(StackName=stack)["StackResourceSummaries"]
    # The patched moto creates every resource, with its declared properties.
    assert len(rows) == 13 and all(r.get("LogicalResourceId") and r.get("PhysicalResourceId") for r in rows), rows
    bucket = next(r["PhysicalResourceId"] for r in rows if r["ResourceType"] == "AWS::S3::Bucket")
    assert aws.s3.get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
    fn = [r["PhysicalResourceId"] for r in rows if r.get("ResourceType") == "AWS::Lambda::Function"]
    assert len(fn) == 1
    props = json.loads(cc.get_resource(TypeName="AWS::Lambda::Function", Identifier=fn[0])["ResourceDescription"]["Properties"])
    assert props["Runtime"] == "nodejs22.x" and props["MemorySize"] == 256
    assert aws.cloudformation.describe_stacks(StackName="CDKToolkit")["Stacks"][0]["StackStatus"] == "CREATE_COMPLETE"
