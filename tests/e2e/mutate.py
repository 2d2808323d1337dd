#!/usr/bin/env python3
"""Out-of-band changes for the end-to-end tests, made through the service APIs
of the running emulator the way a console user would make them.

    mutate.py '[["op", arg, ...], ...]'

REALDRIFT_EMULATOR_ACCOUNT set: the changes are made in that moto account.

Each op runs in order; any failure exits 1 naming the op. Needs AWS_ENDPOINT_URL."""

import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "emulator"))

from cloudcontrol.aws import Aws  # noqa: E402

ROGUE_POLICY = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
}


def versioning(aws, bucket, status):
    aws.s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": status})


def accelerate(aws, bucket, status):
    aws.s3.put_bucket_accelerate_configuration(Bucket=bucket, AccelerateConfiguration={"Status": status})


def cors_put(aws, bucket, origin):
    rule = {"AllowedMethods": ["GET"], "AllowedOrigins": [origin], "MaxAgeSeconds": 300}
    aws.s3.put_bucket_cors(Bucket=bucket, CORSConfiguration={"CORSRules": [rule]})


def cors_delete(aws, bucket):
    aws.s3.delete_bucket_cors(Bucket=bucket)


def role_policy(aws, role, name, action):
    doc = json.loads(json.dumps(ROGUE_POLICY))
    doc["Statement"][0]["Action"] = action
    aws.iam.put_role_policy(RoleName=role, PolicyName=name, PolicyDocument=json.dumps(doc))


def queue_delete(aws, queue_url):
    # CloudFormation reports the queue URL with AWS's host; moto answers the
    # same queue by name on its own endpoint.
    name = queue_url.rstrip("/").rsplit("/", 1)[-1]
    url = aws.sqs.get_queue_url(QueueName=name)["QueueUrl"]
    aws.sqs.delete_queue(QueueUrl=url)


def topic_display_name(aws, topic_arn, name):
    aws.sns.set_topic_attributes(TopicArn=topic_arn, AttributeName="DisplayName", AttributeValue=name)


def subscribe(aws, topic_arn, protocol, endpoint):
    aws.sns.subscribe(TopicArn=topic_arn, Protocol=protocol, Endpoint=endpoint)


def trust_policy(aws, role, document):
    aws.iam.update_assume_role_policy(RoleName=role, PolicyDocument=document)


def create_bucket(aws, bucket):
    aws.s3.create_bucket(Bucket=bucket)


def put_object(aws, bucket, key, text):
    aws.s3.put_object(Bucket=bucket, Key=key, Body=text.encode())


def ssm_put(aws, name, value):
    import boto3

    ssm = boto3.client("ssm", endpoint_url=aws.endpoint_url, region_name=aws.region,
                       aws_access_key_id="testing", aws_secret_access_key="testing")
    ssm.put_parameter(Name=name, Value=value, Type="String", Overwrite=True)


def stack_in_review(aws, name):
    # A CREATE change set not yet executed leaves the stack REVIEW_IN_PROGRESS:
    # a stack that exists and is not settled.
    body = {"Resources": {"Q": {"Type": "AWS::SQS::Queue"}}}
    aws.cloudformation.create_change_set(StackName=name, ChangeSetName=f"{name}-pending",
                                         ChangeSetType="CREATE", TemplateBody=json.dumps(body))


def queue_fifo(aws, queue_url):
    # AWS refuses to change FifoQueue after creation (it is create-only);
    # moto accepts it, which is the one way to make a create-only property
    # differ in the emulator.
    name = queue_url.rstrip("/").rsplit("/", 1)[-1]
    url = aws.sqs.get_queue_url(QueueName=name)["QueueUrl"]
    aws.sqs.set_queue_attributes(QueueUrl=url, Attributes={"FifoQueue": "true"})


def cc_fault(_aws, operation, identifier, error_code, times=0):
    # Not a console change: makes the emulator's Cloud Control endpoint fail
    # writes to one resource (docs/emulator.md, POST /faults).
    body = {"operation": operation, "identifier": identifier, "errorCode": error_code, "times": times}
    req = urllib.request.Request(
        os.environ["AWS_ENDPOINT_URL_CLOUDCONTROL"] + "/faults", data=json.dumps(body).encode(), method="POST"
    )
    with urllib.request.urlopen(req, timeout=5):
        pass
def change_set(aws, stack, template_path):
    # A CREATE change set makes the stack exist in REVIEW_IN_PROGRESS, as on AWS.
    with open(template_path, encoding="utf-8") as f:
        body = f.read()
    aws.cloudformation.create_change_set(
        StackName=stack, ChangeSetName=f"{stack}-review", ChangeSetType="CREATE", TemplateBody=body
    )


def rule_disable(aws, physical_id):
    # A rule on a custom bus has the physical id <bus>|<name>.
    bus, _, name = physical_id.rpartition("|")
    aws.events.disable_rule(Name=name, EventBusName=bus or "default")


def sg_ingress(aws, group_id, port, cidr):
    aws.ec2.authorize_security_group_ingress(
        GroupId=group_id,
        IpPermissions=[{"IpProtocol": "tcp", "FromPort": port, "ToPort": port, "IpRanges": [{"CidrIp": cidr}]}],
    )


def stack_description(aws, stack, text):
    # A deploy that changes only the template (its Description): the stack's
    # own deploy, as far as on-change can tell from the template hash.
    body = aws.cloudformation.get_template(StackName=stack)["TemplateBody"]
    template = body if isinstance(body, dict) else json.loads(body)
    template["Description"] = text
    params = aws.cloudformation.describe_stacks(StackName=stack)["Stacks"][0].get("Parameters", [])
    aws.cloudformation.update_stack(
        StackName=stack, TemplateBody=json.dumps(template),
        Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM"],
        Parameters=[{"ParameterKey": p["ParameterKey"], "UsePreviousValue": True} for p in params],
    )


def queue_policy_stack(aws, stack, queue_url):
    # Another stack holding a queue policy on a watched queue: SQS keeps one
    # policy per queue, so it replaces the watched stack's own. An
    # out-of-band change made through CloudFormation.
    policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage", "Resource": "*"}]}
    template = {"Resources": {"Grant": {"Type": "AWS::SQS::QueuePolicy", "Properties": {
        "Queues": [queue_url], "PolicyDocument": policy}}}}
    aws.cloudformation.create_stack(StackName=stack, TemplateBody=json.dumps(template))


def role_policy_stack(aws, stack, role):
    # Another stack holding an inline policy attached to a watched role: a
    # deployer widens the role's rights through CloudFormation.
    template = {"Resources": {"Extra": {"Type": "AWS::IAM::Policy", "Properties": {
        "PolicyName": "extra-rights", "PolicyDocument": ROGUE_POLICY, "Roles": [role]}}}}
    aws.cloudformation.create_stack(StackName=stack, TemplateBody=json.dumps(template))


def role_create(aws, name, trusted_account):
    # A role another account may assume (the sweep's read role in a member).
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
             "Principal": {"AWS": f"arn:aws:iam::{trusted_account}:root"}}]}
    aws.iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(trust))


# Console-style changes to the per-service reader types (issue 46), each to
# the property that matters most for security.


def nacl_entry_open(aws, acl, rule_number):
    # The inbound rule opened to the whole internet, every protocol.
    aws.ec2.replace_network_acl_entry(NetworkAclId=acl, RuleNumber=int(rule_number), Egress=False,
                                      Protocol="-1", RuleAction="allow", CidrBlock="0.0.0.0/0")


def codebuild_privileged(aws, project):
    # "Privileged" ticked in the console: UpdateProject with the whole environment.
    codebuild = aws.service("codebuild")
    env = codebuild.batch_get_projects(names=[project])["projects"][0]["environment"]
    codebuild.update_project(name=project, environment=dict(env, privilegedMode=True))


def access_key_status(aws, user, key_id, status):
    aws.iam.update_access_key(UserName=user, AccessKeyId=key_id, Status=status)


def launch_template_default(aws, template_id, http_tokens):
    # A new version with IMDSv1 allowed again, published as the default.
    current = aws.ec2.describe_launch_template_versions(LaunchTemplateId=template_id, Versions=["$Default"])
    data = current["LaunchTemplateVersions"][0]["LaunchTemplateData"]
    data["MetadataOptions"] = dict(data.get("MetadataOptions", {}), HttpTokens=http_tokens)
    out = aws.ec2.create_launch_template_version(LaunchTemplateId=template_id, LaunchTemplateData=data)
    version = str(out["LaunchTemplateVersion"]["VersionNumber"])
    aws.ec2.modify_launch_template(LaunchTemplateId=template_id, DefaultVersion=version)


def record_upsert(aws, zone, name, rtype, value):
    # The record pointed elsewhere.
    aws.service("route53").change_resource_record_sets(HostedZoneId=zone, ChangeBatch={"Changes": [{
        "Action": "UPSERT",
        "ResourceRecordSet": {"Name": name, "Type": rtype, "TTL": 300, "ResourceRecords": [{"Value": value}]},
    }]})


def listener_certificate_remove(aws, listener, certificate):
    aws.service("elbv2").remove_listener_certificates(ListenerArn=listener,
                                                      Certificates=[{"CertificateArn": certificate}])


def dax_nodes(aws, cluster, count):
    aws.service("dax").increase_replication_factor(ClusterName=cluster, NewReplicationFactor=int(count))


def dms_minor_upgrades_off(aws, arn):
    # Automatic minor version upgrades (security patches) switched off, now.
    aws.service("dms").modify_replication_instance(ReplicationInstanceArn=arn, ApplyImmediately=True,
                                                   AutoMinorVersionUpgrade=False)


def dax_description(aws, cluster, text):
    aws.service("dax").update_cluster(ClusterName=cluster, Description=text)


def lake_location_role(aws, location, role):
    # The location's role changed in the console (UpdateResource).
    aws.service("lakeformation").update_resource(ResourceArn=location, RoleArn=role)


def docdb_cluster_unprotect(aws, cluster, retention_days):
    # "Modify cluster" in the console: deletion protection off, fewer days
    # of backups, applied now.
    aws.service("docdb").modify_db_cluster(DBClusterIdentifier=cluster, DeletionProtection=False,
                                           BackupRetentionPeriod=int(retention_days), ApplyImmediately=True)


def docdb_cluster_upgrade(aws, cluster, version):
    # "Modify cluster": the engine upgraded to a newer minor version.
    aws.service("docdb").modify_db_cluster(DBClusterIdentifier=cluster, EngineVersion=version, ApplyImmediately=True)


def docdb_instance_ca(aws, instance, ca):
    # "Modify instance": the server certificate's CA switched, applied now.
    aws.service("docdb").modify_db_instance(DBInstanceIdentifier=instance, CACertificateIdentifier=ca,
                                            ApplyImmediately=True)


OPS = {
    "docdb-cluster-unprotect": docdb_cluster_unprotect,
    "docdb-instance-ca": docdb_instance_ca,
    "docdb-cluster-upgrade": docdb_cluster_upgrade,
    "nacl-entry-open": nacl_entry_open,
    "codebuild-privileged": codebuild_privileged,
    "access-key-status": access_key_status,
    "launch-template-default": launch_template_default,
    "record-upsert": record_upsert,
    "listener-certificate-remove": listener_certificate_remove,
    "dax-nodes": dax_nodes,
    "dms-minor-upgrades-off": dms_minor_upgrades_off,
    "dax-description": dax_description,
    "lake-location-role": lake_location_role,
    "role-create": role_create,
    "stack-description": stack_description,
    "role-policy-stack": role_policy_stack,
    "queue-policy-stack": queue_policy_stack,
    "versioning": versioning,
    "accelerate": accelerate,
    "cors-put": cors_put,
    "cors-delete": cors_delete,
    "role-policy": role_policy,
    "queue-delete": queue_delete,
    "topic-display-name": topic_display_name,
    "subscribe": subscribe,
    "create-bucket": create_bucket,
    "put-object": put_object,
    "ssm-put": ssm_put,
    "stack-in-review": stack_in_review,
    "queue-fifo": queue_fifo,
    "cc-fault": cc_fault,
    "change-set": change_set,
    "rule-disable": rule_disable,
    "sg-ingress": sg_ingress,
    "trust-policy": trust_policy,
}


def main() -> int:
    """Runs the ops given as one JSON argument."""
    if len(sys.argv) != 2 or "AWS_ENDPOINT_URL" not in os.environ:
        print(__doc__, file=sys.stderr)
        return 2
    aws = Aws(
        os.environ["AWS_ENDPOINT_URL"],
        os.environ.get("AWS_REGION", "us-east-1"),
        account=os.environ.get("REALDRIFT_EMULATOR_ACCOUNT"),
    )
    for op in json.loads(sys.argv[1]):
        name, args = op[0], op[1:]
        try:
            OPS[name](aws, *args)
        except Exception as err:  # noqa: BLE001 - report any failure with its op
            print(f"mutate: {name} {args}: {err}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
