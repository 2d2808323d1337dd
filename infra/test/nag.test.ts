// cdk-nag's AwsSolutions pack: zero unacknowledged findings, every
// acknowledgment comes from an ACCEPTED entry with a reason, and no entry is
// stale.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildOrganizationApp } from '../lib/app';
import { ACCEPTED, belowLevels } from '../lib/nag-suppressions';
import { cdkJsonContext, stubAssets, synth } from './helpers';

/** The Organization's hub stack (the hub function, the bus, the StackSet). */
function synthHub(acknowledgeNag: boolean): { app: App; stack: Stack } {
  const app = new App({
    context: {
      ...cdkJsonContext(),
      lambdaAssets: stubAssets(),
      organizationId: 'o-a1b2c3d4e5',
      stackSetOrganizationalUnits: 'ou-ab12-cdefgh34',
      stackSetRegions: 'eu-west-1',
      memberAssetBucketPrefix: 'acme-realdrift-assets',
      region: 'eu-west-1',
    },
  });
  return { app, stack: buildOrganizationApp(app, { acknowledgeNag, defaultRegion: 'eu-west-1' })! };
}

/** The default app and one with every optional part switched on. */
const VARIANTS: Record<string, unknown>[] = [
  {},
  {
    createTrail: true,
    alertEmails: ['ops@example.com'],
    githubRepository: 'acme/platform',
    revertPermissionsBoundary: 'RealdriftRevertBoundary',
    revertPassRoles: ['arn:aws:iam::123456789012:role/app-*'],
    slackSecret: 'team/realdrift-slack',
    slackSecretKmsKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
    architecture: 'arm64',
  },
  { githubRepository: 'acme/platform', githubOidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com', accessLogsBucket: 'central-logs' },
];

describe('cdk-nag AwsSolutions', () => {
  for (const context of VARIANTS) {
    it(`has no unacknowledged finding (${JSON.stringify(context)})`, () => {
      const { app, stack } = synth(context, { acknowledgeNag: true });
      const report = new AwsSolutionsChecks(app).validateScope(stack);
      const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
      assert.deepEqual(findings, []);
      assert.equal(report.success, true);
    });
  }

  it('has no unacknowledged finding in the Organization hub stack', () => {
    const { app, stack } = synthHub(true);
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    const findings = report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
    assert.deepEqual(findings, []);
  });

  it('every accepted kind of finding carries a reason and still occurs somewhere', () => {
    const used = new Set<number>();
    const apps = [...VARIANTS.map((context) => synth(context, { acknowledgeNag: false })), synthHub(false)];
    for (const { app, stack } of apps) {
      const report = new AwsSolutionsChecks(app).validateScope(stack);
      for (const v of report.violations) {
        for (const r of v.violatingResources) {
          const relative = belowLevels((r.constructPath ?? '').slice(stack.node.path.length));
          const i = ACCEPTED.findIndex((a) => a.finding.test(v.ruleName) && a.path.test(relative));
          assert.ok(i >= 0, `no acceptance for ${v.ruleName} at ${relative}`);
          used.add(i);
        }
      }
    }
    ACCEPTED.forEach((a, i) => {
      assert.ok(a.reason.length > 40, `acceptance ${a.finding} has no real reason`);
      assert.ok(used.has(i), `acceptance ${a.finding} at ${a.path} matches no finding (stale)`);
    });
  });

  it('a new unencrypted resource is not silently accepted', () => {
    const { app, stack } = synth({ stackName: 'RealdriftNagProbe' }, { acknowledgeNag: true });
    new sqs.Queue(stack, 'Careless', { encryption: sqs.QueueEncryption.UNENCRYPTED });
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    assert.equal(report.success, false);
    assert.ok(report.violations.some((v) => v.ruleName === 'AwsSolutions-SQS3' || v.ruleName === 'AwsSolutions-SQS4'));
  });
});
