"""The resource types the endpoint serves: one module per type, one table."""

from . import (
    dynamodb_table,
    ec2_launch_template,
    ec2_security_group,
    events_rule,
    iam_role,
    lambda_function,
    logs_log_group,
    s3_bucket,
    sns_subscription,
    sns_topic,
    sqs_queue,
)

#: Type name -> module with read / list_identifiers / update / delete.
TYPES = {
    module.TYPE_NAME: module
    for module in (
        s3_bucket,
        sqs_queue,
        sns_topic,
        sns_subscription,
        iam_role,
        lambda_function,
        dynamodb_table,
        logs_log_group,
        events_rule,
        ec2_security_group,
        ec2_launch_template,
    )
}
