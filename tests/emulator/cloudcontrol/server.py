"""HTTP front end: awsJson1_0 requests in, JSON or error bodies out."""

import json
import logging
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from botocore.exceptions import ClientError

from . import operations
from .aws import caller_scope
from .errors import CloudControlError

TARGET_PREFIX = "CloudApiService."
CONTENT_TYPE = "application/x-amz-json-1.0"
log = logging.getLogger("cloudcontrol")


class Handler(BaseHTTPRequestHandler):
    """One request: POST / with X-Amz-Target, or the emulator's own GET /health,
    POST /reset and POST /faults (tests inject write failures)."""

    protocol_version = "HTTP/1.1"
    server_version = "realdrift-cloudcontrol"

    def _send(self, status: int, body: dict, extra_headers=None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", CONTENT_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
        for key, value in (extra_headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, code: str, message: str) -> None:
        body = {"__type": f"com.amazonaws.cloudcontrolapi#{code}", "Message": message}
        self._send(status, body, {"x-amzn-ErrorType": code})

    def do_GET(self):  # noqa: N802 (http.server naming)
        """Health check used by scripts/emulator.sh to know the endpoint is up."""
        if self.path == "/health":
            self._send(200, {"status": "ok"})
        else:
            self._error(404, "UnknownOperationException", f"no such path {self.path}")

    def do_POST(self):  # noqa: N802
        """Dispatch one Cloud Control operation."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        target = self.headers.get("X-Amz-Target", "")
        if self.path == "/reset" and not target:
            operations.reset()
            self._send(200, {"status": "reset"})
            return
        if self.path == "/faults" and not target:
            try:
                operations.add_fault(json.loads(raw or b"{}"))
            except (ValueError, CloudControlError) as err:
                self._error(400, "ValidationException", str(err))
                return
            self._send(200, {"status": "fault added"})
            return
        if not target.startswith(TARGET_PREFIX):
            self._error(400, "UnknownOperationException", f"missing or foreign X-Amz-Target {target!r}")
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._error(400, "SerializationException", "request body is not JSON")
            return
        operation = target[len(TARGET_PREFIX) :]
        operations.use_caller(caller_scope(self.headers.get("Authorization", "")))
        try:
            self._send(200, operations.dispatch(operation, body))
        except CloudControlError as err:
            self._error(err.status, err.code, err.message)
        except ClientError as err:
            # moto failed in a way no handler error code covers.
            log.warning("moto error in %s: %s", operation, err)
            self._error(400, "GeneralServiceException", str(err))
        except Exception as err:  # noqa: BLE001 (the server must answer, never hang up)
            log.exception("internal error in %s", operation)
            self._error(500, "ServiceInternalErrorException", f"{type(err).__name__}: {err}")

    def log_message(self, fmt, *args):
        """Quiet by default; --verbose turns request logging on."""
        log.debug("%s - %s", self.address_string(), fmt % args)


class Server(ThreadingHTTPServer):
    """Threaded server with a listen backlog sized for concurrent SDK readers."""

    daemon_threads = True
    request_queue_size = 128


def make_server(host: str, port: int) -> Server:
    """A threaded server bound to host:port (port 0 picks a free one)."""
    return Server((host, port), Handler)
