"""Representative resources of each served type, created through moto's
service APIs the way a CDK stack would configure them (with tags, as
CloudFormation always tags what it creates). Each returns the Cloud Control
identifier of what it created."""

import io
import json
import uuid
import zipfile

ASSUME_LAMBDA = {
    "Version": "2012-10-17",
    "Statement": [
        {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}
    ],
}
TAGS = [{"Key": "stack-name", "Value": "RealdriftSample"}, {"Key": "team", "Value": "drift"}]


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def bucket(aws) -> str:
    """A versioned, encrypted, public-access-blocked, owner-enforced bucket."""
    name = _name("sample-bucket")
    s3 = aws.s3
    s3.create_bucket(Bucket=name)
    s3.put_bucket_encryption(
        Bucket=name,
        ServerSideEncryptionConfiguration={
            "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}, "BucketKeyEnabled": False}]
        },
    )
    s3.put_public_access_block(
        Bucket=name,
        PublicAccessBlockConfiguration={
            "BlockPublicAcls": True,
            "IgnorePublicAcls": True,
            "BlockPublicPolicy": True,
            "RestrictPublicBuckets": True,
        },
    )
    s3.put_bucket_ownership_controls(
        Bucket=name, OwnershipControls={"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}
    )
    s3.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    s3.put_bucket_cors(
        Bucket=name,
        CORSConfiguration={
            "CORSRules": [{"AllowedMethods": ["GET"], "AllowedOrigins": ["https://example.com"], "AllowedHeaders": ["*"], "MaxAgeSeconds": 300}]
        },
    )
    s3.put_bucket_lifecycle_configuration(
        Bucket=name,
        LifecycleConfiguration={
            "Rules": [
                {
                    "ID": "expire",
                    "Status": "Enabled",
                    "Filter": {"Prefix": "logs/"},
                    "Expiration": {"Days": 365},
                    "Transitions": [{"Days": 30, "StorageClass": "STANDARD_IA"}],
                }
            ]
        },
    )
    s3.put_bucket_tagging(Bucket=name, Tagging={"TagSet": TAGS})
    return name


def configured_bucket(aws) -> str:
    """A bucket with object lock, queue / EventBridge notifications and
    replication to a second bucket (the configurations moto's
    CloudFormation ignores)."""
    name = bucket(aws)
    s3 = aws.s3
    s3.put_object_lock_configuration(
        Bucket=name,
        ObjectLockConfiguration={"ObjectLockEnabled": "Enabled", "Rule": {"DefaultRetention": {"Mode": "GOVERNANCE", "Days": 30}}},
    )
    q = aws.sqs.create_queue(QueueName=_name("sample-uploads"))["QueueUrl"]
    q_arn = aws.sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    s3.put_bucket_notification_configuration(
        Bucket=name,
        NotificationConfiguration={
            "QueueConfigurations": [
                {
                    "QueueArn": q_arn,
                    "Events": ["s3:ObjectRemoved:*"],
                    "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "archive/"}]}},
                }
            ],
            "EventBridgeConfiguration": {},
        },
    )
    replica = _name("sample-replica")
    s3.create_bucket(Bucket=replica)
    s3.put_bucket_versioning(Bucket=replica, VersioningConfiguration={"Status": "Enabled"})
    s3.put_bucket_replication(
        Bucket=name,
        ReplicationConfiguration={
            "Role": f"arn:aws:iam::{aws.account_id}:role/{role(aws)}",
            "Rules": [
                {
                    "ID": "logs-rule",
                    "Priority": 1,
                    "Status": "Enabled",
                    "Filter": {"Prefix": "logs/"},
                    "Destination": {"Bucket": f"arn:aws:s3:::{replica}", "StorageClass": "STANDARD_IA"},
                    "DeleteMarkerReplication": {"Status": "Disabled"},
                    "SourceSelectionCriteria": {"ReplicaModifications": {"Status": "Enabled"}},
                }
            ],
        },
    )
    return name


def queue(aws) -> str:
    """A queue with a dead-letter queue and tags."""
    dlq = aws.sqs.create_queue(QueueName=_name("sample-dlq"))["QueueUrl"]
    dlq_arn = aws.sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    url = aws.sqs.create_queue(
        QueueName=_name("sample-queue"),
        Attributes={
            "VisibilityTimeout": "45",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 3}),
        },
        tags={"team": "drift"},
    )["QueueUrl"]
    account, name = url.rstrip("/").split("/")[-2:]
    return f"https://sqs.{aws.region}.amazonaws.com/{account}/{name}"


def topic(aws) -> str:
    """A topic with a display name, tags and a queue subscription."""
    arn = aws.sns.create_topic(
        Name=_name("sample-topic"), Attributes={"DisplayName": "sample topic"}, Tags=TAGS
    )["TopicArn"]
    q = aws.sqs.create_queue(QueueName=_name("sample-sub"))["QueueUrl"]
    q_arn = aws.sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    aws.sns.subscribe(TopicArn=arn, Protocol="sqs", Endpoint=q_arn)
    return arn


def subscription(aws) -> str:
    """A raw-delivery queue subscription with a filter policy and a
    dead-letter queue (identifier: its ARN)."""
    topic_arn = aws.sns.create_topic(Name=_name("sample-subtopic"))["TopicArn"]
    arns = []
    for prefix in ("sample-subq", "sample-subdlq"):
        url = aws.sqs.create_queue(QueueName=_name(prefix))["QueueUrl"]
        arns.append(aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"])
    return aws.sns.subscribe(
        TopicArn=topic_arn,
        Protocol="sqs",
        Endpoint=arns[0],
        Attributes={
            "RawMessageDelivery": "true",
            "FilterPolicyScope": "MessageAttributes",
            "FilterPolicy": json.dumps({"severity": ["high", "critical"]}),
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": arns[1]}),
        },
        ReturnSubscriptionArn=True,
    )["SubscriptionArn"]


def role(aws) -> str:
    """A role with a description, a managed policy and an inline policy."""
    name = _name("sample-role")
    aws.iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(ASSUME_LAMBDA), Description="sample role")
    aws.iam.attach_role_policy(
        RoleName=name, PolicyArn="arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"
    )
    aws.iam.put_role_policy(
        RoleName=name,
        PolicyName="SampleDefaultPolicy",
        PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:ListAllMyBuckets", "Resource": "*"}]}
        ),
    )
    return name


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("index.js", "exports.handler = async () => ({ ok: true });")
    return buf.getvalue()


def function(aws) -> str:
    """A zip function with environment, tags and reserved concurrency."""
    role_name = role(aws)
    role_arn = aws.iam.get_role(RoleName=role_name)["Role"]["Arn"]
    name = _name("sample-fn")
    aws.lambda_.create_function(
        FunctionName=name,
        Runtime="nodejs20.x",
        Role=role_arn,
        Handler="index.handler",
        Code={"ZipFile": _zip()},
        MemorySize=256,
        Timeout=10,
        Environment={"Variables": {"STAGE": "test"}},
        Tags={t["Key"]: t["Value"] for t in TAGS},
    )
    aws.lambda_.put_function_concurrency(FunctionName=name, ReservedConcurrentExecutions=2)
    return name


def table(aws) -> str:
    """An on-demand table with a GSI, TTL and point-in-time recovery."""
    name = _name("sample-table")
    aws.dynamodb.create_table(
        TableName=name,
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "status", "AttributeType": "S"},
        ],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "byStatus",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
        Tags=TAGS,
    )
    aws.dynamodb.update_time_to_live(
        TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expiresAt"}
    )
    aws.dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
    )
    return name


def log_group(aws) -> str:
    """A log group with retention and tags."""
    name = "/sample/" + _name("lg")
    aws.logs.create_log_group(logGroupName=name, tags={t["Key"]: t["Value"] for t in TAGS})
    aws.logs.put_retention_policy(logGroupName=name, retentionInDays=14)
    return name


def rule(aws) -> str:
    """A scheduled rule with a queue target and tags (identifier: its ARN)."""
    name = _name("sample-rule")
    arn = aws.events.put_rule(Name=name, ScheduleExpression="rate(1 hour)", State="ENABLED", Tags=TAGS)["RuleArn"]
    q = aws.sqs.create_queue(QueueName=_name("sample-target"))["QueueUrl"]
    q_arn = aws.sqs.get_queue_attributes(QueueUrl=q, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    aws.events.put_targets(Rule=name, Targets=[{"Id": "Target0", "Arn": q_arn}])
    return arn


def logged_bucket(aws) -> str:
    """A bucket with server access logging and a KMS bucket key."""
    target = _name("sample-logs")
    aws.s3.create_bucket(Bucket=target)
    aws.s3.put_bucket_policy(
        Bucket=target,
        Policy=json.dumps(
            {
                "Version": "2012-10-17",
                "Statement": [
                    {
                        "Effect": "Allow",
                        "Principal": {"Service": "logging.s3.amazonaws.com"},
                        "Action": "s3:PutObject",
                        "Resource": f"arn:aws:s3:::{target}/*",
                    }
                ],
            }
        ),
    )
    name = _name("sample-logged")
    aws.s3.create_bucket(Bucket=name)
    aws.s3.put_bucket_encryption(
        Bucket=name,
        ServerSideEncryptionConfiguration={
            "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms"}, "BucketKeyEnabled": True}]
        },
    )
    aws.s3.put_bucket_logging(
        Bucket=name, BucketLoggingStatus={"LoggingEnabled": {"TargetBucket": target, "TargetPrefix": "access/"}}
    )
    return name


def rule_with_delivery_options(aws) -> str:
    """A rule whose target has a dead-letter queue, a retry policy and an input transformer."""
    name = _name("sample-dlq-rule")
    arn = aws.events.put_rule(Name=name, EventPattern=json.dumps({"source": ["orders.api"]}))["RuleArn"]
    arns = []
    for prefix in ("sample-rule-target", "sample-rule-dlq"):
        url = aws.sqs.create_queue(QueueName=_name(prefix))["QueueUrl"]
        arns.append(aws.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"])
    aws.events.put_targets(
        Rule=name,
        Targets=[
            {
                "Id": "Target0",
                "Arn": arns[0],
                "DeadLetterConfig": {"Arn": arns[1]},
                "RetryPolicy": {"MaximumRetryAttempts": 4, "MaximumEventAgeInSeconds": 3600},
                "InputTransformer": {"InputPathsMap": {"id": "$.detail.id"}, "InputTemplate": '{"order": <id>}'},
            }
        ],
    )
    return arn


def security_group(aws) -> str:
    """A VPC security group with CIDR, IPv6, prefix-list and self-referencing rules."""
    vpc = aws.ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    gid = aws.ec2.create_security_group(GroupName=_name("sample-sg"), Description="sample", VpcId=vpc)["GroupId"]
    aws.ec2.create_tags(Resources=[gid], Tags=TAGS)
    aws.ec2.authorize_security_group_ingress(
        GroupId=gid,
        IpPermissions=[
            {"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443,
             "IpRanges": [{"CidrIp": "10.0.0.0/24", "Description": "https"}],
             "Ipv6Ranges": [{"CidrIpv6": "2001:db8::/32", "Description": "https v6"}]},
            {"IpProtocol": "tcp", "FromPort": 9000, "ToPort": 9000,
             "UserIdGroupPairs": [{"GroupId": gid, "Description": "self ref"}]},
        ],
    )
    return gid


def launch_template(aws) -> str:
    """A launch template with a second version made the default."""
    out = aws.ec2.create_launch_template(
        LaunchTemplateName=_name("sample-lt"),
        LaunchTemplateData={"InstanceType": "t3.micro", "MetadataOptions": {"HttpTokens": "required"}},
    )
    ident = out["LaunchTemplate"]["LaunchTemplateId"]
    aws.ec2.create_launch_template_version(LaunchTemplateId=ident, LaunchTemplateData={"InstanceType": "t3.small"})
    aws.ec2.modify_launch_template(LaunchTemplateId=ident, DefaultVersion="2")
    return ident


#: Resources with properties no corpus case shows: (type, factory), checked
#: against the registry schema only.
SCHEMA_ONLY = {
    "logged bucket": ("AWS::S3::Bucket", logged_bucket),
    "rule with delivery options": ("AWS::Events::Rule", rule_with_delivery_options),
}

#: Type name -> the factory of its representative resource.
FACTORIES = {
    "AWS::S3::Bucket": configured_bucket,
    "AWS::SQS::Queue": queue,
    "AWS::SNS::Topic": topic,
    "AWS::SNS::Subscription": subscription,
    "AWS::IAM::Role": role,
    "AWS::Lambda::Function": function,
    "AWS::DynamoDB::Table": table,
    "AWS::Logs::LogGroup": log_group,
    "AWS::Events::Rule": rule,
    "AWS::EC2::SecurityGroup": security_group,
    "AWS::EC2::LaunchTemplate": launch_template,
}
