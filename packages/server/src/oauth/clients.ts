import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { newJwks } from './keys.ts';
import { configuredProvider } from './provider.ts';
import { keepClient } from './repository.ts';

export type SecretAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface CreatedClient {
  clientId: string;
  /** Shown once: only the registration answer carries it (as with dynamic registration). */
  clientSecret: string;
  name: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: SecretAuthMethod;
}

/**
 * Registers a confidential client for a server-side integration that does not register itself
 * (`npm run cli -- oauth client create`). The metadata goes through oidc-provider's own Client
 * model, configured as the server's provider, so it is validated exactly like a dynamic
 * registration (redirect URIs https or loopback, PKCE still required at authorization) and
 * stored where the provider finds it (oauth_records, kind Client). The provider is built with
 * throwaway signing keys: a client's metadata does not depend on them.
 */
export async function createConfidentialClient(db: Queryable, publicUrl: string, input: { name: string; redirectUris: string[]; authMethod: SecretAuthMethod }): Promise<CreatedClient> {
  const { errors } = await import('oidc-provider');
  const provider = await configuredProvider({
    db, publicUrl, jwks: newJwks(), cookieKeys: [randomBytes(32).toString('base64url')],
    lookup: () => Promise.reject(new Error('no lookups while registering a client')),
  });
  // The same id and secret oidc-provider's registration endpoint makes (its default factories).
  const clientId = randomBytes(16).toString('base64url');
  const clientSecret = randomBytes(64).toString('base64url');
  const metadata = {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    client_secret: clientSecret,
    client_secret_expires_at: 0,
    client_name: input.name,
    redirect_uris: input.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: input.authMethod,
  };
  let client;
  try {
    client = new provider.Client(metadata);
  } catch (err) {
    if (err instanceof errors.InvalidClientMetadata || err instanceof errors.InvalidRedirectUri) {
      const described = err as Error & { error_description?: string };
      throw new AppError('validation_failed', `The client is not valid: ${described.error_description ?? described.message}.`);
    }
    throw err;
  }
  await provider.Client.adapter.upsert(clientId, client.metadata());
  await keepClient(db, clientId);
  return { clientId, clientSecret, name: input.name, redirectUris: input.redirectUris, tokenEndpointAuthMethod: input.authMethod };
}
