"""moto 5.1.22, patched where its CloudFormation or service APIs fall short of
AWS in ways realdrift reads — the one place the emulator works around moto.

- ``gaps``: per type, what moto's CloudFormation does not do (data, no moto import).
- ``cfn_declared``: declared properties moto ignores on the served types take effect.
- ``cfn_resources``: bucket policies, queue policies and SNS subscriptions are
  created; Lambda permissions get CloudFormation's physical id.
- ``cfn_readers``: the types realdrift reads with a per-service reader whose
  service moto serves (network ACL entries, CodeBuild projects, DAX
  clusters, DMS replication instances, Lake Formation locations, listener
  certificates, CloudWatch anomaly detectors, Client VPN endpoints and their
  target network associations, DocumentDB clusters and instances) are created.
- ``cloudwatch_anomaly``: CloudWatch anomaly detectors (Put / Describe /
  Delete), also over the RPC v2 CBOR protocol the Rust SDK sends (``cbor``).
- ``client_vpn``: EC2 Client VPN endpoints and target network associations.
- ``docdb``: moto's RDS API admits the ``docdb`` engine (the DocumentDB API
  is served on the RDS endpoint), with DocumentDB's default port and
  parameter group.
- ``service_apis``: Lambda ListFunctionUrlConfigs; CodeBuild UpdateProject;
  S3 notification, object lock and replication reads; DynamoDB
  point-in-time recovery period.
- ``service_updates``: DAX UpdateCluster, DMS ModifyReplicationInstance,
  Lake Formation UpdateResource, AddListenerCertificates of an attached
  certificate (the calls revert's service writers make).
- ``events_org``: PutEvents to another account's bus by ARN, admitted by
  that bus's policy (aws:PrincipalOrgID); SNS topics as rule targets; the
  whole event (with ``account``) to targets without an input transformer.
- ``s3_cross_account``: S3 requests from another account are judged by the
  bucket policy (``bucket_policy``: the verdict, pure data).

``python -m moto_patches -H HOST -p PORT`` starts moto_server with them
(scripts/emulator.sh does)."""

_installed = False


def install(self_url: str) -> None:
    """Apply every patch (once) before moto serves a request; ``self_url`` is
    where this moto server listens, for the patches that call its APIs."""
    global _installed
    from . import (
        cfn_declared,
        cfn_readers,
        docdb,
        cfn_resources,
        client_vpn,
        cloudwatch_anomaly,
        events_org,
        s3_cross_account,
        service_apis,
        service_client,
        service_updates,
    )

    service_client.configure(self_url)
    if _installed:
        return
    service_apis.install()
    service_updates.install()
    cloudwatch_anomaly.install()
    client_vpn.install()
    docdb.install()
    events_org.install()
    s3_cross_account.install()
    cfn_resources.install()
    cfn_readers.install()
    cfn_declared.install()
    _installed = True
