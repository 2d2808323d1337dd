"""Run the endpoint: python -m cloudcontrol --port P --moto-url URL."""

import argparse
import logging

from . import operations
from .aws import Aws
from .server import make_server


def main() -> None:
    """Parse arguments, connect to moto, serve until killed."""
    parser = argparse.ArgumentParser(description="realdrift's local Cloud Control endpoint")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--moto-url", required=True, help="moto server URL, e.g. http://127.0.0.1:4566")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the emulator only listens on the loopback interface")
    operations.configure(Aws(args.moto_url, args.region))
    server = make_server(args.host, args.port)
    logging.info("cloudcontrol listening on %s:%d", *server.server_address[:2])
    server.serve_forever()


if __name__ == "__main__":
    main()
