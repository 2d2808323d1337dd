"""boto3 clients on this moto server itself: the patches act as CloudFormation
does, through the service APIs (and the Cloud Control endpoint's writers)."""

import threading

from cloudcontrol.aws import Aws

_lock = threading.Lock()
_url = None
_clients = {}


def configure(url: str) -> None:
    """Set the URL this moto server listens on."""
    global _url
    _url = url


def clients(region: str, account: str = None) -> Aws:
    """The clients for one region of one account (created once): a stack
    created in another account gets its fix-ups there too."""
    with _lock:
        if _url is None:
            raise RuntimeError("moto_patches.service_client.configure() was not called")
        key = (region, account)
        if key not in _clients:
            _clients[key] = Aws(_url, region, account=account)
        return _clients[key]
