"""What moto 5.1.22's CloudFormation does differently from AWS, per resource
type: the data the patches act on, also read by deploy_fixture.py for its
summary. No moto import here.

Source of each entry: moto/<service>/models.py,
``create_from_cloudformation_json`` of the type, at 5.1.22."""

#: Served types -> (declared properties moto's own create applies, why the
#: rest is missing). Every other declared property is applied after moto's
#: create through the Cloud Control endpoint's writer for it, as an update of
#: the new resource; a property with no writer fails the CreateStack, naming
#: it. None: moto hands every property to the service.
NATIVE_PROPERTIES = {
    "AWS::S3::Bucket": (
        frozenset({"BucketName", "Tags"}),
        "moto creates the bucket and tags it; its encryption conversion drops "
        "BucketKeyEnabled and every other configuration is ignored",
    ),
    "AWS::SQS::Queue": (None, "moto passes every property to CreateQueue"),
    "AWS::SNS::Topic": (
        frozenset({"TopicName", "Subscription"}),
        "moto creates the topic by name with its inline subscriptions only",
    ),
    "AWS::IAM::Role": (
        frozenset(
            {
                "RoleName",
                "AssumeRolePolicyDocument",
                "Path",
                "PermissionsBoundary",
                "Description",
                "Tags",
                "MaxSessionDuration",
            }
        ),
        "moto ignores ManagedPolicyArns and stores inline Policies as a Python repr, not JSON",
    ),
    "AWS::Lambda::Function": (
        frozenset(
            {
                "Code",
                "FunctionName",
                "Handler",
                "Role",
                "Runtime",
                "Description",
                "MemorySize",
                "Timeout",
                "VpcConfig",
                "Environment",
                "ReservedConcurrentExecutions",
                # set on the model by cfn_declared.MODEL_SETTERS
                "Architectures",
            }
        ),
        "moto's create copies a fixed list of properties (no Tags, TracingConfig, Layers, ...)",
    ),
    "AWS::DynamoDB::Table": (
        frozenset(
            {
                "TableName",
                "KeySchema",
                "AttributeDefinitions",
                "GlobalSecondaryIndexes",
                "LocalSecondaryIndexes",
                "ProvisionedThroughput",
                "BillingMode",
                "StreamSpecification",
                "Tags",
                "DeletionProtectionEnabled",
                "SSESpecification",
                "WarmThroughput",
            }
        ),
        "moto's create ignores point-in-time recovery, TTL and the rest",
    ),
    "AWS::Logs::LogGroup": (
        frozenset({"LogGroupName", "RetentionInDays", "Tags"}),
        "moto reads KmsKeyId under another name and ignores the rest",
    ),
    "AWS::Events::Rule": (
        frozenset(
            {
                "Name",
                "Description",
                "EventBusName",
                "EventPattern",
                "ScheduleExpression",
                "State",
                "RoleArn",
                "Targets",
                "Tags",
            }
        ),
        "moto applies every rule property and stores targets whole",
    ),
}

#: Types moto's CloudFormation does not create at all -> what the patch does
#: and the physical id it reports (as real CloudFormation does).
CREATED_TYPES = {
    "AWS::S3::BucketPolicy": "PutBucketPolicy; physical id: the bucket name",
    "AWS::SQS::QueuePolicy": "SetQueueAttributes(Policy) on each queue; physical id: <stack>-<logical id>-<suffix>",
    "AWS::SNS::Subscription": "Subscribe, then the declared attributes; physical id: the subscription ARN",
    # The per-service reader types (issue 46) whose service moto serves
    # (moto_patches/cfn_readers.py); the reader finds each by its declared
    # properties or by these physical ids.
    "AWS::EC2::NetworkAclEntry": "CreateNetworkAclEntry; physical id: <stack>-<logical id>-<suffix>",
    "AWS::CodeBuild::Project": "CreateProject; physical id: the project name",
    "AWS::DAX::Cluster": "CreateCluster; physical id: the cluster name (lower-case, at most 20 characters)",
    "AWS::DMS::ReplicationInstance": "CreateReplicationInstance; physical id: the instance ARN",
    "AWS::LakeFormation::Resource": "RegisterResource; physical id: <stack>-<logical id>-<suffix>",
    "AWS::ElasticLoadBalancingV2::ListenerCertificate": (
        "AddListenerCertificates; physical id: <stack>-<logical id>-<suffix>"
    ),
    # Served by the emulator's own service patches (cloudwatch_anomaly, client_vpn).
    "AWS::CloudWatch::AnomalyDetector": "PutAnomalyDetector; physical id: <stack>-<logical id>-<suffix>",
    "AWS::EC2::ClientVpnEndpoint": "CreateClientVpnEndpoint; physical id: the endpoint id (cvpn-endpoint-...)",
    "AWS::EC2::ClientVpnTargetNetworkAssociation": (
        "AssociateClientVpnTargetNetwork; physical id: the association id (cvpn-assoc-...)"
    ),
    # moto's RDS API serves DocumentDB once moto_patches/docdb.py admits the engine.
    "AWS::DocDB::DBCluster": "CreateDBCluster (engine docdb); physical id: the cluster identifier (lower-case)",
    "AWS::DocDB::DBInstance": "CreateDBInstance (engine docdb); physical id: the instance identifier (lower-case)",
}

#: Types moto creates with no (or another) physical id -> the patch's fix.
PHYSICAL_ID_FIXES = {
    "AWS::Lambda::Permission": (
        "moto adds the statement with a random Sid and lists no physical id: the Sid is "
        "<stack>-<logical id>-<suffix>, which is also the physical id, as CloudFormation does"
    ),
    "AWS::Events::EventBus": (
        "moto creates the bus but has no physical id for it (its Ref is the bus object itself): "
        "the patch reports the bus name, as CloudFormation does"
    ),
    "AWS::EC2::SecurityGroupIngress": (
        "moto authorizes the rule but lists no physical id: the patch authorizes it through "
        "the EC2 API and reports the rule id (sgr-...), as CloudFormation does"
    ),
}

#: Types whose physical id moto spells differently from CloudFormation, for
#: some declarations -> the fix (no resource is missing: only the id).
PHYSICAL_ID_SPELLINGS = {
    "AWS::Events::Rule": (
        "moto reports the rule name; CloudFormation reports <bus>|<name> for a rule on a "
        "custom event bus (the name alone on the default bus)"
    ),
}

#: Types nothing in the emulator creates: asserted emulator gaps.
ASSERTED_GAPS = {
    "AWS::CDK::Metadata": "moto does not create CDK metadata (no AWS effect; realdrift skips the type)",
}


def ignored_properties(type_name: str, properties: dict) -> list:
    """The declared properties of a served type that moto's create leaves
    for the patch to apply (template order)."""
    native, _ = NATIVE_PROPERTIES.get(type_name, (None, ""))
    if native is None:
        return []
    return [p for p in properties if p not in native]
