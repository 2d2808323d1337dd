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


def clients(region: str) -> Aws:
    """The clients for one region (created once)."""
    with _lock:
        if _url is None:
            raise RuntimeError("moto_patches.service_client.configure() was not called")
        if region not in _clients:
            _clients[region] = Aws(_url, region)
        return _clients[region]
