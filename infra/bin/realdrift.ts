#!/usr/bin/env node
// Entry point of the realdrift CDK app: one stack per account and region,
// configured through context (cdk.json, or -c key=value; docs/deploy.md).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../lib/app';

const app = new App();
buildApp(app);
// Every synth runs the AwsSolutions rules; an unacknowledged finding fails it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
