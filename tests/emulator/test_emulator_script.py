"""scripts/emulator.sh contract: status, env and loopback-only endpoints."""

import os
import subprocess
from urllib.parse import urlparse

from conftest import ROOT

SCRIPT = os.path.join(ROOT, "scripts", "emulator.sh")


def test_status_and_env_describe_the_running_emulator(emulator):
    assert subprocess.run([SCRIPT, "status"], capture_output=True).returncode == 0
    env = subprocess.run([SCRIPT, "env"], check=True, capture_output=True, text=True).stdout
    for key in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_CLOUDCONTROL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        assert f"export {key}=" in env


def test_endpoints_are_loopback_only(emulator):
    for key in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_CLOUDCONTROL"):
        assert urlparse(emulator[key]).hostname == "127.0.0.1"


def test_start_is_idempotent(emulator):
    again = subprocess.run([SCRIPT, "start"], check=True, capture_output=True, text=True).stdout
    assert f"export AWS_ENDPOINT_URL={emulator['AWS_ENDPOINT_URL']}" in again


def test_unknown_command_is_a_usage_error():
    assert subprocess.run([SCRIPT, "frobnicate"], capture_output=True).returncode == 2
