"""The README's deploy section works as written: its commands, extracted from
README.md between the `readme-deploy:begin` / `readme-deploy:end` markers,
run one by one in a shell whose environment points the AWS CLI, the CDK CLI
and the SDKs at the private emulator instance, up to and including
`cdk deploy`; then the deployed stacks are read back from the emulator.

What differs from a user's run is listed here and printed when it runs:
- PLACEHOLDERS: words the README asks the reader to replace.
- REPLACED: commands that cannot run here as written, each with its reason
  and what runs instead. Keep this list tiny.
- PRECONDITIONS: what the README says must already exist in the account.
- Each command runs in a terminal (a pseudo-terminal), as the reader's does:
  `cdk deploy` asks before security-sensitive changes (IAM, policies) and
  refuses without a terminal; every `(y/n)` prompt is answered `y` and the
  count is printed.

The deploy runs once per session (conftest.py's `readme_deploy` fixture):
test_readme_deploy.py checks it, and test_deploy.py checks the same stack.
"""

import json
import os
import pty
import re
import shlex
import subprocess
import time

import boto3

INFRA = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROOT = os.path.dirname(INFRA)
README = os.path.join(ROOT, "README.md")
BEGIN, END = "<!-- readme-deploy:begin", "<!-- readme-deploy:end -->"

# The reader's home region in the README (it bootstraps eu-west-1 and
# us-east-1 and deploys with --all, so the forwarder stack is deployed too).
HOME_REGION = "eu-west-1"
# The stack cdk.json names (the README sets no stackName).
STACK = "Realdrift"

PLACEHOLDERS = {"ACCOUNT": "the account the emulator answers for (STS GetCallerIdentity)"}

REPLACED = {
    "scripts/build-functions.sh": (
        "the release cargo-lambda build takes about 20 minutes on 2 cores; the emulator stores the code and never "
        "runs it, so the binaries `cargo test --workspace` built are zipped instead, into the same place "
        "(${CARGO_TARGET_DIR}/lambda/x86_64, where the README's deploy looks by default)",
        "scripts/build-functions.sh --test-build --lambda-dir \"$CARGO_TARGET_DIR/lambda/x86_64\"",
    ),
}



def readme_commands(text):
    """The shell commands of the marked section, continuation lines joined, in order."""
    start, end = text.find(BEGIN), text.find(END)
    assert 0 <= start < end, f"README.md lacks the {BEGIN} ... {END} markers around its deploy commands"
    blocks = re.findall(r"```(?:sh|bash)\n(.*?)```", text[start:end], flags=re.S)
    assert blocks, "no ```sh block between the README's deploy markers"
    commands, pending = [], ""
    for line in "\n".join(blocks).splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line + "\n"
        if not line.rstrip().endswith("\\"):
            commands.append(pending.rstrip("\n"))
            pending = ""
    assert not pending, f"the README's last command ends with a continuation: {pending!r}"
    return commands


def substitute(command, account):
    """The command as this test runs it, and what was changed (printed)."""
    program = shlex.split(command, comments=True)[0]
    if program in REPLACED:
        reason, instead = REPLACED[program]
        return instead, f"REPLACED `{command}` by `{instead}`: {reason}"
    words = [w for w in PLACEHOLDERS if re.search(rf"\b{w}\b", command)]
    for word in words:
        command = re.sub(rf"\b{word}\b", account, command)
    note = f"placeholders {', '.join(words)} -> {account}" if words else ""
    return command, note


def in_terminal(script, cwd, env):
    """Runs a bash script on a pseudo-terminal, answering `y` to each (y/n) prompt: (exit code, output, answers)."""
    master, child = pty.openpty()
    proc = subprocess.Popen(
        ["bash", "-eo", "pipefail", "-c", script], cwd=cwd, env=dict(env, TERM="dumb"),
        stdin=child, stdout=child, stderr=child, start_new_session=True,
    )
    os.close(child)
    out, answered = bytearray(), 0
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every process holding the terminal has exited
            break
        if not chunk:
            break
        out += chunk
        while answered < out.count(b"(y/n)"):
            os.write(master, b"y\n")
            answered += 1
    os.close(master)
    return proc.wait(), out.decode("utf-8", errors="replace"), answered


def deploy_readme(work):
    """Runs the README's commands into the emulator: what test_deploy.py needs to read the stack back."""
    env = dict(os.environ, AWS_REGION=HOME_REGION, AWS_DEFAULT_REGION=HOME_REGION, CDK_DISABLE_CLI_TELEMETRY="true")
    # The CDK CLI uploads assets with virtual-hosted-style S3 URLs, which
    # resolve for "localhost" only (EMULATOR-NOTES).
    env["AWS_ENDPOINT_URL"] = env["AWS_ENDPOINT_URL"].replace("127.0.0.1", "localhost")
    # The zips go to (and the app reads them from) a private target
    # directory, never the developer's target/lambda.
    env["CARGO_TARGET_DIR"] = str(work / "target")
    account = boto3.client("sts").get_caller_identity()["Account"]

    # PRECONDITIONS the README states: the Slack secret named by
    # -c slackSecret exists (and an account trail, which the deploy never reads).
    text = open(README, encoding="utf-8").read()
    secret = re.search(r"-c slackSecret=(\S+)", text[text.find(BEGIN) : text.find(END)])
    if secret:
        boto3.client("secretsmanager", region_name=HOME_REGION).create_secret(
            Name=secret.group(1), SecretString="https://hooks.slack.invalid/realdrift-readme"
        )

    cwd, timings = ROOT, {}
    for command in readme_commands(text):
        run, note = substitute(command, account)
        print(f"README> {command}" + (f"\n        ({note})" if note else ""))
        t0 = time.monotonic()
        step_env = env
        if "--test-build" in run:
            # The test build reuses the workspace's own `cargo test` binaries,
            # in the caller's target directory.
            step_env = {k: v for k, v in env.items() if k != "CARGO_TARGET_DIR"}
            if os.environ.get("CARGO_TARGET_DIR"):
                step_env["CARGO_TARGET_DIR"] = os.environ["CARGO_TARGET_DIR"]
            run = run.replace("$CARGO_TARGET_DIR", env["CARGO_TARGET_DIR"])
        script = f'{run}\nprintf "%s" "$PWD" > {shlex.quote(str(work / "cwd"))}\n'
        code, output, answered = in_terminal(script, cwd, step_env)
        timings[" ".join(command.split()[:3])] = round(time.monotonic() - t0, 1)
        if answered:
            print(f"        (answered y to {answered} approval prompt(s), as the reader at a terminal would)")
        assert code == 0, f"the README's command failed (fix the README, not this test):\n{command}\n--- output\n{output[-6000:]}"
        cwd = (work / "cwd").read_text()
    print("README deploy timings (s):", timings)
    with open(os.path.join(INFRA, "cdk.out", f"{STACK}.template.json")) as f:
        template = json.load(f)
    return {"account": account, "region": HOME_REGION, "stack": STACK, "template": template, "secret": secret.group(1) if secret else None}
