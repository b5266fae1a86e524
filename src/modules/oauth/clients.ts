import { ipRangeProblem, SCOPES, type ScopeName } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newGuid } from '../../shared/ids.js';
import * as repository from './repository.js';
import { CLIENT_SECRET_PREFIX, newSecret, secretHash } from './secrets.js';

export interface ClientInput {
  name: string;
  redirectUris: string[];
  scopes: string[];
  allowedIps?: string[];
  /** A public client (a browser or mobile app) has no secret and must use PKCE S256. */
  public?: boolean;
}

/** A client as the admin API and the CLI show it; `clientSecret` only in the answer that made it. */
export interface ClientView {
  clientId: string;
  name: string;
  organizationId: string;
  redirectUris: string[];
  scopes: string[];
  allowedIps: string[];
  public: boolean;
  enabled: boolean;
  createdAt: string;
  clientSecret?: string;
}

const json = (text: string) => JSON.parse(text) as string[];

export function clientView(row: repository.ClientRow): ClientView {
  return {
    clientId: row.client_id,
    name: row.name,
    organizationId: row.organization_id,
    redirectUris: json(row.redirect_uris),
    scopes: json(row.scopes),
    allowedIps: json(row.allowed_ips),
    public: row.secret_hash === null,
    enabled: Number(row.enabled) === 1,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/** Scopes by their public names; an unknown one is refused with 600311 naming it. */
export function checkedScopes(scopes: readonly string[]): ScopeName[] {
  for (const scope of scopes) {
    if (!Object.hasOwn(SCOPES, scope)) throw new AppError(ErrorCode.OAuthInvalidScope, 400, `unknown scope "${scope.slice(0, 100)}"`);
  }
  return [...new Set(scopes)] as ScopeName[];
}

/** A redirect URI a client may register: absolute http(s), no fragment (RFC 6749 §3.1.2). */
function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri.slice(0, 200)}" is not an absolute URI`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${uri.slice(0, 200)}" must be an http or https URI`;
  if (url.hash !== '' || uri.includes('#')) return `"${uri.slice(0, 200)}" must not have a fragment`;
  return null;
}

/**
 * Registers a client of an organization. The secret is returned once and kept as a SHA-256.
 * @example await createClient(db, orgId, { name: 'CRM', redirectUris: ['https://crm.example/cb'], scopes: ['record:list'] }, now)
 */
export async function createClient(db: Executor, organizationId: string, input: ClientInput, now: number): Promise<ClientView> {
  const name = input.name.trim();
  if (name === '') throw AppError.invalidValue('a client needs a name');
  if (input.redirectUris.length === 0) throw AppError.invalidValue('a client needs at least one redirect URI');
  for (const uri of input.redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw AppError.invalidValue(`redirect URI ${problem}`);
  }
  if (input.scopes.length === 0) throw new AppError(ErrorCode.OAuthInvalidScope, 400, 'a client needs at least one scope');
  const scopes = checkedScopes(input.scopes);
  const allowedIps = input.allowedIps ?? [];
  for (const entry of allowedIps) {
    const problem = ipRangeProblem(entry);
    if (problem) throw AppError.invalidValue(problem);
  }
  const secret = input.public ? undefined : newSecret(CLIENT_SECRET_PREFIX);
  const row: repository.ClientRow = {
    id: newGuid(),
    client_id: `oc_${newGuid().replace(/-/g, '').slice(0, 24)}`,
    secret_hash: secret === undefined ? null : secretHash(secret),
    name,
    organization_id: organizationId,
    redirect_uris: JSON.stringify([...new Set(input.redirectUris)]),
    scopes: JSON.stringify(scopes),
    allowed_ips: JSON.stringify(allowedIps),
    enabled: 1,
    created_at: now,
  };
  await repository.insertClient(db, row);
  return { ...clientView(row), ...(secret === undefined ? {} : { clientSecret: secret }) };
}

/** The clients of an organization (all of them with null: the CLI). */
export async function listClients(db: Executor, organizationId: string | null): Promise<ClientView[]> {
  return (await repository.clientsOf(db, organizationId)).map(clientView);
}

/** Disables or enables a client; a disabled client's tokens stop working (600300). */
export async function setClientEnabled(db: Executor, organizationId: string | null, clientId: string, enabled: boolean): Promise<ClientView> {
  if (!(await repository.setClientEnabled(db, organizationId, clientId, enabled))) throw AppError.notFound(`OAuth client "${clientId.slice(0, 100)}" does not exist`);
  return clientView((await repository.clientByClientId(db, clientId))!);
}
