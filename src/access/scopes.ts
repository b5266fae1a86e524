/**
 * The scope names of the public interface (`public-v3-facts.md` §1.5), with the numeric codes the
 * public service stores for personal access tokens, and the level each works at: `app` scopes need
 * an application (an app key's, or `{prefix}-Appid` with a token), `org` and `user` scopes do not.
 * A personal access token or an OAuth grant is narrowed to the scopes it was given; app keys and
 * signed-in sessions are not narrowed.
 */

export type ScopeLevel = 'app' | 'org' | 'user';

export interface ScopeInfo {
  code: number;
  level: ScopeLevel;
}

const app = (code: number): ScopeInfo => ({ code, level: 'app' });
const org = (code: number): ScopeInfo => ({ code, level: 'org' });
const user = (code: number): ScopeInfo => ({ code, level: 'user' });

export const SCOPES = {
  'org:list': user(200100),
  'user:me': user(200200),
  'app:list': org(10500),
  'app:create': org(10100),
  'app:get': app(10400),
  'app:edit': app(10200),
  'app:delete': app(10300),
  'app:create_section': app(10600),
  'app:batch_create_item': app(10700),
  'worksheet:list': app(20500),
  'worksheet:get': app(20400),
  'worksheet:create': app(20100),
  'worksheet:edit': app(20200),
  'worksheet:delete': app(20300),
  'record:get': app(30100),
  'record:create': app(30200),
  'record:edit': app(30300),
  'record:delete': app(30400),
  'record:list': app(30500),
  'record:batch_create': app(30600),
  'record:batch_update': app(30700),
  'record:batch_delete': app(30800),
  'record:get_discussions': app(30900),
  'record:get_logs': app(31000),
  'record:get_pivot': app(31100),
  'record:get_relations': app(31200),
  'record:get_share_link': app(31300),
  'role:delete': app(60100),
  'role:get': app(60200),
  'role:leave_all': app(60300),
  'role:list': app(60400),
  'role:remove_member': app(60500),
  'role:add_member': app(60600),
  'role:create': app(60700),
  'options:list': app(40300),
  'options:create': app(40100),
  'options:delete': app(40200),
  'options:update': app(40400),
  'process:list': app(70200),
  'process:get': app(70100),
  'process:trigger': app(70300),
  'workflow:get': app(71100),
  'workflow:create': app(70600),
  'workflow:batch_create_nodes': app(70700),
  'workflow:validate': app(70800),
  'workflow:publish': app(71200),
  'workflow:delete_node': app(70900),
  'workflow:delete': app(71000),
  'workflow:get_approval_executions': app(70400),
  'workflow:get_approval_execution': app(70500),
  'approval:list': app(150100),
  'approval:get': app(150200),
  'approval:batch': app(150300),
  'approval:revoke': app(150400),
  'approval:return': app(150500),
  'approval:terminate': app(150600),
  'approval:urge': app(150700),
  'knowledge:list': app(80100),
  'knowledge:search': app(80200),
  'chatbot:create': app(90100),
  'custom_action:batch_create': app(110300),
  'view:create': app(140100),
  'chart:create': app(130100),
  'custom_page:edit': app(120100),
  'public:find_department': org(50100),
  'public:find_member': org(50200),
  'public:get_regions': user(50300),
  // Ours, not the public service's: the admin API (`/admin/…`). Code 990100 is outside the public ranges.
  'admin:organization': org(990100),
} as const satisfies Record<string, ScopeInfo>;

export type ScopeName = keyof typeof SCOPES;

const BY_CODE = new Map<number, ScopeName>(Object.entries(SCOPES).map(([name, info]) => [info.code, name as ScopeName]));

/**
 * A scope by its name or its public numeric code (as a number or a numeric string), or undefined.
 * @example scopeNamed('record:list') === 'record:list'; scopeNamed(30500) === 'record:list'
 */
export function scopeNamed(value: unknown): ScopeName | undefined {
  if (typeof value === 'string' && Object.hasOwn(SCOPES, value)) return value as ScopeName;
  const code = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return BY_CODE.get(code);
}
