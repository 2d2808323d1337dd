"""moto's service APIs, patched where they answered differently from AWS
(moto_patches.service_apis): what realdrift reads comes back as AWS sends it."""

import json
import uuid

import pytest
from botocore.exceptions import ClientError

import samples


def test_list_function_url_configs(aws):
    name = samples.function(aws)
    assert aws.lambda_.list_function_url_configs(FunctionName=name)["FunctionUrlConfigs"] == []
    url = aws.lambda_.create_function_url_config(FunctionName=name, AuthType="AWS_IAM")["FunctionUrl"]
    (config,) = aws.lambda_.list_function_url_configs(FunctionName=name)["FunctionUrlConfigs"]
    assert (config["FunctionUrl"], config["AuthType"]) == (url, "AWS_IAM")
    assert config["FunctionArn"].endswith(f":function:{name}")


def test_list_function_url_configs_of_a_missing_function_is_not_found(aws):
    try:
        aws.lambda_.list_function_url_configs(FunctionName="no-such-function")
    except aws.lambda_.exceptions.ResourceNotFoundException:
        return
    raise AssertionError("expected ResourceNotFoundException")


def test_point_in_time_recovery_reports_its_period(aws):
    name = samples.table(aws)  # PITR enabled without a period
    desc = aws.dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"] == 35
    aws.dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True, "RecoveryPeriodInDays": 7}
    )
    desc = aws.dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert desc["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"] == 7
    aws.dynamodb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False}
    )
    desc = aws.dynamodb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
    assert "RecoveryPeriodInDays" not in desc["PointInTimeRecoveryDescription"]


def test_object_lock_retention_answers_only_the_unit_set(aws):
    name = samples.bucket(aws)  # versioned
    aws.s3.put_object_lock_configuration(
        Bucket=name,
        ObjectLockConfiguration={"ObjectLockEnabled": "Enabled", "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Years": 1}}},
    )
    config = aws.s3.get_object_lock_configuration(Bucket=name)["ObjectLockConfiguration"]
    assert config["Rule"]["DefaultRetention"] == {"Mode": "COMPLIANCE", "Years": 1}


def _policy(bucket, statement):
    return json.dumps({"Version": "2012-10-17", "Statement": [{"Principal": "*", **statement}]})


def test_bucket_policy_ssl_condition_holds_as_over_tls(aws):
    name = samples.bucket(aws)
    resources = [f"arn:aws:s3:::{name}", f"arn:aws:s3:::{name}/*"]
    aws.s3.put_bucket_policy(
        Bucket=name,
        Policy=_policy(name, {"Effect": "Deny", "Action": "s3:*", "Resource": resources, "Condition": {"Bool": {"aws:SecureTransport": "false"}}}),
    )
    aws.s3.put_object(Bucket=name, Key="allowed", Body=b"1")
    aws.s3.put_bucket_policy(
        Bucket=name, Policy=_policy(name, {"Effect": "Deny", "Action": "s3:PutObject", "Resource": resources})
    )
    with pytest.raises(ClientError) as err:
        aws.s3.put_object(Bucket=name, Key="denied", Body=b"1")
    assert err.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403


def test_assume_role_needs_the_role_and_its_key_reads_that_account(aws):
    target = "arn:aws:iam::444455556666:role/realdrift-patch-test"
    with pytest.raises(ClientError) as denied:
        aws.sts.assume_role(RoleArn=target, RoleSessionName="realdrift")
    assert denied.value.response["Error"]["Code"] == "AccessDenied"
    other = type(aws)(aws.endpoint_url, aws.region, account="444455556666")
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
             "Principal": {"AWS": f"arn:aws:iam::{aws.account_id}:root"}}]}
    other.iam.create_role(RoleName="realdrift-patch-test", AssumeRolePolicyDocument=json.dumps(trust))
    creds = aws.sts.assume_role(RoleArn=target, RoleSessionName="realdrift")["Credentials"]
    assumed = type(aws)(aws.endpoint_url, aws.region, access_key=creds["AccessKeyId"])
    assert assumed.account_id == "444455556666"


def test_a_bus_policy_admits_only_what_it_grants():
    """moto_patches.events_org: the bus policy decides a cross-account put."""
    from moto_patches.events_org import bus_admits

    def policy(*statements):
        return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})

    org = {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "events:PutEvents", "Resource": "*",
           "Condition": {"StringEquals": {"aws:PrincipalOrgID": "o-nosuchorg1"}}}
    assert not bus_admits(policy(org), "111111111111"), "an account outside the organization"
    assert not bus_admits(None, "111111111111"), "no policy, no cross-account put"
    by_account = {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111111111111:root"},
                  "Action": "events:PutEvents", "Resource": "*"}
    assert bus_admits(policy(by_account), "111111111111")
    assert not bus_admits(policy(by_account), "222222222222")
    deny = dict(by_account, Effect="Deny")
    assert not bus_admits(policy(by_account, deny), "111111111111"), "a Deny wins"
    other_condition = dict(by_account, Condition={"StringEquals": {"aws:SourceAccount": "111111111111"}})
    assert not bus_admits(policy(other_condition), "111111111111"), "an unevaluated condition fails closed"


def test_codebuild_update_project_changes_what_batch_get_projects_answers(aws, emulator):
    codebuild = aws.service("codebuild")
    role = aws.iam.create_role(RoleName=f"cb-{uuid.uuid4().hex[:6]}", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    name = f"sample-build-{uuid.uuid4().hex[:6]}"
    env = {"type": "LINUX_CONTAINER", "image": "aws/codebuild/standard:7.0", "computeType": "BUILD_GENERAL1_SMALL",
           "privilegedMode": False}
    codebuild.create_project(name=name, source={"type": "S3", "location": "b/src.zip"},
                             artifacts={"type": "NO_ARTIFACTS"}, environment=env, serviceRole=role)
    codebuild.update_project(name=name, environment=dict(env, privilegedMode=True), description="edited")
    (project,) = codebuild.batch_get_projects(names=[name])["projects"]
    assert (project["environment"]["privilegedMode"], project["description"]) == (True, "edited")
    assert project["source"] == {"type": "S3", "location": "b/src.zip"}, "what the update did not name stays"
    with pytest.raises(ClientError) as err:
        codebuild.update_project(name="no-such-project", description="x")
    assert err.value.response["Error"]["Code"] == "ResourceNotFoundException"


def _raw_answer(client, operation: str, call) -> str:
    """The HTTP body of one call, as an SDK other than boto3 would parse it."""
    seen = []

    def keep(http_response, **_):
        seen.append(http_response.content.decode())

    event = f"after-call.{client.meta.service_model.service_name}.{operation}"
    client.meta.events.register(event, keep)
    try:
        call()
    finally:
        client.meta.events.unregister(event, keep)
    return seen[0]


def test_route53_record_values_are_plain_escaped_text(aws, emulator):
    route53 = aws.service("route53")
    zone = route53.create_hosted_zone(Name=f"z{uuid.uuid4().hex[:6]}.example.com", CallerReference=uuid.uuid4().hex)
    zone_id = zone["HostedZone"]["Id"].rsplit("/", 1)[-1]
    name = "txt." + zone["HostedZone"]["Name"]
    route53.change_resource_record_sets(HostedZoneId=zone_id, ChangeBatch={"Changes": [{
        "Action": "CREATE",
        "ResourceRecordSet": {"Name": name, "Type": "TXT", "TTL": 60, "ResourceRecords": [{"Value": '"a<b&c"'}]},
    }]})
    body = _raw_answer(route53, "ListResourceRecordSets", lambda: route53.list_resource_record_sets(
        HostedZoneId=zone_id, StartRecordName=name, StartRecordType="TXT", MaxItems="1"))
    assert "CDATA" not in body
    assert '<Value>&#34;a&lt;b&amp;c&#34;</Value>' in body or '<Value>&quot;a&lt;b&amp;c&quot;</Value>' in body, body


def test_dms_instance_create_time_is_epoch_seconds(aws, emulator):
    dms = aws.service("dms")
    ident = f"rep-{uuid.uuid4().hex[:6]}"
    arn = dms.create_replication_instance(ReplicationInstanceIdentifier=ident,
                                          ReplicationInstanceClass="dms.t3.micro")["ReplicationInstance"]["ReplicationInstanceArn"]
    body = _raw_answer(dms, "DescribeReplicationInstances", lambda: dms.describe_replication_instances(
        Filters=[{"Name": "replication-instance-arn", "Values": [arn]}]))
    (instance,) = json.loads(body)["ReplicationInstances"]
    assert isinstance(instance["InstanceCreateTime"], (int, float)), instance["InstanceCreateTime"]


def test_dax_update_cluster_changes_only_what_it_names(aws, emulator):
    dax = aws.service("dax")
    role = aws.iam.create_role(RoleName=f"dax-{uuid.uuid4().hex[:6]}", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    name = f"c{uuid.uuid4().hex[:8]}"
    dax.create_cluster(ClusterName=name, NodeType="dax.t3.small", ReplicationFactor=1, IamRoleArn=role,
                       Description="first")
    dax.update_cluster(ClusterName=name, Description="edited", SecurityGroupIds=["sg-1"],
                       NotificationTopicArn="arn:aws:sns:us-east-1:123456789012:t")
    (cluster,) = dax.describe_clusters(ClusterNames=[name])["Clusters"]
    assert cluster["Description"] == "edited"
    assert [g["SecurityGroupIdentifier"] for g in cluster["SecurityGroups"]] == ["sg-1"]
    assert cluster["NotificationConfiguration"]["TopicArn"] == "arn:aws:sns:us-east-1:123456789012:t"
    assert (cluster["TotalNodes"], cluster["NodeType"]) == (1, "dax.t3.small"), "what the update did not name stays"
    with pytest.raises(ClientError) as err:
        dax.update_cluster(ClusterName="no-such-cluster", Description="x")
    assert err.value.response["Error"]["Code"] == "ClusterNotFoundFault"


def test_dms_modify_replication_instance_changes_what_describe_answers(aws, emulator):
    dms = aws.service("dms")
    arn = dms.create_replication_instance(ReplicationInstanceIdentifier=f"rep-{uuid.uuid4().hex[:6]}",
                                          ReplicationInstanceClass="dms.t3.micro", AutoMinorVersionUpgrade=True,
                                          AllocatedStorage=50)["ReplicationInstance"]["ReplicationInstanceArn"]
    dms.modify_replication_instance(ReplicationInstanceArn=arn, ApplyImmediately=True, AutoMinorVersionUpgrade=False,
                                    VpcSecurityGroupIds=["sg-2"])
    (instance,) = dms.describe_replication_instances(
        Filters=[{"Name": "replication-instance-arn", "Values": [arn]}])["ReplicationInstances"]
    assert instance["AutoMinorVersionUpgrade"] is False
    assert [g["VpcSecurityGroupId"] for g in instance["VpcSecurityGroups"]] == ["sg-2"]
    assert instance["AllocatedStorage"] == 50, "what the modify did not name stays"
    with pytest.raises(ClientError) as err:
        dms.modify_replication_instance(ReplicationInstanceArn=arn + "-gone", MultiAZ=True)
    assert err.value.response["Error"]["Code"] == "ResourceNotFoundFault"


def test_lakeformation_update_resource_changes_the_role(aws, emulator):
    lf = aws.service("lakeformation")
    location = f"arn:aws:s3:::lake-{uuid.uuid4().hex[:6]}"
    lf.register_resource(ResourceArn=location, RoleArn="arn:aws:iam::123456789012:role/first")
    lf.update_resource(ResourceArn=location, RoleArn="arn:aws:iam::123456789012:role/second", WithFederation=False)
    info = lf.describe_resource(ResourceArn=location)["ResourceInfo"]
    assert (info["RoleArn"], info["WithFederation"]) == ("arn:aws:iam::123456789012:role/second", False)
    with pytest.raises(ClientError) as err:
        lf.update_resource(ResourceArn=location + "-gone", RoleArn="arn:aws:iam::123456789012:role/x")
    assert err.value.response["Error"]["Code"] == "EntityNotFoundException"


def test_adding_an_attached_listener_certificate_does_not_add_it_again(aws, emulator):
    acm, ec2, elbv2 = aws.service("acm"), aws.ec2, aws.service("elbv2")
    vpc = ec2.create_vpc(CidrBlock="10.9.0.0/16")["Vpc"]["VpcId"]
    subnets = [ec2.create_subnet(VpcId=vpc, CidrBlock=c, AvailabilityZone=z)["Subnet"]["SubnetId"]
               for c, z in (("10.9.1.0/24", "us-east-1a"), ("10.9.2.0/24", "us-east-1b"))]
    lb = elbv2.create_load_balancer(Name=f"lb-{uuid.uuid4().hex[:6]}", Subnets=subnets)["LoadBalancers"][0]
    default = acm.request_certificate(DomainName="a.example.com")["CertificateArn"]
    extra = acm.request_certificate(DomainName="b.example.com")["CertificateArn"]
    listener = elbv2.create_listener(LoadBalancerArn=lb["LoadBalancerArn"], Protocol="HTTPS", Port=443,
                                     Certificates=[{"CertificateArn": default}],
                                     DefaultActions=[{"Type": "fixed-response",
                                                      "FixedResponseConfig": {"StatusCode": "404"}}])
    arn = listener["Listeners"][0]["ListenerArn"]
    for _ in range(2):
        elbv2.add_listener_certificates(ListenerArn=arn, Certificates=[{"CertificateArn": extra}])
    certs = elbv2.describe_listener_certificates(ListenerArn=arn)["Certificates"]
    assert [c["CertificateArn"] for c in certs if not c.get("IsDefault")] == [extra]


def test_docdb_cluster_and_instance_are_created_described_and_modified(aws, emulator):
    # moto_patches.docdb: the RDS backend admits Engine "docdb" (DocumentDB's
    # API on the RDS endpoint) with DocumentDB's defaults where none is given.
    docdb = aws.service("docdb")
    cluster = f"docs-{uuid.uuid4().hex[:6]}"
    docdb.create_db_cluster(DBClusterIdentifier=cluster, Engine="docdb", MasterUsername="docsadmin",
                            MasterUserPassword="not-a-real-secret-1", StorageEncrypted=True,
                            DeletionProtection=True, BackupRetentionPeriod=7)
    instance = f"{cluster}-1"
    docdb.create_db_instance(DBInstanceIdentifier=instance, DBInstanceClass="db.t3.medium", Engine="docdb",
                             DBClusterIdentifier=cluster)
    (c,) = docdb.describe_db_clusters(DBClusterIdentifier=cluster)["DBClusters"]
    assert (c["Engine"], c["Port"], c["EngineVersion"], c["DBClusterParameterGroup"]) == (
        "docdb", 27017, "5.0.0", "default.docdb5.0")
    assert (c["DeletionProtection"], c["BackupRetentionPeriod"], c["StorageEncrypted"]) == (True, 7, True)
    assert "MasterUserPassword" not in c
    assert [m["DBInstanceIdentifier"] for m in c["DBClusterMembers"]] == [instance]
    (i,) = docdb.describe_db_instances(DBInstanceIdentifier=instance)["DBInstances"]
    assert (i["Engine"], i["DBClusterIdentifier"], i["DBInstanceClass"]) == ("docdb", cluster, "db.t3.medium")
    assert (c["StorageType"], i["AutoMinorVersionUpgrade"]) == ("standard", False)

    docdb.modify_db_cluster(DBClusterIdentifier=cluster, DeletionProtection=False, BackupRetentionPeriod=1,
                            ApplyImmediately=True)
    docdb.modify_db_instance(DBInstanceIdentifier=instance, DBInstanceClass="db.r5.large",
                             CACertificateIdentifier="rds-ca-rsa4096-g1", ApplyImmediately=True)
    (c,) = docdb.describe_db_clusters(DBClusterIdentifier=cluster)["DBClusters"]
    assert (c["DeletionProtection"], c["BackupRetentionPeriod"]) == (False, 1)
    (i,) = docdb.describe_db_instances(DBInstanceIdentifier=instance)["DBInstances"]
    assert (i["DBInstanceClass"], i["CACertificateIdentifier"]) == ("db.r5.large", "rds-ca-rsa4096-g1")
    with pytest.raises(ClientError) as err:
        docdb.describe_db_clusters(DBClusterIdentifier="no-such-cluster")
    assert err.value.response["Error"]["Code"] == "DBClusterNotFoundFault"


def test_an_rds_engine_moto_knew_keeps_its_own_defaults(aws, emulator):
    rds = aws.service("rds")
    cluster = f"pg-{uuid.uuid4().hex[:6]}"
    rds.create_db_cluster(DBClusterIdentifier=cluster, Engine="aurora-postgresql", MasterUsername="pgadmin",
                          MasterUserPassword="not-a-real-secret-2")
    (c,) = rds.describe_db_clusters(DBClusterIdentifier=cluster)["DBClusters"]
    assert (c["Port"], c["DBClusterParameterGroup"]) == (5432, "default.aurora8.0")
