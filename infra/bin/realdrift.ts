#!/usr/bin/env node
// Entry point of the realdrift CDK app: one stack per account and region (or
// an Organization's hub with the member StackSet),
// configured through context (cdk.json, or -c key=value; docs/deploy.md).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp, buildOrganizationApp } from '../lib/app';

const app = new App();
// -c organizationId=o-... builds the Organization's hub and member StackSet
// (docs/organization.md); otherwise the one-account install.
if (!buildOrganizationApp(app)) buildApp(app);
// Every synth runs the AwsSolutions rules; an unacknowledged finding fails it.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
