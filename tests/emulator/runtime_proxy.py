"""A pass-through for the Lambda runtime API that gives the function the
deadline AWS gives it.

AWS's `Lambda-Runtime-Deadline-Ms` is "the date that the function times
out in Unix time milliseconds" (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html,
"Next invocation"); `cargo lambda watch` 1.9 sends the timeout itself
(`600000`), a date in 1970. on-change claims its notices until its deadline
(core/src/watch/outbox.rs), so with that value every claim has already
expired and concurrent invocations would take each other's notices over.
This proxy turns a value below any real date into now + that value; every
other byte passes unchanged."""

import http.client
import http.server
import threading
import time

DEADLINE = "lambda-runtime-deadline-ms"
# Any real deadline (epoch ms) is above this (2001); a relative one is far below.
EPOCH_FLOOR_MS = 1_000_000_000_000


def absolute_deadline(value, now_ms=None):
    """The deadline as epoch milliseconds: a relative value is taken as from now."""
    ms = int(value)
    if ms >= EPOCH_FLOOR_MS:
        return ms
    return (now_ms if now_ms is not None else int(time.time() * 1000)) + ms


class RuntimeProxy:
    """Listens on a free local port; forwards to the runtime API at `upstream_port`."""

    def __init__(self, upstream_port):
        handler = _handler(upstream_port)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _handler(upstream_port):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self):
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            conn = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=1000)
            headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            conn.request(self.command, self.path, body=body, headers=headers)
            r = conn.getresponse()
            data = r.read()
            self.send_response(r.status)
            for k, v in r.getheaders():
                if k.lower() in ("content-length", "transfer-encoding", "connection"):
                    continue
                self.send_header(k, str(absolute_deadline(v)) if k.lower() == DEADLINE else v)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            conn.close()

        def _relay(self):
            try:
                self._forward()
            except (OSError, http.client.HTTPException):
                # The runtime API went away (shutdown): the function's poll fails, as it would.
                self.close_connection = True

        do_GET = do_POST = _relay

        def log_message(self, *args):
            pass

    return Handler
