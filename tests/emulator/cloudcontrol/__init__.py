"""A local Cloud Control API endpoint backed by moto's service APIs.

It speaks the real wire protocol (awsJson1_0, ``X-Amz-Target:
CloudApiService.<Op>``) so unmodified AWS SDK clients work against it, and
builds resource models shaped like real Cloud Control models.
"""
