// Issue 45 §5: the cost table in docs/deploy.md counts what the synthesized
// app really creates. Every billed resource the table prices per unit
// (alarms, customer managed keys, secrets, custom metrics, function memory)
// is counted here on the app as deployed outside us-east-1 (home stack and
// forwarder), and the docs must state the same numbers.
import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { describe, it } from 'node:test';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { globalEventsStackName } from '../lib/app';
import { CfnTemplate, REPO, resourcesOfType, synth } from './helpers';

const DOC = fs.readFileSync(path.join(REPO, 'docs', 'deploy.md'), 'utf8');
const COST = DOC.slice(DOC.indexOf('## Monthly cost estimate'), DOC.indexOf('## Testing the app'));

/** The app of the reference bill: home Region outside us-east-1, so the forwarder exists. */
function billedApp(): { home: CfnTemplate; forwarder: CfnTemplate } {
  const s = synth({ region: 'eu-west-1' });
  const fwd = s.app.node.tryFindChild(globalEventsStackName('Realdrift')) as Stack | undefined;
  assert.ok(fwd, 'the forwarder stack exists for a home Region outside us-east-1');
  return { home: s.json, forwarder: Template.fromStack(fwd).toJSON() as CfnTemplate };
}

/** A number the cost section states, found by a pattern with one capture group. */
function stated(re: RegExp): number {
  const m = COST.match(re);
  assert.ok(m, `docs/deploy.md's cost section states ${re}`);
  return Number(m[1]);
}

describe('the bill in docs/deploy.md', () => {
  const { home, forwarder } = billedApp();
  const count = (type: string) => resourcesOfType(home, type).length + resourcesOfType(forwarder, type).length;

  it('counts the alarms the app creates', () => {
    const inHome = resourcesOfType(home, 'AWS::CloudWatch::Alarm').length;
    const inForwarder = resourcesOfType(forwarder, 'AWS::CloudWatch::Alarm').length;
    console.log(`billed alarms: ${inHome} in the home stack, ${inForwarder} in the forwarder`);
    assert.equal(stated(/(\d+) alarms in the home stack/), inHome);
    assert.equal(stated(/alarms in the home stack, (\d+) in the forwarder/), inForwarder);
    assert.equal(stated(/\| alarms \| (\d+) standard alarms/), inHome + inForwarder);
    // Each alarm watches one metric (a metric-math alarm would be billed per metric).
    for (const [id, a] of [...resourcesOfType(home, 'AWS::CloudWatch::Alarm'), ...resourcesOfType(forwarder, 'AWS::CloudWatch::Alarm')]) {
      assert.ok(a.Properties.MetricName && !a.Properties.Metrics, `${id} watches one metric`);
    }
  });

  it('counts the keys, secrets and custom metrics', () => {
    assert.equal(stated(/(\d+) customer managed key/), count('AWS::KMS::Key'));
    assert.equal(stated(/(\d+) secret;/), count('AWS::SecretsManager::Secret'));
    const rust = fs.readFileSync(path.join(REPO, 'functions', 'runtime', 'src', 'metrics.rs'), 'utf8');
    const metrics = Number(rust.match(/CUSTOM_METRICS: \[\(&str, &str\); (\d+)\]/)?.[1]);
    // A function declares them only with REALDRIFT_CUSTOM_METRICS=1 (docs/functions.md, "Metrics").
    const functions = [...resourcesOfType(home, 'AWS::Lambda::Function'), ...resourcesOfType(forwarder, 'AWS::Lambda::Function')];
    const on = functions.some(([, f]) => f.Properties.Environment?.Variables?.REALDRIFT_CUSTOM_METRICS === '1');
    const billed = on ? metrics : 0;
    console.log(`billed custom metrics: ${billed} by default, ${metrics} with customMetrics`);
    assert.equal(billed, 0, 'off by default');
    assert.equal(stated(/(\d+) custom metrics by default/), billed);
    assert.equal(stated(/\| custom metrics \| (\d+) by default/), billed);
    assert.equal(stated(/\| custom metrics \|[^|]*with `customMetrics` (\d+) ×/), metrics);
    assert.equal(stated(/\((\d+) with `customMetrics`/), metrics);
  });

  it('prices each function at the memory it is deployed with', () => {
    const memory = (prefix: string) =>
      resourcesOfType(home, 'AWS::Lambda::Function').find(([id]) => id.startsWith(prefix))?.[1].Properties.MemorySize / 1024;
    assert.equal(stated(/scan 36,000 × [\d.]+ s × ([\d.]+) GB/), memory('ScanFunction'));
    assert.equal(stated(/on-change [\d,]+ dropped × [\d.]+ s × ([\d.]+) GB/), memory('OnChangeFunction'));
    assert.equal(stated(/revert ~10 runs × [\d.]+ s × ([\d.]+) =/), memory('RevertFunction'));
  });
});
