export { expectError } from '@partner/testing';
