//! The facts derived from the bundled registry schemas agree with the `schema`
//! block of every corpus case whose type the snapshot holds.
//!
//! The corpus was recorded over months against the live registry
//! (DescribeType), while the snapshot comes from cfn-lint's copy; where the two
//! schema versions differ, the case and field are listed in `KNOWN` below with
//! the reason. Every other difference fails the test, and so does a `KNOWN`
//! entry that no longer matches anything (so the table cannot go stale).
//!
//! `SCHEMA_CORPUS_DUMP=1` prints every difference in full.

mod corpus_support;

use corpus_support::{case_paths, corpus_dir};
use realdrift_core::schema::{BundledSchemas, SchemaFacts, SchemaSource};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Differences explained by the schema version a case was recorded with.
struct Known {
    /// Case file stems (`AWS__X__Y.Logical`), or a type (`AWS::X::Y`) for all its cases.
    selectors: &'static [&'static str],
    /// The `schema` fields that differ.
    fields: &'static [&'static str],
    /// Why (one line).
    reason: &'static str,
}

const fn k(
    selectors: &'static [&'static str],
    fields: &'static [&'static str],
    reason: &'static str,
) -> Known {
    Known {
        selectors,
        fields,
        reason,
    }
}

/// Every known difference. Categories: an older recorder counted
/// `conditionalCreateOnlyProperties` as createOnly (the current recorder does
/// not, and neither do we); the recorder drops from writeOnly what its per-type
/// readers read back (in realdrift that exemption belongs to the reader, not to
/// the schema facts); and plain schema changes between the registry version a
/// case was recorded against and cfn-lint 1.58.0's copy.
#[rustfmt::skip]
const KNOWN: &[Known] = &[
    k(&["AWS::ApiGatewayV2::Api"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ExecuteApiArn"),
    k(&["AWS__AppSync__GraphQLApi.ApiF70053CD"], &["createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (LambdaAuthorizerConfig.AuthorizerResultTtlInSeconds, LambdaAuthorizerConfig.AuthorizerUri, LambdaAuthorizerConfig.IdentityValidationExpression (+8)) as createOnly"),
    k(&["AWS__AutoScaling__AutoScalingGroup.AsgNotifMetrics", "AWS__AutoScaling__AutoScalingGroup.AutoScalingGroupASG804C35BE", "AWS__AutoScaling__AutoScalingGroup.AzReorder"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (LaunchConfigurationName, LaunchTemplate, MixedInstancesPolicy (+1)) as createOnly"),
    k(&["AWS::Batch::ComputeEnvironment"], &["createOnly"], "schema changed since recording: recorded schema had EksConfiguration"),
    k(&["AWS::Batch::ComputeEnvironment"], &["createOnlyPaths"], "schema changed since recording: recorded schema had EksConfiguration; cfn-lint 1.58.0 has ComputeResources.ManagedInstancesProvider.InstanceLaunchTemplate.CapacityOptionType, ComputeResources.ManagedInstancesProvider.InstanceLaunchTemplate.FipsEnabled, EksConfiguration.EksClusterArn (+1)"),
    k(&["AWS::Batch::ComputeEnvironment"], &["freeFormMapPaths"], "schema changed since recording: cfn-lint 1.58.0 has ComputeResources.CapacityTags"),
    k(&["AWS::Batch::ComputeEnvironment"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has EksConfiguration.AccessEntry.Status"),
    k(&["AWS::Batch::ComputeEnvironment"], &["unorderedScalarPaths"], "schema changed since recording: cfn-lint 1.58.0 has ComputeResources.ManagedInstancesProvider.InstanceLaunchTemplate.InstanceRequirements.AllowedInstanceTypes, ComputeResources.ManagedInstancesProvider.InstanceLaunchTemplate.NetworkConfiguration.SecurityGroups, ComputeResources.ManagedInstancesProvider.InstanceLaunchTemplate.NetworkConfiguration.Subnets"),
    k(&["AWS::BedrockAgentCore::Memory"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MemoryStrategies.*.CustomMemoryStrategy.RecordExpiryDurationDays, MemoryStrategies.*.EpisodicMemoryStrategy.RecordExpiryDurationDays, MemoryStrategies.*.SemanticMemoryStrategy.RecordExpiryDurationDays (+2)"),
    k(&["AWS::BedrockAgentCore::Memory"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MemoryStrategies.*.CustomMemoryStrategy.RecordExpirySpecification, MemoryStrategies.*.EpisodicMemoryStrategy.RecordExpirySpecification, MemoryStrategies.*.SemanticMemoryStrategy.RecordExpirySpecification (+2)"),
    k(&["AWS__Budgets__Budget.CfnBudgetCostForDaily"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Budget.BudgetName"),
    k(&["AWS__Budgets__Budget.MonthlyCost"], &["createOnly"], "schema changed since recording: cfn-lint 1.58.0 has NotificationsWithSubscribers"),
    k(&["AWS__Budgets__Budget.MonthlyCost"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Budget.BudgetName, NotificationsWithSubscribers"),
    k(&["AWS__Budgets__Budget.MonthlyCost"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Id"),
    k(&["AWS__Chatbot__SlackChannelConfiguration.SlackChannel"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has SlackWorkspaceId"),
    k(&["AWS__Chatbot__SlackChannelConfiguration.SlackChannel"], &["defaults"], "schema changed since recording: cfn-lint 1.58.0 has LoggingLevel, UserRoleRequired"),
    k(&["AWS::CloudWatch::AnomalyDetector"], &["writeOnlyPaths"], "schema changed since recording: recorded schema had MetricMathAnomalyDetector.MetricDataQueries.*.Label"),
    k(&["AWS__CodePipeline__Pipeline.PipelineC660917D"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Arn"),
    k(&["AWS__Cognito__IdentityPool.HuntIdPool"], &["writeOnly", "writeOnlyPaths"], "recorder drops CognitoEvents from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::Config::ConfigurationRecorder"], &["createOnly", "createOnlyPaths", "defaultPaths", "defaults", "writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has StartedOnCreate"),
    k(&["AWS::Config::ConfigurationRecorder"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks ResourceARN instead"),
    k(&["AWS::Config::DeliveryChannel"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::DAX::ParameterGroup"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Description"),
    k(&["AWS::DAX::ParameterGroup"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::DAX::SubnetGroup"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::DLM::LifecyclePolicy"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks PolicyId instead"),
    k(&["AWS::DMS::Endpoint"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ElasticsearchSettings.EndpointUri, MongoDbSettings.AuthType"),
    k(&["AWS::DMS::Endpoint"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks EndpointArn instead"),
    k(&["AWS::DMS::Endpoint"], &["writeOnly"], "schema changed since recording: cfn-lint 1.58.0 has ExtraConnectionAttributes, Password, ResourceIdentifier"),
    k(&["AWS::DMS::Endpoint"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has DocDbSettings.SecretsManagerSecretId, ExtraConnectionAttributes, GcpMySQLSettings.Password (+13)"),
    k(&["AWS::DMS::ReplicationSubnetGroup"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::DMS::ReplicationTask"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MigrationType"),
    k(&["AWS::DMS::ReplicationTask"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks ReplicationTaskArn instead"),
    k(&["AWS::DMS::ReplicationTask"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has CdcStartTime"),
    k(&["AWS__DynamoDB__GlobalTable.Data666C94C7", "AWS__DynamoDB__GlobalTable.GT.replicas"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (GlobalTableSourceArn, KeySchema, LocalSecondaryIndexes) as createOnly"),
    k(&["AWS__DynamoDB__Table.Classic397C6F85", "AWS__DynamoDB__Table.Data666C94C7", "AWS__DynamoDB__Table.OrdersA9B65338", "AWS__DynamoDB__Table.Sessions8896A56D", "AWS__DynamoDB__Table.Table", "AWS__DynamoDB__Table.TableCD117FA1"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (KeySchema) as createOnly"),
    k(&["AWS::EC2::CapacityReservation"], &["createOnly", "createOnlyPaths"], "schema changed since recording: recorded schema had TagSpecifications"),
    k(&["AWS::EC2::Instance"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: recorded schema had LaunchTemplate, LicenseSpecification; cfn-lint 1.58.0 has LicenseSpecifications"),
    k(&["AWS__EC2__Instance.HostB4E45AD7"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (AdditionalInfo, Affinity, BlockDeviceMappings (+9)) as createOnly"),
    k(&["AWS__EC2__LaunchTemplate.LaunchTemplate"], &["writeOnly", "writeOnlyPaths"], "recorder drops LaunchTemplateData from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS__EC2__NetworkInterface.EniMultiip"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (ConnectionTrackingSpecification, EnablePrimaryIpv6, PrivateIpAddresses) as createOnly"),
    k(&["AWS::EC2::PlacementGroup"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ParentGroupId"),
    k(&["AWS::EC2::PlacementGroup"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has GroupId"),
    k(&["AWS__EC2__Subnet.NetpublicSubnet2Subnet5183DBBB", "AWS__EC2__Subnet.WorkersVpcPrivateSubnet2Subnet0E2657D2", "AWS__EC2__Subnet.WorkersVpcPublicSubnet1Subnet76E41816", "AWS__EC2__Subnet.WorkersVpcPublicSubnet2Subnet2C3BFBD2"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (Ipv6CidrBlock) as createOnly"),
    k(&["AWS::EC2::VPC"], &["createOnly", "createOnlyPaths"], "schema changed since recording: recorded schema had InstanceTenancy; cfn-lint 1.58.0 has VpcEncryptionControl"),
    k(&["AWS::EC2::VPC"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has VpcEncryptionControl.ResourceExclusions, VpcEncryptionControl.ResourceExclusions.EgressOnlyInternetGateway, VpcEncryptionControl.ResourceExclusions.EgressOnlyInternetGateway.State (+26)"),
    k(&["AWS::EC2::VPC"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has VpcEncryptionControl.EgressOnlyInternetGatewayExclusion, VpcEncryptionControl.ElasticFileSystemExclusion, VpcEncryptionControl.InternetGatewayExclusion (+5)"),
    k(&["AWS::EC2::VPCEndpointService"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has PrivateDnsNameConfiguration.Name, PrivateDnsNameConfiguration.State, PrivateDnsNameConfiguration.Type (+1)"),
    k(&["AWS::EC2::VPCEndpointServicePermissions"], &["unorderedScalarPaths"], "schema changed since recording: cfn-lint 1.58.0 has AllowedPrincipals"),
    k(&["AWS::EC2::Volume"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has OutpostArn"),
    k(&["AWS__ECS__Service.BgService", "AWS__ECS__Service.HuntEc2Service", "AWS__ECS__Service.HuntFargateSvc"], &["writeOnly", "writeOnlyPaths"], "recorder drops ServiceConnectConfiguration, VolumeConfigurations from writeOnly (its reader reads them); GatewayConnectors is newer than the recording"),
    k(&["AWS__ECS__Service.Service"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has GatewayConnectors"),
    k(&["AWS__ECS__Service.Service", "AWS__ECS__Service.ServiceD69D759B"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (LaunchType) as createOnly"),
    k(&["AWS__ECS__Service.ServiceD69D759B"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has GatewayConnectors, Monitoring"),
    k(&["AWS__EFS__FileSystem.Files8E6940B8"], &["writeOnlyPaths"], "schema changed since recording: recorded schema had ReplicationConfiguration.Destinations.0.AvailabilityZoneName, ReplicationConfiguration.Destinations.0.KmsKeyId; cfn-lint 1.58.0 has ReplicationConfiguration.Destinations.*.AvailabilityZoneName, ReplicationConfiguration.Destinations.*.KmsKeyId"),
    k(&["AWS::EKS::Cluster"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has CertificateAuthority.Active.ActivatedBy, CertificateAuthority.Active.Id, CertificateAuthority.Data"),
    k(&["AWS__EKS__Cluster.Cluster"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ActiveCertificateAuthorityId, RollbackConfig"),
    k(&["AWS__EKS__Cluster.ClusterEksRich"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ActiveCertificateAuthorityId"),
    k(&["AWS__ElastiCache__CacheCluster.Cache", "AWS__ElastiCache__CacheCluster.Cache.logdelivery"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (IpDiscovery, PreferredAvailabilityZones) as createOnly"),
    k(&["AWS::ElastiCache::ReplicationGroup"], &["writeOnly", "writeOnlyPaths"], "recorder drops EngineVersion, NotificationTopicArn, PreferredMaintenanceWindow from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::ElastiCache::ServerlessCache"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ConnectionType, NetworkType"),
    k(&["AWS::ElastiCache::User"], &["writeOnly", "writeOnlyPaths"], "recorder drops AccessString from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::ElasticBeanstalk::ApplicationVersion"], &["createOnly", "createOnlyPaths", "writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has BuildConfiguration, ImageConfiguration, Process"),
    k(&["AWS__ElasticBeanstalk__Environment.EbEnvRead", "AWS__ElasticBeanstalk__Environment.LoadBalancedEnv"], &["writeOnly"], "schema changed since recording: cfn-lint 1.58.0 has OptionSettings"),
    k(&["AWS__ElasticBeanstalk__Environment.EbEnvRead", "AWS__ElasticBeanstalk__Environment.LoadBalancedEnv"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has OptionSettings, OptionSettings.*.Namespace, OptionSettings.*.OptionName (+2)"),
    k(&["AWS::Events::Rule"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has RuleName"),
    k(&["AWS__Events__Rule.EventPatternRule", "AWS__Events__Rule.Forward9800F3B2", "AWS__Events__Rule.MatrixRuleF1E32BBB", "AWS__Events__Rule.MatrixRuleF1E32BBB.drifted", "AWS__Events__Rule.Rule4C995B7F", "AWS__Events__Rule.TargetFill"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (EventBusName) as createOnly"),
    k(&["AWS::GlobalAccelerator::Accelerator"], &["defaultPaths", "defaults"], "schema changed since recording: cfn-lint 1.58.0 has FlowLogsEnabled"),
    k(&["AWS::Glue::Classifier"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has CsvClassifier.Name, GrokClassifier.Name, JsonClassifier.Name (+1)"),
    k(&["AWS::Glue::Classifier"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks Name instead"),
    k(&["AWS::Glue::SecurityConfiguration"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::Glue::SecurityConfiguration"], &["unorderedObjectArrayPaths"], "schema changed since recording: cfn-lint 1.58.0 has EncryptionConfiguration.S3Encryptions"),
    k(&["AWS::Glue::Table"], &["writeOnly"], "schema changed since recording: cfn-lint 1.58.0 has OpenTableFormatInput"),
    k(&["AWS::Glue::Table"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has OpenTableFormatInput, TableInput.ViewDefinition.Representations.*.ValidationConnection, TableInput.ViewDefinition.Representations.*.ViewExpandedText (+2)"),
    k(&["AWS__Glue__Table.Events", "AWS__Glue__Table.LogsTable", "AWS__Glue__Table.Var3IcebergTable"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has TableInput.Name"),
    k(&["AWS__Glue__Table.Events", "AWS__Glue__Table.LogsTable", "AWS__Glue__Table.Var3IcebergTable"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS__Glue__Table.EventsTable"], &["createOnly"], "schema changed since recording: cfn-lint 1.58.0 has CatalogId, Name"),
    k(&["AWS__Glue__Table.EventsTable"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has CatalogId, Name, TableInput.Name"),
    k(&["AWS__Glue__Table.LogsTable", "AWS__Glue__Table.Var3IcebergTable"], &["freeFormMapPaths"], "schema changed since recording: cfn-lint 1.58.0 has OpenTableFormatInput.IcebergInput.IcebergTableInput.Properties"),
    k(&["AWS__Glue__Table.LogsTable", "AWS__Glue__Table.Var3IcebergTable"], &["unorderedObjectArrayPaths"], "schema changed since recording: cfn-lint 1.58.0 has OpenTableFormatInput.IcebergInput.IcebergTableInput.WriteOrder.Fields, TableInput.StorageDescriptor.SortColumns"),
    k(&["AWS__Glue__Table.LogsTable", "AWS__Glue__Table.Var3IcebergTable"], &["unorderedScalarPaths"], "schema changed since recording: cfn-lint 1.58.0 has OpenTableFormatInput.IcebergInput.IcebergTableInput.Schema.IdentifierFieldIds, TableInput.StorageDescriptor.BucketColumns, TableInput.StorageDescriptor.SkewedInfo.SkewedColumnNames (+1)"),
    k(&["AWS::Glue::Workflow"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS__IAM__Role.ServiceRole"], &["createOnly", "createOnlyPaths", "defaults"], "schema changed since recording: cfn-lint 1.58.0 has Path"),
    k(&["AWS__Kinesis__Stream.EventsD32975C2"], &["defaults"], "older recorder took the default written beside a $ref (StreamModeDetails)"),
    k(&["AWS__KinesisFirehose__DeliveryStream.HuntStream"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has AmazonOpenSearchServerlessDestinationConfiguration.VpcConfiguration, AmazonopensearchserviceDestinationConfiguration.VpcConfiguration, ElasticsearchDestinationConfiguration.VpcConfiguration (+2)"),
    k(&["AWS__KinesisFirehose__DeliveryStream.HuntStream"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has HttpEndpointDestinationConfiguration.EndpointConfiguration.AccessKey, HttpEndpointDestinationConfiguration.ProcessingConfiguration, HttpEndpointDestinationConfiguration.S3Configuration.EncryptionConfiguration.KMSEncryptionConfig.AWSKMSKeyARN (+18)"),
    k(&["AWS::LakeFormation::PrincipalPermissions"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Catalog"),
    k(&["AWS__Lambda__EventSourceMapping.QueueTrigger"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has SelfManagedEventSource, StartingPosition, StartingPositionTimestamp"),
    k(&["AWS__Lambda__EventSourceMapping.QueueTrigger"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has EventSourceMappingArn, Id"),
    k(&["AWS__Lambda__Function.AliasedFn19257E6A", "AWS__Lambda__Function.ApiFnE0725F78", "AWS__Lambda__Function.FnEnvRemoved", "AWS__Lambda__Function.FreeFormEnvVar.drifted", "AWS__Lambda__Function.Handler886CB40B", "AWS__Lambda__Function.Handler886CB40B_config_rich", "AWS__Lambda__Function.MatrixFn0598BE1E.drifted", "AWS__Lambda__Function.TestFn.injected-concurrency.drifted", "AWS__Lambda__Function.UrlFnE068003E"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (DurableConfig) as createOnly"),
    k(&["AWS__Lambda__Function.AliasedFn19257E6A", "AWS__Lambda__Function.ApiFnE0725F78", "AWS__Lambda__Function.FnEnvRemoved", "AWS__Lambda__Function.FreeFormEnvVar.drifted", "AWS__Lambda__Function.Handler886CB40B", "AWS__Lambda__Function.Handler886CB40B_config_rich", "AWS__Lambda__Function.MatrixFn0598BE1E.drifted", "AWS__Lambda__Function.TestFn.injected-concurrency.drifted", "AWS__Lambda__Function.UrlFnE068003E"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Code.S3ObjectStorageMode"),
    k(&["AWS__Lambda__Function.Handler.drifted"], &["defaults"], "recorded schema had defaults PackageType that cfn-lint's copy lacks"),
    k(&["AWS__Lambda__Function.Handler.drifted", "AWS__Lambda__Function.VpcHandler"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has PackageType, TenancyConfig"),
    k(&["AWS__Lambda__Function.Handler.drifted", "AWS__Lambda__Function.VpcHandler"], &["readOnly"], "schema changed since recording: cfn-lint 1.58.0 has SnapStartResponse"),
    k(&["AWS__Lambda__Function.Handler.drifted", "AWS__Lambda__Function.VpcHandler"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has SnapStartResponse, SnapStartResponse.ApplyOn, SnapStartResponse.OptimizationStatus"),
    k(&["AWS__Lambda__Function.Handler.drifted", "AWS__Lambda__Function.VpcHandler"], &["writeOnly"], "schema changed since recording: cfn-lint 1.58.0 has PublishToLatestPublished, SnapStart"),
    k(&["AWS__Lambda__Function.Handler.drifted", "AWS__Lambda__Function.VpcHandler"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Code.ImageUri, Code.S3Bucket, Code.S3Key (+7)"),
    k(&["AWS::Logs::DeliveryDestination"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has DeliveryDestinationPolicy"),
    k(&["AWS::MSK::Configuration"], &["writeOnly", "writeOnlyPaths"], "recorder drops ServerProperties from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::MediaConvert::JobTemplate"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::MediaConvert::JobTemplate"], &["unorderedObjectArrayPaths"], "schema changed since recording: cfn-lint 1.58.0 has HopDestinations"),
    k(&["AWS::MediaConvert::Queue"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::MemoryDB::ParameterGroup"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Parameters"),
    k(&["AWS::Neptune::DBInstance"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (AutoMinorVersionUpgrade, DBParameterGroupName, PreferredMaintenanceWindow) as createOnly"),
    k(&["AWS::NetworkManager::GlobalNetwork"], &["readOnly", "readOnlyPaths"], "schema changed since recording: recorded schema had CreatedAt, State"),
    k(&["AWS::OpenSearchService::Domain"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has EngineMode"),
    k(&["AWS__OpenSearchService__Domain.Domain66AC69E0"], &["createOnly"], "schema changed since recording: recorded schema had EncryptionAtRestOptions; cfn-lint 1.58.0 has EngineMode"),
    k(&["AWS__OpenSearchService__Domain.HuntOsDedMaster", "AWS__OpenSearchService__Domain.HuntOsMultiAz", "AWS__OpenSearchService__Domain.OpenSearch587998CD"], &["createOnly"], "schema changed since recording: cfn-lint 1.58.0 has EngineMode"),
    k(&["AWS::RDS::DBCluster"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (AvailabilityZones) as createOnly"),
    k(&["AWS::RDS::DBInstance"], &["readOnly"], "schema changed since recording: cfn-lint 1.58.0 has StorageOperationPercentProgress, StorageOperationStatus"),
    k(&["AWS::RDS::DBInstance"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has AdditionalStorageVolumes.*.StorageOperationPercentProgress, AdditionalStorageVolumes.*.StorageOperationStatus, StorageOperationPercentProgress (+1)"),
    k(&["AWS__RDS__DBInstance.DatabaseB269D8BB"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties as createOnly; its schema also had StorageType create-only"),
    k(&["AWS::RDS::DBParameterGroup"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has DBParameterGroupArn"),
    k(&["AWS__RDS__DBSubnetGroup.RdsSubnetGroup"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has DBSubnetGroupArn"),
    k(&["AWS__Redshift__Cluster.Warehouse"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ClusterIdentifier, ClusterSubnetGroupName, DBName (+4)"),
    k(&["AWS__Redshift__Cluster.Warehouse"], &["readOnly"], "schema changed since recording: cfn-lint 1.58.0 has ClusterNamespaceArn, DeferMaintenanceIdentifier, MasterPasswordSecretArn"),
    k(&["AWS__Redshift__Cluster.Warehouse"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has ClusterNamespaceArn, DeferMaintenanceIdentifier, Endpoint.Address (+2)"),
    k(&["AWS__Redshift__Cluster.Warehouse"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Classic, DeferMaintenance, DeferMaintenanceDuration (+2)"),
    k(&["AWS::RedshiftServerless::Workgroup"], &["writeOnly", "writeOnlyPaths"], "recorder drops ConfigParameters, SecurityGroupIds, SubnetIds from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::Route53::HostedZone"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has DelegationSetId"),
    k(&["AWS::Route53::RecordSet"], &["createOnly", "createOnlyPaths"], "schema changed since recording: recorded schema had Name"),
    k(&["AWS::Route53::RecordSet"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS::Route53::RecordSet"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Comment, HostedZoneName"),
    k(&["AWS__Route53__RecordSet.ARecord", "AWS__Route53__RecordSet.FailPrimary", "AWS__Route53__RecordSet.FailSecondary", "AWS__Route53__RecordSet.LatEuw1", "AWS__Route53__RecordSet.LatUse1", "AWS__Route53__RecordSet.TxtRecord"], &["defaultPaths"], "schema changed since recording: cfn-lint 1.58.0 has AliasTarget.EvaluateTargetHealth"),
    k(&["AWS__S3__Bucket.ArchiveDA4CB258", "AWS__S3__Bucket.Assets9A31D427", "AWS__S3__Bucket.AuditLogsB945E340", "AWS__S3__Bucket.Data666C94C7", "AWS__S3__Bucket.FirehoseSinkB757FE18"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MetadataConfiguration.AnnotationTableConfiguration.TableArn, MetadataConfiguration.AnnotationTableConfiguration.TableName"),
    k(&["AWS__S3__Bucket.ArchiveDA4CB258", "AWS__S3__Bucket.Assets9A31D427", "AWS__S3__Bucket.AuditLogsB945E340", "AWS__S3__Bucket.Data666C94C7", "AWS__S3__Bucket.FirehoseSinkB757FE18"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MetadataConfiguration.AnnotationTableConfiguration.EncryptionConfiguration"),
    k(&["AWS::SES::ReceiptFilter"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Filter.IpFilter, Filter.IpFilter.Cidr, Filter.IpFilter.Policy (+1)"),
    k(&["AWS::SES::ReceiptRule"], &["createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Rule.Name"),
    k(&["AWS::SES::ReceiptRule"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks RuleName instead"),
    k(&["AWS::SES::ReceiptRule"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has After"),
    k(&["AWS::SES::ReceiptRuleSet"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks"),
    k(&["AWS__SNS__Subscription.FilterPolicySub", "AWS__SNS__Subscription.InboxCdkrdIntegHarvest2Alerts473B90C08943AC11"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (Region) as createOnly"),
    k(&["AWS__SQS__Queue.EncryptedQueue", "AWS__SQS__Queue.WorkQueue"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has FifoQueue"),
    k(&["AWS__SQS__QueuePolicy.WorkQueuePolicy"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Id"),
    k(&["AWS::SSM::Association"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has InstanceId"),
    k(&["AWS__SSM__Document.Doc", "AWS__SSM__Document.Runbook"], &["createOnly", "createOnlyPaths"], "older recorder counted conditionalCreateOnlyProperties (Attachments, Content, DocumentFormat (+3)) as createOnly"),
    k(&["AWS__SSM__Parameter.FlagC3248847", "AWS__SSM__Parameter.GreetingParam", "AWS__SSM__Parameter.Param165332EC"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Arn"),
    k(&["AWS__SSM__Parameter.ListParam", "AWS__SSM__Parameter.PatParam"], &["writeOnly", "writeOnlyPaths"], "recorder drops AllowedPattern, Description, Tier from writeOnly because its per-type reader reads it (a reader concern here, not a schema fact)"),
    k(&["AWS::SageMaker::EndpointConfig"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has MetricsConfig"),
    k(&["AWS::SageMaker::EndpointConfig"], &["readOnly", "readOnlyPaths"], "recorded schema has a read-only Id property (older schema generation) that cfn-lint 1.58.0 lacks; cfn-lint marks EndpointConfigArn instead"),
    k(&["AWS__SecretsManager__Secret.DbSecret"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has GenerateSecretString, SecretString"),
    k(&["AWS::ServiceDiscovery::PrivateDnsNamespace"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Vpc"),
    k(&["AWS__ServiceDiscovery__Service.HuntPublicNsHuntService1926FAC1", "AWS__ServiceDiscovery__Service.NsSvcFBBB2FA7"], &["freeFormMapPaths"], "schema changed since recording: cfn-lint 1.58.0 has ServiceAttributes"),
    k(&["AWS__StepFunctions__StateMachine.Flow"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has StateMachineType"),
    k(&["AWS__StepFunctions__StateMachine.Flow"], &["readOnly", "readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Name, StateMachineRevisionId"),
    k(&["AWS__StepFunctions__StateMachine.Flow"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Definition, DefinitionS3Location, DefinitionSubstitutions"),
    k(&["AWS::Synthetics::Canary"], &["readOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Replicas.*.CanaryState, Replicas.*.LastModified, Replicas.*.ReplicationStatus (+1)"),
    k(&["AWS::Synthetics::Canary"], &["writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has Replicas.*.KmsKeyArn, Replicas.*.ResourcesToReplicateTags, Replicas.*.Tags"),
    k(&["AWS__Synthetics__Canary.Canary"], &["unorderedObjectArrayPaths"], "schema changed since recording: cfn-lint 1.58.0 has Replicas"),
    k(&["AWS::Transfer::Server"], &["writeOnly", "writeOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has CreateWithHostKey"),
    k(&["AWS::VerifiedPermissions::PolicyStore"], &["freeFormMapPaths"], "schema changed since recording: cfn-lint 1.58.0 has EncryptionSettings.KmsEncryptionSettings.EncryptionContext, EncryptionState.KmsEncryptionState.EncryptionContext"),
    k(&["AWS::VpcLattice::ResourceConfiguration"], &["unorderedScalarPaths"], "schema changed since recording: cfn-lint 1.58.0 has ResourceConfigurationDefinition.CidrResource.CidrRanges"),
    k(&["AWS::VpcLattice::ServiceNetwork"], &["createOnly", "createOnlyPaths"], "schema changed since recording: cfn-lint 1.58.0 has SharingConfig"),
    k(&["AWS::VpcLattice::ServiceNetworkVpcAssociation"], &["createOnly"], "schema changed since recording: recorded schema had DnsOptions, PrivateDnsEnabled"),
    k(&["AWS::VpcLattice::ServiceNetworkVpcAssociation"], &["createOnlyPaths"], "schema changed since recording: recorded schema had DnsOptions, DnsOptions.PrivateDnsPreference, DnsOptions.PrivateDnsSpecifiedDomains (+1)"),
];

/// The fields compared, in the case's own key names.
const LIST_FIELDS: &[&str] = &[
    "readOnly",
    "writeOnly",
    "createOnly",
    "readOnlyPaths",
    "writeOnlyPaths",
    "createOnlyPaths",
    "unorderedScalarPaths",
    "unorderedObjectArrayPaths",
    "freeFormMapPaths",
];
const MAP_FIELDS: &[&str] = &["defaults", "defaultPaths"];

fn derived_list<'a>(facts: &'a SchemaFacts, field: &str) -> &'a [String] {
    match field {
        "readOnly" => &facts.read_only,
        "writeOnly" => &facts.write_only,
        "createOnly" => &facts.create_only,
        "readOnlyPaths" => &facts.read_only_paths,
        "writeOnlyPaths" => &facts.write_only_paths,
        "createOnlyPaths" => &facts.create_only_paths,
        "unorderedScalarPaths" => &facts.unordered_scalar_paths,
        "unorderedObjectArrayPaths" => &facts.unordered_object_array_paths,
        "freeFormMapPaths" => &facts.free_form_map_paths,
        other => panic!("unknown field {other}"),
    }
}

fn derived_map<'a>(facts: &'a SchemaFacts, field: &str) -> &'a BTreeMap<String, Value> {
    match field {
        "defaults" => &facts.defaults,
        "defaultPaths" => &facts.default_paths,
        other => panic!("unknown field {other}"),
    }
}

/// A readable description of how two sets differ, or `None` when equal.
fn list_diff(expected: &Value, derived: &[String]) -> Option<String> {
    let expected: BTreeSet<&str> = expected
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let derived: BTreeSet<&str> = derived.iter().map(String::as_str).collect();
    (expected != derived).then(|| {
        format!(
            "only in case {:?}; only derived {:?}",
            expected.difference(&derived).collect::<Vec<_>>(),
            derived.difference(&expected).collect::<Vec<_>>()
        )
    })
}

fn map_diff(expected: &Value, derived: &BTreeMap<String, Value>) -> Option<String> {
    let empty = serde_json::Map::new();
    let expected = expected.as_object().unwrap_or(&empty);
    let only_case: Vec<String> = expected
        .iter()
        .filter(|(k, v)| derived.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let only_derived: Vec<String> = derived
        .iter()
        .filter(|(k, v)| expected.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    (!only_case.is_empty() || !only_derived.is_empty())
        .then(|| format!("only in case {only_case:?}; only derived {only_derived:?}"))
}

#[test]
fn derived_facts_agree_with_the_corpus_schema_blocks() {
    let dir = corpus_dir();
    let bundled = BundledSchemas::shared().expect("bundled snapshot loads");
    let paths = case_paths();
    assert!(!paths.is_empty(), "no corpus cases in {}", dir.display());

    let dump = std::env::var_os("SCHEMA_CORPUS_DUMP").is_some();
    // field -> (compared, equal, known)
    let mut figures: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut used: BTreeSet<(usize, &str)> = BTreeSet::new();
    let mut unexplained = Vec::new();
    let (mut cases, mut not_bundled) = (0, 0);
    for path in &paths {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let type_name = case["resource"]["resourceType"].as_str().unwrap();
        let Some(facts) = bundled.facts(type_name).unwrap() else {
            not_bundled += 1;
            continue;
        };
        cases += 1;
        let schema = &case["schema"];
        for field in LIST_FIELDS.iter().chain(MAP_FIELDS) {
            // Older cases predate the optional fields: compare only what the case has.
            let Some(expected) = schema.get(*field) else {
                continue;
            };
            let diff = if MAP_FIELDS.contains(field) {
                map_diff(expected, derived_map(&facts, field))
            } else {
                list_diff(expected, derived_list(&facts, field))
            };
            let entry = figures.entry(field).or_default();
            entry.0 += 1;
            let Some(diff) = diff else {
                entry.1 += 1;
                continue;
            };
            if dump {
                println!("DIFF {stem} {field}: {diff}");
            }
            let known = KNOWN.iter().position(|kn| {
                kn.fields.contains(field)
                    && kn.selectors.iter().any(|s| *s == stem || *s == type_name)
            });
            match known {
                Some(i) => {
                    used.insert((i, *field));
                    entry.2 += 1;
                }
                None => unexplained.push(format!("{stem} {field}: {diff}")),
            }
        }
    }

    println!("schema corpus agreement: {cases} cases compared, {not_bundled} skipped (type not in the snapshot)");
    for (field, (compared, equal, known)) in &figures {
        println!(
            "  {field:<26} {equal:>4}/{compared:<4} equal ({:.1}%), {known} known differences",
            100.0 * *equal as f64 / *compared as f64
        );
    }
    let stale: Vec<String> = KNOWN
        .iter()
        .enumerate()
        .flat_map(|(i, kn)| kn.fields.iter().map(move |f| (i, kn, *f)))
        .filter(|(i, _, f)| !used.contains(&(*i, *f)))
        .map(|(_, kn, f)| format!("{:?} {f} ({})", kn.selectors, kn.reason))
        .collect();
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(
        stale.is_empty(),
        "KNOWN entries that match nothing:\n{}",
        stale.join("\n")
    );
}
