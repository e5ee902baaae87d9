import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import { SealingKeys } from '@partner/signing';
import type { DemoState } from './seed.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dataDir = join(repoRoot, '.data');
const stateFile = join(dataDir, 'local-state.json');

/** What a local stack keeps between starts (git-ignored): its secrets and the demo keys it printed. */
export interface LocalState {
  adminToken: string;
  cursorSecret: string;
  assetSecret: string;
  menuPageKeySecret: string;
  viewTokenSecret: string;
  webhookSealingKeys: string;
  jwt: { privateKey: string; publicKey: string };
  demo?: DemoState;
}

export function loadLocalState(): LocalState {
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as LocalState;
    // State written by an older version lacks later secrets: add them once.
    saved.assetSecret ??= randomBytes(32).toString('base64url');
    saved.menuPageKeySecret ??= randomBytes(32).toString('base64url');
    saved.viewTokenSecret ??= randomBytes(32).toString('base64url');
    saved.webhookSealingKeys ??= SealingKeys.generateSpec('local1');
    return saved;
  }
  const state: LocalState = {
    adminToken: `adm_${randomBytes(24).toString('base64url')}`,
    cursorSecret: randomBytes(32).toString('base64url'),
    assetSecret: randomBytes(32).toString('base64url'),
    menuPageKeySecret: randomBytes(32).toString('base64url'),
    viewTokenSecret: randomBytes(32).toString('base64url'),
    webhookSealingKeys: SealingKeys.generateSpec('local1'),
    jwt: generateInternalKeyPair(),
  };
  saveLocalState(state);
  return state;
}

export function saveLocalState(state: LocalState): void {
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
}
