"""Start moto_server with the patches: python -m moto_patches -H HOST -p PORT."""

import argparse
import sys

from moto import server

from . import install


def main() -> None:
    """Install the patches for this host and port, then run moto's own server main."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    args, _ = parser.parse_known_args()
    install(f"http://{args.host}:{args.port}")
    server.main(sys.argv[1:])


if __name__ == "__main__":
    main()
