"""Patch: CloudWatch anomaly detectors, and the RPC v2 CBOR protocol the Rust
SDK sends them in.

Gaps (moto 5.1.22): no PutAnomalyDetector, DescribeAnomalyDetectors or
DeleteAnomalyDetector ("has not been implemented"); and moto's CloudWatch
answers only awsQuery and JSON 1.0 at ``/``, while aws-sdk-cloudwatch 1.140
posts CBOR to ``/service/GraniteServiceVersion20100801/operation/<Name>``
(smithy-protocol: rpc-v2-cbor). The three operations are served in both:
boto3 (JSON 1.0) through moto's own dispatch, the Rust SDK through the CBOR
route. State lives in the CloudWatch backend of the account and region.

Shapes: CloudWatch API reference, PutAnomalyDetector, DescribeAnomalyDetectors,
DeleteAnomalyDetector, AnomalyDetector
(https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_AnomalyDetector.html)."""

import json
from datetime import datetime, timezone

from botocore.utils import parse_timestamp
from moto.cloudwatch import urls as cloudwatch_urls
from moto.cloudwatch.exceptions import InvalidParameterCombination, ResourceNotFound
from moto.cloudwatch.responses import CloudWatchResponse
from moto.core.exceptions import ServiceException
from moto.core.responses import ActionResult, EmptyResult

from . import cbor

#: The operations served over CBOR (the ones the Rust SDK's reader and writer call).
CBOR_OPERATIONS = {
    "PutAnomalyDetector": "put_anomaly_detector",
    "DescribeAnomalyDetectors": "describe_anomaly_detectors",
    "DeleteAnomalyDetector": "delete_anomaly_detector",
}
_CBOR_PATH = "{0}/service/GraniteServiceVersion20100801/operation/(?P<operation>[A-Za-z]+)$"
_LEGACY = ("Namespace", "MetricName", "Dimensions", "Stat")


def _detectors(backend) -> dict:
    if not hasattr(backend, "realdrift_anomaly_detectors"):
        backend.realdrift_anomaly_detectors = {}
    return backend.realdrift_anomaly_detectors


def _time(value) -> datetime:
    """A timestamp as moto keeps them: naive UTC."""
    if isinstance(value, (int, float)):
        value = datetime.fromtimestamp(value, tz=timezone.utc)
    elif isinstance(value, str):
        value = parse_timestamp(value)
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


def _configuration(config):
    if not config:
        return None
    out = {}
    if config.get("ExcludedTimeRanges"):
        out["ExcludedTimeRanges"] = [
            {"StartTime": _time(r["StartTime"]), "EndTime": _time(r["EndTime"])} for r in config["ExcludedTimeRanges"]
        ]
    if config.get("MetricTimezone"):
        out["MetricTimezone"] = config["MetricTimezone"]
    return out


def _identity(params: dict) -> tuple:
    """(key, the detector's metric part): one detector per metric (or math)."""
    math = params.get("MetricMathAnomalyDetector")
    single = params.get("SingleMetricAnomalyDetector")
    legacy = {k: params[k] for k in _LEGACY if params.get(k) is not None}
    if sum(bool(x) for x in (math, single, legacy)) != 1:
        raise InvalidParameterCombination(
            "Exactly one of the legacy metric fields, SingleMetricAnomalyDetector or MetricMathAnomalyDetector is required"
        )
    if math:
        return json.dumps(math, sort_keys=True, default=str), {"MetricMathAnomalyDetector": math}
    spec = dict(single or legacy)
    spec["Dimensions"] = sorted(spec.get("Dimensions") or [], key=lambda d: (d["Name"], d["Value"]))
    key = json.dumps({k: spec.get(k) for k in _LEGACY}, sort_keys=True)
    # DescribeAnomalyDetectors answers the (deprecated) top-level fields too.
    return key, {"SingleMetricAnomalyDetector": spec, **{k: spec[k] for k in _LEGACY if k in spec}}


def put_anomaly_detector(self):
    """PutAnomalyDetector: creates the metric's detector, or replaces its
    configuration and metric characteristics."""
    params = {k: self._get_param(k) for k in (*_LEGACY, "SingleMetricAnomalyDetector", "MetricMathAnomalyDetector")}
    key, detector = _identity(params)
    detector["Configuration"] = _configuration(self._get_param("Configuration"))
    detector["MetricCharacteristics"] = self._get_param("MetricCharacteristics")
    detector["StateValue"] = "PENDING_TRAINING"
    _detectors(self.cloudwatch_backend)[key] = detector
    return EmptyResult()


def describe_anomaly_detectors(self):
    """DescribeAnomalyDetectors, filtered by type, namespace and metric name
    (all in one page: the emulator holds few)."""
    kinds = self._get_param("AnomalyDetectorTypes") or ["SINGLE_METRIC", "METRIC_MATH"]
    namespace, metric = self._get_param("Namespace"), self._get_param("MetricName")
    out = []
    for d in _detectors(self.cloudwatch_backend).values():
        kind = "METRIC_MATH" if "MetricMathAnomalyDetector" in d else "SINGLE_METRIC"
        single = d.get("SingleMetricAnomalyDetector") or {}
        if kind not in kinds or (namespace and single.get("Namespace") != namespace):
            continue
        if metric and single.get("MetricName") != metric:
            continue
        out.append({k: v for k, v in d.items() if v is not None})
    return ActionResult({"AnomalyDetectors": out})


def delete_anomaly_detector(self):
    """DeleteAnomalyDetector of the metric (or math) given."""
    params = {k: self._get_param(k) for k in (*_LEGACY, "SingleMetricAnomalyDetector", "MetricMathAnomalyDetector")}
    key, _ = _identity(params)
    if _detectors(self.cloudwatch_backend).pop(key, None) is None:
        raise ResourceNotFound("Anomaly detector not found")
    return EmptyResult()


def _cbor_response(status: int, body: dict):
    headers = {"Content-Type": "application/cbor", "smithy-protocol": "rpc-v2-cbor"}
    return status, headers, cbor.encode(body)


def _cbor_dispatch(request, full_url, headers):
    """One CBOR request: decoded into moto's parameters, answered in CBOR."""
    operation = full_url.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
    method = CBOR_OPERATIONS.get(operation)
    if method is None:
        return _cbor_response(404, {"__type": "UnknownOperationException",
                                    "message": f"{operation} is not served over CBOR by the emulator"})
    response = CloudWatchResponse()
    response.automated_parameter_parsing = False  # moto cannot parse CBOR
    response.setup_class(request, full_url, headers, use_raw_body=True)
    try:
        response.params = cbor.decode(response.raw_body) or {}
    except (cbor.CborError, UnicodeDecodeError) as err:
        return _cbor_response(400, {"__type": "SerializationException", "message": str(err)})
    response.automated_parameter_parsing = True
    try:
        result = getattr(response, method)()
    except ServiceException as err:
        status = 404 if isinstance(err, ResourceNotFound) else 400
        return _cbor_response(status, {"__type": err.code, "message": err.message})
    body = result.result if isinstance(result, ActionResult) and isinstance(result.result, dict) else {}
    return _cbor_response(200, body)


def install() -> None:
    """Add the three operations (JSON / query through moto's dispatch) and the CBOR route."""
    CloudWatchResponse.put_anomaly_detector = put_anomaly_detector
    CloudWatchResponse.describe_anomaly_detectors = describe_anomaly_detectors
    CloudWatchResponse.delete_anomaly_detector = delete_anomaly_detector
    cloudwatch_urls.url_paths[_CBOR_PATH] = _cbor_dispatch
