// The constructs a team places in its own CDK app or pipeline
// (docs/organization.md): the member of each account and Region, the hub of
// the Organization, and the one-account stack that is both.
export { RealdriftMember, RealdriftMemberProps, RevertSettings, MemberFindingsTarget } from './member';
export { RealdriftHub, RealdriftHubProps, HubOrganization, TRANSITION_DETAIL_TYPE, TRANSITION_SOURCE, findingsBusArn } from './hub';
export { RealdriftStack, memberSettings } from './realdrift-stack';
export { Alerts, AlertSettings } from './alerts';
export { Storage, StorageSettings } from './storage';
export { ChangePattern, changePatterns, loadChangeRuleFacts } from './change-patterns';
export { loadEventNames } from './event-sources';
export { RealdriftConfig, loadConfig } from './config';
