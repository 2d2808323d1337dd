"""The realdrift functions in a local Lambda runtime, driven from Python.

Per function, `cargo lambda watch --only-lambda-apis` serves the Lambda
runtime API on a free port and N copies of the function's binary (the one
`cargo test --workspace` builds, as tests/e2e/lambda.rs uses) poll it
(through runtime_proxy, which gives them AWS's form of the deadline), so
up to N invocations run at once, as Lambda runs up to N instances. An
invoke is the Lambda Invoke API's POST, answered with the function's
result. Processes are stopped, by their own ids, on close().
"""

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

from runtime_proxy import RuntimeProxy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
LISTEN_SECONDS = 60


def venv_bin():
    return os.path.join(os.environ.get("REALDRIFT_VENV") or os.path.join(ROOT, ".venv"), "bin")


def ensure_cargo_lambda():
    """cargo-lambda from the venv, installed from infra/requirements.txt when missing."""
    exe = os.path.join(venv_bin(), "cargo-lambda")
    if not os.path.exists(exe):
        subprocess.run([os.path.join(venv_bin(), "pip"), "install", "--quiet", "--disable-pip-version-check",
                        "-r", os.path.join(ROOT, "infra", "requirements.txt")], check=True)
    return exe


FUNCTIONS_DIR_VAR = "REALDRIFT_FUNCTIONS_DIR"


def build_functions():
    """The directory of the function binaries, built the way `cargo test --workspace` builds them
    (a no-op after that command; a separate `cargo build -p` would compile the SDK again).

    With REALDRIFT_FUNCTIONS_DIR set, that directory of prebuilt binaries (realdrift-scan,
    -on-change, -revert, -hub) is used as it is and cargo is not run: for a bench or a
    checkout without a target directory (a missing binary fails when its function starts)."""
    given = os.environ.get(FUNCTIONS_DIR_VAR, "").strip()
    if given:
        if not os.path.isdir(given):
            raise RuntimeError(f"{FUNCTIONS_DIR_VAR}={given}: not a directory")
        return os.path.abspath(given)
    out = subprocess.run(["cargo", "test", "--workspace", "--locked", "--no-run", "--message-format", "json"],
                         cwd=ROOT, check=True, capture_output=True, text=True,
                         env={"CARGO_INCREMENTAL": "0", **os.environ}).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        target = msg.get("target", {})
        # The binary itself, not its unit-test harness (same target name, profile.test).
        if msg.get("reason") == "compiler-artifact" and target.get("name") == "realdrift-on-change" \
                and "bin" in target.get("kind", []) and not msg.get("profile", {}).get("test") \
                and msg.get("executable"):
            return os.path.dirname(msg["executable"])
    raise RuntimeError("cargo did not report the realdrift-on-change binary")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Function:
    """One function's runtime API server and its instances."""

    def __init__(self, name, bin_dir, env, instances, log):
        self.name = name
        self.port = free_port()
        self.procs = [subprocess.Popen(
            [ensure_cargo_lambda(), "lambda", "watch", "--only-lambda-apis", "--timeout", "900",
             "--invoke-address", "127.0.0.1", "--invoke-port", str(self.port)],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=log)]
        self._wait_listening()
        # The functions poll through the proxy: it makes the deadline a date, as AWS sends it.
        self.proxy = RuntimeProxy(self.port)
        for i in range(instances):
            self.procs.append(subprocess.Popen(
                [os.path.join(bin_dir, name)], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                env={**env, "AWS_LAMBDA_FUNCTION_NAME": name, "AWS_LAMBDA_FUNCTION_VERSION": "1",
                     "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "512", "AWS_LAMBDA_LOG_STREAM_NAME": f"instance-{i}",
                     "AWS_LAMBDA_RUNTIME_API": f"http://127.0.0.1:{self.proxy.port}/.rt"}))

    def _wait_listening(self):
        started = time.monotonic()
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() - started > LISTEN_SECONDS or self.procs[0].poll() is not None:
                    raise RuntimeError(f"cargo lambda watch did not listen on {self.port}")
                time.sleep(0.2)

    def invoke(self, event, timeout=900):
        """The function's result for `event`; RuntimeError when it failed."""
        for p in self.procs[1:]:
            if p.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({p.returncode})")
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/2015-03-31/functions/_/invocations",
                                     data=json.dumps(event).encode(), method="POST",
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                body = r.read().decode()
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{self.name} failed: {e.code} {e.read().decode(errors='replace')}") from e
        result = json.loads(body) if body.strip() else None
        if isinstance(result, dict) and "errorType" in result:
            raise RuntimeError(f"{self.name} failed: {result}")
        return result

    def close(self):
        if hasattr(self, "proxy"):
            self.proxy.close()
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


class LocalLambda:
    """The functions started so far, all with one environment and one log file."""

    def __init__(self, env, log_path):
        self.env = {**os.environ, **env}
        self.bin_dir = build_functions()
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.functions = {}

    def start(self, name, instances=1):
        if name not in self.functions:
            self.functions[name] = Function(name, self.bin_dir, self.env, instances, self.log)
        return self.functions[name]

    def close(self):
        for f in self.functions.values():
            f.close()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
