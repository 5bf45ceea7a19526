// oidc-provider ships no types; these are the parts this server uses, as loose as the library is.
declare module 'oidc-provider' {
  type IncomingMessage = import('node:http').IncomingMessage;
  type ServerResponse = import('node:http').ServerResponse;

  export interface KoaContextWithOIDC {
    path: string;
    method: string;
    query: Record<string, string | string[] | undefined>;
    querystring: string;
    status: number;
    body: unknown;
    type: string;
    oidc: {
      route?: string;
      client?: ProviderClient;
      params?: Record<string, unknown>;
      entities: Record<string, unknown>;
    };
    set(name: string, value: string): void;
    remove(name: string): void;
    req: IncomingMessage;
  }

  export interface ProviderClient {
    clientId: string;
    clientName?: string;
    clientUri?: string;
    redirectUris: string[];
    clientAuthMethod: string;
    grantTypeAllowed(type: string): boolean;
    metadata(): Record<string, unknown>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string; redirect_uri?: string; scope?: string; resource?: string | string[] };
    session?: { accountId?: string };
    grantId?: string;
    lastSubmission?: unknown;
    returnTo: string;
    exp: number;
    save(ttl: number): Promise<string>;
  }

  export interface Grant {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    getResourceScope(resource: string): string;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    issuer: string;
    proxy: boolean;
    Grant: GrantConstructor;
    Client: {
      new (metadata: Record<string, unknown>): ProviderClient;
      find(id: string): Promise<ProviderClient | undefined>;
      adapter: { upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> };
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }

  export const errors: Record<string, new (description?: string, detail?: string) => Error> & {
    InvalidTarget: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error & { error_description?: string };
    InvalidRedirectUri: new (description?: string) => Error & { error_description?: string };
    AccessDenied: new (description?: string) => Error;
  };
}
