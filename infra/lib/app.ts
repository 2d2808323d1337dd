// Builds the app from context: shared by bin/realdrift.ts and the tests.
import { Annotations, App, DefaultStackSynthesizer } from 'aws-cdk-lib';
import { changePatterns, loadChangeRuleFacts } from './change-patterns';
import { loadConfig } from './config';
import { loadEventNames, loadGlobalSources } from './event-sources';
import { GlobalEventsStack, planGlobalEvents } from './global-events';
import { acknowledgeAccepted } from './nag-suppressions';
import { RealdriftStack } from './realdrift-stack';
import { RealdriftOrganizationStack, loadOrganizationContext } from './organization';

/** Tags of the stack and its resources. */
export const STACK_TAGS = { app: 'realdrift' };

/** Options of `buildApp`. */
export interface BuildOptions {
  /** Apply the accepted cdk-nag findings (default true). */
  readonly acknowledgeNag?: boolean;
  /** The CLI's default Region (default: CDK_DEFAULT_REGION of the environment). */
  readonly defaultRegion?: string;
}

/** The id of the us-east-1 forwarder stack of a realdrift stack. */
export function globalEventsStackName(stackName: string): string {
  return `${stackName}GlobalEvents`;
}

/**
 * Adds the realdrift stack to an app, configured from the app's context, and
 * the us-east-1 forwarder of global services' events when the home Region
 * is elsewhere (throws when that cannot be decided; docs/deploy.md).
 */
export function buildApp(app: App, options: BuildOptions = {}): RealdriftStack {
  const config = loadConfig((key) => app.node.tryGetContext(key), options.defaultRegion ?? process.env.CDK_DEFAULT_REGION, process.env.CARGO_TARGET_DIR);
  const synthesizer = () => new DefaultStackSynthesizer({ generateBootstrapVersionRule: config.bootstrapVersionRule });
  const facts = loadChangeRuleFacts();
  const patterns = changePatterns(loadEventNames(config.cloudtrailEventsFile), facts);
  const stack = new RealdriftStack(app, config.stackName, config, patterns, {
    description: 'realdrift: drift detection for CloudFormation / CDK stacks (scan, on-change, revert)',
    synthesizer: synthesizer(),
    terminationProtection: config.terminationProtection,
    // Stack tags, which CloudFormation propagates to the resources: what a bill or an inventory groups realdrift by.
    tags: STACK_TAGS,
    // An explicit -c region pins the stack there; else it deploys where the CLI points.
    env: config.regionFromContext ? { region: config.region } : undefined,
  });
  const plan = planGlobalEvents({
    homeRegion: config.region,
    forwarder: config.globalEventsForwarder,
    patterns: stack.changePatterns,
    globalSources: loadGlobalSources(config.cloudtrailFactsFile),
    facts,
  });
  if (plan.kind === 'forward') {
    const forwarder = new GlobalEventsStack(app, globalEventsStackName(config.stackName), {
      description: `realdrift: forwards global services' CloudTrail change events from ${plan.from} to ${plan.to}`,
      synthesizer: synthesizer(),
      env: { region: plan.from },
      tags: STACK_TAGS,
      homeRegion: plan.to,
      patterns: plan.patterns,
      alertEmails: config.alertEmails,
    });
    if (options.acknowledgeNag ?? true) acknowledgeAccepted(forwarder);
  } else if (!config.globalEventsForwarder) {
    Annotations.of(stack).addWarningV2('realdrift:globalEvents', plan.why);
  }
  if (options.acknowledgeNag ?? true) acknowledgeAccepted(stack);
  return stack;
}

/**
 * Adds the Organization's hub stack (with the member StackSet) when context
 * `organizationId` is set (docs/organization.md); undefined otherwise.
 */
export function buildOrganizationApp(app: App, options: BuildOptions = {}): RealdriftOrganizationStack | undefined {
  const get = (key: string) => app.node.tryGetContext(key);
  const org = loadOrganizationContext(get);
  if (!org) return undefined;
  const config = loadConfig(get, options.defaultRegion ?? process.env.CDK_DEFAULT_REGION, process.env.CARGO_TARGET_DIR);
  const patterns = changePatterns(loadEventNames(config.cloudtrailEventsFile), loadChangeRuleFacts());
  const stack = new RealdriftOrganizationStack(app, `${config.stackName}Hub`, {
    description: 'realdrift hub: findings bus, baselines bucket, alert delivery and the member StackSet of the Organization',
    synthesizer: new DefaultStackSynthesizer({ generateBootstrapVersionRule: config.bootstrapVersionRule }),
    terminationProtection: config.terminationProtection,
    tags: STACK_TAGS,
    env: config.regionFromContext ? { region: config.region } : undefined,
    config,
    patterns,
    ...org,
  });
  if (options.acknowledgeNag ?? true) acknowledgeAccepted(stack);
  return stack;
}
