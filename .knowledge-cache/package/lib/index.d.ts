import { SpecDatabase } from '@aws-cdk/service-spec-types';
/**
 * Load the provided built-in database
 */
export declare function loadAwsServiceSpec(): Promise<SpecDatabase>;
/**
 * Synchronously load the provided built-in database
 */
export declare function loadAwsServiceSpecSync(): SpecDatabase;
