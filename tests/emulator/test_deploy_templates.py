"""Hand-written YAML templates (tests/fixtures/templates) deploy with
parameters, and the properties moto's CloudFormation ignores take effect as
real CloudFormation would apply them; what the emulator cannot apply fails
the deploy naming it, and a type nothing creates is an asserted gap."""

import json
import os
import subprocess
import sys
import uuid

import pytest

import deploy_fixture

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATES = os.path.join(HERE, "..", "fixtures", "templates")


def _deploy(prefix, template, *parameters):
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    return deploy_fixture.deploy(name, os.path.join(TEMPLATES, template), parameters=list(parameters))


def _ids(stack) -> dict:
    return {r["logicalId"]: r["physicalId"] for r in stack["resources"]}


def _model(cc, rtype, ident):
    return json.loads(cc.get_resource(TypeName=rtype, Identifier=ident)["ResourceDescription"]["Properties"])


@pytest.fixture(scope="module")
def storage(emulator):
    return _deploy("Storage", "storage.yaml", "Env=prod", "RetentionDays=7")


@pytest.fixture(scope="module")
def orders(emulator):
    return _deploy("Orders", "orders-service.yaml", "Env=staging")


def test_every_resource_is_created(storage, orders):
    for stack in (storage, orders):
        assert stack["emulatorGaps"] == []
        assert all(r["physicalId"] for r in stack["resources"]), stack["resources"]


def test_bucket_configurations_take_effect(storage, cc, aws):
    ids = _ids(storage)
    model = _model(cc, "AWS::S3::Bucket", ids["Documents"])
    assert model["VersioningConfiguration"] == {"Status": "Enabled"}
    assert model["ObjectLockEnabled"] is True
    # The RetentionDays parameter (a Number) reaches the bucket.
    assert model["ObjectLockConfiguration"]["Rule"]["DefaultRetention"] == {"Mode": "GOVERNANCE", "Days": 7}
    assert model["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["BucketKeyEnabled"] is True
    assert model["LoggingConfiguration"] == {"DestinationBucketName": ids["AccessLogs"], "LogFilePrefix": "documents/"}
    notification = model["NotificationConfiguration"]
    assert notification["EventBridgeConfiguration"] == {"EventBridgeEnabled": True}
    (queue_config,) = notification["QueueConfigurations"]
    assert queue_config["Event"] == "s3:ObjectCreated:*"
    assert queue_config["Queue"] == _model(cc, "AWS::SQS::Queue", ids["UploadEvents"])["Arn"]
    (rule,) = model["ReplicationConfiguration"]["Rules"]
    assert rule["Destination"] == {"Bucket": f"arn:aws:s3:::{ids['Replica']}", "StorageClass": "STANDARD_IA"}
    assert rule["Filter"] == {"Prefix": "reports/"} and rule["Id"] == "replicate-reports"
    assert {"Key": "env", "Value": "prod"} in model["Tags"]
    lifecycle = _model(cc, "AWS::S3::Bucket", ids["AccessLogs"])["LifecycleConfiguration"]
    assert lifecycle["Rules"][0]["ExpirationInDays"] == 90


def test_role_inline_policies_are_json(storage, cc):
    role = _model(cc, "AWS::IAM::Role", _ids(storage)["ReplicationRole"])
    (policy,) = role["Policies"]
    assert policy["PolicyName"] == "replicate"
    assert policy["PolicyDocument"]["Statement"][1]["Action"] == ["s3:ReplicateObject", "s3:ReplicateDelete"]


def test_table_function_and_rule_properties_take_effect(orders, cc):
    ids = _ids(orders)
    table = _model(cc, "AWS::DynamoDB::Table", ids["Orders"])
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 35}
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expiresAt", "Enabled": True}
    function = _model(cc, "AWS::Lambda::Function", ids["Worker"])
    assert {"Key": "team", "Value": "orders"} in function["Tags"]
    assert {"Key": "env", "Value": "staging"} in function["Tags"]
    dlq = _model(cc, "AWS::SQS::Queue", ids["FailedDeliveries"])["Arn"]
    (nightly,) = _model(cc, "AWS::Events::Rule", ids["Nightly"])["Targets"]
    assert nightly["DeadLetterConfig"] == {"Arn": dlq}
    assert nightly["RetryPolicy"] == {"MaximumRetryAttempts": 4, "MaximumEventAgeInSeconds": 3600}
    (placed,) = _model(cc, "AWS::Events::Rule", ids["OrderPlaced"])["Targets"]
    assert placed["InputTransformer"]["InputPathsMap"] == {"orderId": "$.detail.orderId"}


def test_subscriptions_carry_their_attributes(orders, cc):
    ids = _ids(orders)
    email = _model(cc, "AWS::SNS::Subscription", ids["AlertsByEmail"])
    assert email["FilterPolicy"] == {"severity": ["high", "critical"]}
    assert email["FilterPolicyScope"] == "MessageAttributes"
    assert email["Endpoint"] == "orders-oncall@example.com"
    audit = _model(cc, "AWS::SNS::Subscription", ids["AlertsToAudit"])
    assert audit["RawMessageDelivery"] is True
    assert audit["RedrivePolicy"]["deadLetterTargetArn"].endswith(ids["FailedDeliveries"].rsplit("/", 1)[1])


def test_a_property_the_emulator_cannot_apply_fails_the_deploy(tmp_path, emulator):
    template = tmp_path / "table.yaml"
    template.write_text(
        "Resources:\n"
        "  Archive:\n"
        "    Type: AWS::DynamoDB::Table\n"
        "    Properties:\n"
        "      BillingMode: PAY_PER_REQUEST\n"
        "      TableClass: STANDARD_INFREQUENT_ACCESS\n"
        "      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]\n"
        "      KeySchema: [{AttributeName: pk, KeyType: HASH}]\n"
    )
    with pytest.raises(deploy_fixture.DeployError) as err:
        deploy_fixture.deploy(f"NoWriter{uuid.uuid4().hex[:6]}", str(template))
    assert "Archive (AWS::DynamoDB::Table)" in str(err.value) and "TableClass" in str(err.value)


def test_a_reader_type_property_the_create_does_not_pass_on_fails_the_deploy(tmp_path, aws):
    # moto_patches.cfn_readers: a declared property the service call would
    # drop fails the deploy, naming it, instead of leaving the stack short.
    role = aws.iam.create_role(RoleName=f"dax-{uuid.uuid4().hex[:6]}", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    template = tmp_path / "dax.yaml"
    template.write_text(
        "Resources:\n"
        "  Cache:\n"
        "    Type: AWS::DAX::Cluster\n"
        "    Properties:\n"
        "      NodeType: dax.t3.small\n"
        "      ReplicationFactor: 1\n"
        f"      IAMRoleARN: {role}\n"
        "      PreferredMaintenanceWindow: sun:05:00-sun:06:00\n"
    )
    with pytest.raises(deploy_fixture.DeployError) as err:
        deploy_fixture.deploy(f"DaxWindow{uuid.uuid4().hex[:6]}", str(template))
    assert "Cache (AWS::DAX::Cluster)" in str(err.value) and "PreferredMaintenanceWindow" in str(err.value)


def test_cdk_metadata_is_an_asserted_gap(tmp_path, emulator):
    template = tmp_path / "meta.yaml"
    template.write_text(
        "Resources:\n"
        "  Queue:\n"
        "    Type: AWS::SQS::Queue\n"
        "  CDKMetadata:\n"
        "    Type: AWS::CDK::Metadata\n"
        "    Properties:\n"
        "      Analytics: v2:deflate64:H4sIAAAAAAAA\n"
    )
    stack = deploy_fixture.deploy(f"Meta{uuid.uuid4().hex[:6]}", str(template))
    assert [(g["logicalId"], g["type"]) for g in stack["emulatorGaps"]] == [("CDKMetadata", "AWS::CDK::Metadata")]
    assert _ids(stack)["CDKMetadata"] is None and _ids(stack)["Queue"]


def test_yaml_short_forms_load_as_long_forms():
    template = deploy_fixture.load_template(
        "Resources:\n"
        "  T:\n"
        "    Type: AWS::SNS::Topic\n"
        "    Properties:\n"
        "      DisplayName: !Sub '${AWS::StackName}-alerts'\n"
        "      TopicName: !Join ['-', [!Ref Env, !GetAtt Q.QueueName]]\n"
        "      Tags: !If [IsProd, [{Key: a, Value: !Select [0, !Split [',', 'x,y']]}], !Ref AWS::NoValue]\n"
    )
    props = template["Resources"]["T"]["Properties"]
    assert props["DisplayName"] == {"Fn::Sub": "${AWS::StackName}-alerts"}
    assert props["TopicName"] == {"Fn::Join": ["-", [{"Ref": "Env"}, {"Fn::GetAtt": ["Q", "QueueName"]}]]}
    assert props["Tags"]["Fn::If"][1][0]["Value"] == {"Fn::Select": [0, {"Fn::Split": [",", "x,y"]}]}


def test_bad_template_and_parameter_are_clear_errors():
    with pytest.raises(deploy_fixture.DeployError, match="no Resources"):
        deploy_fixture.load_template("just: text\n")
    with pytest.raises(deploy_fixture.DeployError, match="KEY=VALUE"):
        deploy_fixture.parse_parameters(["Env"])
    assert deploy_fixture.parse_parameters(["A=b=c"]) == [{"ParameterKey": "A", "ParameterValue": "b=c"}]


def test_cli_takes_a_yaml_template_and_parameters(emulator):
    name = f"OrdersCli{uuid.uuid4().hex[:6]}"
    out = subprocess.run(
        [
            sys.executable,
            os.path.join(HERE, "deploy_fixture.py"),
            name,
            "--template",
            os.path.join(TEMPLATES, "orders-service.yaml"),
            "--parameter",
            "Env=dev",
            "--parameter",
            "AlertEmail=dev@example.com",
        ],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ),
    ).stdout
    summary = json.loads(out)
    assert summary["stackName"] == name
    assert {r["logicalId"] for r in summary["resources"]} >= {"Orders", "Worker", "AlertsByEmail"}
    missing = subprocess.run(
        [sys.executable, os.path.join(HERE, "deploy_fixture.py"), name + "x", "--template", os.path.join(TEMPLATES, "orders-service.yaml")],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert missing.returncode == 1 and "Env" in missing.stderr


def test_docdb_cluster_and_instance_deploy_through_the_documentdb_api(tmp_path, aws):
    # moto_patches.cfn_readers: AWS::DocDB::* are created with CreateDBCluster /
    # CreateDBInstance; a property the create does not pass on fails the deploy.
    template = tmp_path / "docdb.yaml"
    body = (
        "Parameters:\n"
        "  Password: {Type: String, NoEcho: true}\n"
        "Resources:\n"
        "  Docs:\n"
        "    Type: AWS::DocDB::DBCluster\n"
        "    Properties:\n"
        "      MasterUsername: docsadmin\n"
        "      MasterUserPassword: {Ref: Password}\n"
        "      StorageEncrypted: true\n"
        "      DeletionProtection: false\n"
        "  DocsOne:\n"
        "    Type: AWS::DocDB::DBInstance\n"
        "    Properties:\n"
        "      DBClusterIdentifier: {Ref: Docs}\n"
        "      DBInstanceClass: db.t3.medium\n"
    )
    template.write_text(body)
    stack = deploy_fixture.deploy(f"Docs{uuid.uuid4().hex[:6]}", str(template),
                                  parameters=["Password=not-a-real-secret-3"])
    ids = _ids(stack)
    docdb = aws.service("docdb")
    (c,) = docdb.describe_db_clusters(DBClusterIdentifier=ids["Docs"])["DBClusters"]
    (i,) = docdb.describe_db_instances(DBInstanceIdentifier=ids["DocsOne"])["DBInstances"]
    assert (c["Engine"], c["StorageEncrypted"], i["DBClusterIdentifier"]) == ("docdb", True, ids["Docs"])
    template.write_text(body + "      EnablePerformanceInsights: true\n")
    with pytest.raises(deploy_fixture.DeployError) as err:
        deploy_fixture.deploy(f"DocsPi{uuid.uuid4().hex[:6]}", str(template), parameters=["Password=x-secret-4"])
    assert "DocsOne (AWS::DocDB::DBInstance)" in str(err.value) and "EnablePerformanceInsights" in str(err.value)
