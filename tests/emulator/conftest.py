"""pytest fixtures: a running emulator (started here if none is), clients."""

import os
import subprocess
import sys
import urllib.request

import boto3
import pytest
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from cloudcontrol.aws import Aws  # noqa: E402


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def _parse_exports(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        if line.startswith("export ") and "=" in line:
            key, value = line[len("export ") :].split("=", 1)
            out[key] = value
    return out


@pytest.fixture(scope="session")
def emulator():
    """The emulator's env vars; starts it (and stops it after) when none runs."""
    cc = os.environ.get("AWS_ENDPOINT_URL_CLOUDCONTROL")
    if cc and _answers(cc + "/health"):
        yield {k: os.environ[k] for k in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_CLOUDCONTROL")}
        return
    script = os.path.join(ROOT, "scripts", "emulator.sh")
    was_running = subprocess.run([script, "status"], capture_output=True).returncode == 0
    out = subprocess.run([script, "start"], check=True, capture_output=True, text=True).stdout
    env = _parse_exports(out)
    os.environ.update(env)
    yield env
    if not was_running:
        subprocess.run([script, "stop"], check=True, capture_output=True)


@pytest.fixture(scope="session")
def aws(emulator):
    """boto3 clients on moto (path-style S3)."""
    return Aws(emulator["AWS_ENDPOINT_URL"])


@pytest.fixture(scope="session")
def cc(emulator):
    """A boto3 Cloud Control client on our endpoint: the real wire protocol."""
    return boto3.client(
        "cloudcontrol",
        endpoint_url=emulator["AWS_ENDPOINT_URL_CLOUDCONTROL"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"max_attempts": 1}),
    )
