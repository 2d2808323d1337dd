// Builds the app from context: shared by bin/realdrift.ts and the tests.
import { App, DefaultStackSynthesizer } from 'aws-cdk-lib';
import { loadConfig } from './config';
import { acknowledgeAccepted } from './nag-suppressions';
import { RealdriftStack } from './realdrift-stack';

/** Tags of the stack and its resources. */
export const STACK_TAGS = { app: 'realdrift' };

/** Adds the realdrift stack to an app, configured from the app's context. */
export function buildApp(app: App, options: { acknowledgeNag?: boolean } = {}): RealdriftStack {
  const config = loadConfig((key) => app.node.tryGetContext(key));
  const stack = new RealdriftStack(app, config.stackName, config, {
    description: 'realdrift: drift detection for CloudFormation / CDK stacks (scan, on-change, revert)',
    synthesizer: new DefaultStackSynthesizer({ generateBootstrapVersionRule: config.bootstrapVersionRule }),
    terminationProtection: config.terminationProtection,
    // Stack tags, which CloudFormation propagates to the resources: what a bill or an inventory groups realdrift by.
    tags: STACK_TAGS,
  });
  if (options.acknowledgeNag ?? true) acknowledgeAccepted(stack);
  return stack;
}
