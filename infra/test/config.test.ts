// Point 8: configuration through context, with documented defaults and clear
// errors for bad values.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import { DEFAULT_REVERT_TYPES, INFRA_DIR, loadConfig } from '../lib/config';
import { REPO, cdkJsonContext, synth } from './helpers';

const from = (ctx: Record<string, unknown>) => loadConfig((k) => ctx[k]);

describe('configuration', () => {
  it('cdk.json states the real defaults', () => {
    assert.deepEqual(from(cdkJsonContext()), from({}));
    assert.deepEqual(from({}).revertTypes, DEFAULT_REVERT_TYPES);
  });

  it("cdk.json sets every feature flag aws-cdk-lib recommends, at the recommended value (synth reports none unconfigured)", () => {
    const recommended = JSON.parse(fs.readFileSync(require.resolve('aws-cdk-lib/recommended-feature-flags.json'), 'utf8'));
    const context = cdkJsonContext();
    const off = Object.entries(recommended).filter(([k, v]) => JSON.stringify(context[k]) !== JSON.stringify(v));
    assert.deepEqual(off, []);
  });

  it('documents every context key in docs/deploy.md', () => {
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'deploy.md'), 'utf8');
    const keys = Object.keys(cdkJsonContext()).filter((k) => !k.startsWith('@'));
    const undocumented = keys.filter((k) => !doc.includes(`\`${k}\``));
    assert.deepEqual(undocumented, []);
  });

  it('has the documented defaults', () => {
    const c = from({});
    assert.equal(c.stackName, 'Realdrift');
    assert.deepEqual(c.stacks, []);
    assert.equal(c.schedule, 'rate(1 hour)');
    assert.equal(c.architecture, 'x86_64');
    assert.equal(c.concurrency, 16);
    assert.equal(c.createTrail, false);
    assert.equal(c.slackSecret, undefined);
    assert.equal(c.revertPermissionsBoundary, undefined);
    assert.equal(c.lambdaAssets, path.join(REPO, 'target', 'lambda', 'x86_64'));
    assert.equal(c.baselinesDir, path.join(REPO, 'baselines'));
    assert.equal(c.cloudtrailEventsFile, path.join(REPO, 'core', 'data', 'cloudtrail-events.json'));
  });

  it('reads -c strings as lists, numbers and booleans', () => {
    const c = from({ stacks: 'Prod*, Api ,', alertEmails: 'a@example.com', concurrency: '8', createTrail: 'true', architecture: 'x86_64' });
    assert.deepEqual(c.stacks, ['Prod*', 'Api']);
    assert.deepEqual(c.alertEmails, ['a@example.com']);
    assert.equal(c.concurrency, 8);
    assert.equal(c.createTrail, true);
    assert.equal(c.architecture, 'x86_64');
  });

  it('anchors relative paths at infra/', () => {
    assert.equal(from({ lambdaAssets: 'build/lambda' }).lambdaAssets, path.join(INFRA_DIR, 'build', 'lambda'));
    assert.equal(from({ lambdaAssets: '/abs/lambda' }).lambdaAssets, '/abs/lambda');
  });

  it('looks for the zips where scripts/build-functions.sh writes them under CARGO_TARGET_DIR', () => {
    // The script writes ${CARGO_TARGET_DIR:-target}/lambda/<arch>, running cargo from the repository root.
    const get = (ctx: Record<string, unknown>) => (k: string) => ctx[k];
    assert.equal(loadConfig(get({}), undefined, '/tmp/t').lambdaAssets, path.join('/tmp/t', 'lambda', 'x86_64'));
    assert.equal(loadConfig(get({ architecture: 'arm64' }), undefined, 'out').lambdaAssets, path.join(REPO, 'out', 'lambda', 'arm64'));
    assert.equal(loadConfig(get({ lambdaAssets: '/abs/lambda' }), undefined, '/tmp/t').lambdaAssets, '/abs/lambda');
  });

  it('rejects bad values naming the key', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ architecture: 'ppc64' }, /context architecture: "ppc64" is not one of arm64, x86_64/],
      [{ alertEmails: ['not-an-address'] }, /context alertEmails: .*not-an-address/],
      [{ concurrency: 0 }, /context concurrency: 0 is not an integer from 1 to 128/],
      [{ concurrency: 'many' }, /context concurrency: "many"/],
      [{ createTrail: 'yes' }, /context createTrail: "yes" is not true or false/],
      [{ logRetentionDays: 31 }, /context logRetentionDays: 31 is not one of 1, 3, 5/],
      [{ schedule: 'hourly' }, /context schedule: "hourly"/],
      [{ changeDelaySeconds: 901 }, /context changeDelaySeconds: 901/],
      [{ revertTypes: ['s3 bucket'] }, /context revertTypes/],
      [{ githubRepository: 'no-slash' }, /context githubRepository/],
    ];
    for (const [ctx, re] of bad) assert.throws(() => from(ctx), re, JSON.stringify(ctx));
  });

  it('names the realdrift stack after context stackName', () => {
    assert.equal(synth({ stackName: 'DriftWatch' }).stack.stackName, 'DriftWatch');
  });
});
