import { hash, randomBytes } from 'node:crypto';
import type { Mode } from '../auth/principal.ts';

/**
 * The one place the API key format lives: `svc_test_` or `svc_live_` and 32 base64url characters
 * (192 random bits).
 */
export const keyShape = /^svc_(test|live)_[A-Za-z0-9_-]{32}$/;

export const newKeyString = (mode: Mode) => `svc_${mode}_${randomBytes(24).toString('base64url')}`;

/** What `key list` shows to recognise a key by: `svc_test_` and four more characters. */
export const keyPrefix = (key: string) => key.slice(0, 13);

/**
 * SHA-256 is enough: keys carry 192 random bits, so there is nothing to brute-force. One-shot
 * (crypto.hash), as it runs on every request that sends a key.
 */
export const hashKey = (key: string) => hash('sha256', key, 'hex');
