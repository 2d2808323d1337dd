"""Shared by the emulator deploy tests: the README's deploy, run once."""

import os
import platform

import pytest

from readme_deploy import deploy_readme


@pytest.fixture(scope="session")
def readme_deploy(tmp_path_factory):
    """The app as the README deploys it, into the emulator infra/run-tests.sh started."""
    if os.environ.get("REALDRIFT_SKIP_INFRA_DEPLOY") == "1":
        pytest.skip("REALDRIFT_SKIP_INFRA_DEPLOY=1: the infra emulator deploy was skipped on request")
    assert os.environ.get("AWS_ENDPOINT_URL"), "run through infra/run-tests.sh (it starts the emulator)"
    if platform.machine().lower() not in ("x86_64", "amd64"):
        pytest.skip("the README's build is x86_64 and the test zips the host's binaries in its place")
    return deploy_readme(tmp_path_factory.mktemp("readme"))
