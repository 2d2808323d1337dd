// One realdrift Lambda function: its own role, log group and error alarm, code
// from the zip `cargo lambda build --output-format zip` wrote.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Annotations, CfnRule, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { RealdriftConfig } from './config';
import { zipArchitecture } from './lambda-zip';

/** The settings every function shares (context architecture, lambdaAssets, logRetentionDays). */
export type FunctionSettings = Pick<RealdriftConfig, 'architecture' | 'lambdaAssets' | 'logRetentionDays'>;

/** What differs between the three functions. */
export interface RealdriftFunctionProps {
  /** The cargo binary name (`realdrift-scan`); its zip is `<lambdaAssets>/<binary>/bootstrap.zip`. */
  readonly binary: string;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  readonly alarmTopic: sns.ITopic;
  /** Where the code comes from instead of the zip under lambdaAssets (a StackSet member reads it from a regional bucket). */
  readonly code?: lambda.Code;
}

/** What to tell someone whose zips are missing. */
function buildHint(config: Pick<RealdriftConfig, 'architecture'>): string {
  return (
    `build the functions first (scripts/build-functions.sh --${config.architecture === 'arm64' ? 'arm64' : 'x86-64'}) ` +
    'or point -c lambdaAssets=DIR at the directory holding <binary>/bootstrap.zip'
  );
}

/**
 * The path of a function's zip, or undefined when it was not built. A zip
 * whose bootstrap is built for another machine than the function's
 * architecture fails synth: Lambda would only fail at its first invoke.
 */
export function assetZip(config: Pick<RealdriftConfig, 'architecture' | 'lambdaAssets'>, binary: string): string | undefined {
  const zip = path.join(config.lambdaAssets, binary, 'bootstrap.zip');
  if (!fs.existsSync(zip)) return undefined;
  const built = zipArchitecture(zip);
  if (built !== config.architecture) {
    throw new Error(
      `${zip} holds a ${built} binary but the functions are ${config.architecture} (context architecture): ` +
        `rebuild with scripts/build-functions.sh --${config.architecture === 'arm64' ? 'arm64' : 'x86-64'}, ` +
        `or deploy with -c architecture=${built}`,
    );
  }
  return zip;
}

/** An empty zip standing in for functions not built, so `cdk diff` and `cdk destroy` synthesize. */
function placeholderAsset(): string {
  const dir = path.join(os.tmpdir(), 'realdrift-unbuilt-function');
  const zip = path.join(dir, 'placeholder.zip');
  if (!fs.existsSync(zip)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
  }
  return zip;
}

/**
 * Code for a function: its zip, or — when it was not built — a placeholder
 * and a template rule CloudFormation evaluates before any change, so a
 * deploy is refused with the build hint while diff and destroy still work.
 */
export function functionCode(scope: Construct, config: Pick<RealdriftConfig, 'architecture' | 'lambdaAssets'>, binary: string): lambda.Code {
  const zip = assetZip(config, binary);
  if (zip) return lambda.Code.fromAsset(zip);
  const stack = Stack.of(scope);
  if (!stack.node.tryFindChild('FunctionZipsBuilt')) {
    new CfnRule(stack, 'FunctionZipsBuilt', {
      assertions: [
        {
          assert: Fn.conditionEquals('not built', 'built'),
          assertDescription: `The function zips were not found in ${config.lambdaAssets} at synth: ${buildHint(config)}`,
        },
      ],
    });
    Annotations.of(stack).addWarningV2('realdrift:unbuiltFunctions', `function zips not found in ${config.lambdaAssets}: deploy will be refused; ${buildHint(config)}`);
  }
  return lambda.Code.fromAsset(placeholderAsset());
}

/** A provided.al2023 function with a dedicated role (no AWS managed policy) and log group. */
export class RealdriftFunction extends Construct {
  readonly role: iam.Role;
  readonly function: lambda.Function;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, config: FunctionSettings, props: RealdriftFunctionProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `realdrift ${props.binary}`,
    });
    // Only its own log group: what AWSLambdaBasicExecutionRole grants, scoped.
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );
    this.function = new lambda.Function(this, 'Function', {
      description: props.description,
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: config.architecture === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      handler: 'bootstrap',
      code: props.code ?? functionCode(this, config, props.binary),
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: props.environment,
    });
    // No throttle alarm: a throttled invoke is retried and, if it never runs,
    // ends in an alarmed queue (docs/deploy.md, "Failure paths").
    new cloudwatch.Alarm(this, 'Errors', {
      alarmDescription: `realdrift: ${props.binary} failed (function errors)`,
      metric: this.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new cwActions.SnsAction(props.alarmTopic));
  }
}
