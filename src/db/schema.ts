import type { Generated } from 'kysely';


/**
 * The metadata tables (created by migrations). Worksheet row tables are not listed here:
 * they are created at run time, one per worksheet, and addressed through `sql.table()`.
 * Times are epoch milliseconds in a BIGINT on both engines, so that comparisons and
 * sorting never depend on an engine's date type.
 */
export interface MetaSchema {
  organizations: { id: string; name: string; created_at: number };
  accounts: {
    id: string;
    organization_id: string;
    email: string;
    fullname: string;
    password_hash: string | null;
    /** 1 active, 2 disabled (cannot sign in, cannot be newly written into records). */
    status: number;
    created_at: number;
    mobile: Generated<string>;
    avatar: Generated<string>;
    updated_at: Generated<number>;
  };
  /** Who belongs to which organization; `status` 1 active, 2 disabled there. */
  organization_members: { organization_id: string; account_id: string; is_admin: number; status: number; joined_at: number };
  departments: { id: string; organization_id: string; parent_id: string | null; name: string; position: Generated<number>; created_at: number };
  department_managers: { department_id: string; account_id: string };
  department_members: { department_id: string; account_id: string; is_primary: Generated<number> };
  jobs: { id: string; organization_id: string; name: string; created_at: number };
  job_members: { job_id: string; account_id: string };
  org_roles: { id: string; organization_id: string; name: string; created_at: number };
  org_role_members: { role_id: string; account_id: string };
  apps: {
    id: string;
    organization_id: string;
    name: string;
    description: string;
    icon: string;
    color: string;
    owner_id: string;
    created_at: number;
    updated_at: number;
  };
  access_tokens: {
    id: string;
    account_id: string;
    name: string;
    token_hash: string;
    token_hint: string;
    scopes: string;
    organization_ids: string | null;
    app_ids: string | null;
    expires_at: number | null;
    created_at: number;
    last_used_at: number | null;
    revoked_at: number | null;
  };
  oauth_clients: {
    id: string;
    client_id: string;
    secret_hash: string | null;
    name: string;
    organization_id: string;
    redirect_uris: string;
    scopes: string;
    allowed_ips: string;
    enabled: number;
    created_at: number;
  };
  oauth_codes: {
    code_hash: string;
    client_id: string;
    account_id: string;
    scopes: string;
    redirect_uri: string;
    code_challenge: string | null;
    code_challenge_method: string | null;
    expires_at: number;
    used_at: number | null;
  };
  oauth_tokens: {
    id: string;
    family_id: string;
    parent_id: string | null;
    client_id: string;
    account_id: string;
    scopes: string;
    access_hash: string;
    access_expires_at: number;
    refresh_hash: string | null;
    refresh_expires_at: number | null;
    refresh_used_at: number | null;
    created_at: number;
    revoked_at: number | null;
  };
  roles: {
    id: string;
    app_id: string;
    name: string;
    description: string;
    role_type: number;
    permission_scope: number;
    hide_app: number;
    global_permissions: string;
    worksheet_permissions: string;
    page_permissions: string;
    /** JSON `[{id, enable}]` (migration 0037). */
    chatbot_permissions: string;
    created_at: number;
    updated_at: number;
  };
  role_members: { role_id: string; member_type: string; member_id: string; created_at: number };
  app_keys: {
    id: string;
    app_id: string;
    app_key: string;
    sign_hash: string;
    read_only: number;
    created_at: number;
    /** JSON array of the addresses and CIDR ranges the key may be used from; null: any. */
    allowed_ips: string | null;
    /** JSON array `[{id, read, add, edit, delete}]` of the worksheets a custom key may reach; null: every worksheet. */
    worksheet_permissions: string | null;
  };
  sections: {
    id: string;
    app_id: string;
    parent_id: string | null;
    name: string;
    position: number;
    created_at: number;
  };
  items: {
    id: string;
    app_id: string;
    section_id: string | null;
    type: number;
    name: string;
    position: number;
    created_at: number;
  };
  worksheets: {
    id: string;
    app_id: string;
    name: string;
    alias: string;
    remark: string;
    /** 0: changes to its records are not logged; otherwise since when they have been, without a break (epoch ms). */
    record_logs: Generated<number>;
    /** The earlier periods changes were logged, JSON `[[from, to], …]` (epoch ms). */
    record_log_periods: Generated<string>;
    created_at: number;
    updated_at: number;
  };
  fields: {
    id: string;
    worksheet_id: string;
    name: string;
    alias: string;
    type: string;
    required: number;
    is_title: number;
    is_unique: number;
    /** Whether an index for sorting and filtering exists on the column. */
    indexed: number;
    position: number;
    /** JSON array of {key, value, index, isDeleted, color}. */
    options: string;
    /** JSON object: the type's settings (precision, subType, max, isColorOptions, …). */
    config: string;
    description: string;
    created_at: number;
  };
  custom_pages: { id: string; app_id: string; name: string; components: string; version: number; created_at: number };
  /** Live (not deleted) rows per worksheet, as the sum of a few shard rows; see records/row-counts.ts. */
  row_counts: { worksheet_id: string; shard: number; live: number; changes: Generated<number>; numbered: Generated<number> };
  row_indexes: { name: string; worksheet_id: string; columns: string; included: string; created_at: number };
  auto_number_counters: { field_id: string; last_value: number };
  /** One file of a record's attachment field; the bytes are in the file store under `storage_key`. */
  files: {
    id: string;
    app_id: string;
    worksheet_id: string;
    field_id: string;
    row_id: string;
    name: string;
    size: number;
    mime_type: string;
    sha256: string;
    storage_key: string;
    created_by: string;
    created_at: number;
  };
  /** One change of one record (`modules/record-logs`); `changes` is JSON, `seq` orders and pages. */
  record_logs: {
    seq: Generated<number>;
    worksheet_id: string;
    row_id: string;
    action: number;
    source: number;
    operator_id: string;
    created_at: number;
    changes: string;
  };
  /**
   * One message of a record's discussion. `mentions`: JSON array of account ids. Its files are rows of
   * `files` with `field_id` = `discussion:<id>`;
   * `attachments`: JSON array of their ids, in the order given.
   */
  discussions: {
    id: string;
    app_id: string;
    worksheet_id: string;
    row_id: string;
    message: string;
    reply_to_id: string | null;
    reply_to_author: string | null;
    mentions: string;
    attachments: string;
    created_by: string;
    created_at: number;
  };
  /** A draft record in its creator's draft box; `inputs` is JSON `{fieldId: {value, type?}}`, as sent (records/drafts/). */
  record_drafts: { id: string; app_id: string; worksheet_id: string; created_by: string; created_at: number; updated_at: number; inputs: string };
  /** One row per worksheet and creator, locked by each draft creation before it counts the box. */
  record_draft_boxes: { worksheet_id: string; created_by: string; claimed_at: number };
  /** A chart of a worksheet (`modules/charts`); `spec` is JSON: axes, values, filter, view (field ids). */
  charts: {
    id: string;
    app_id: string;
    worksheet_id: string;
    name: string;
    report_type: number;
    spec: string;
    page_id: string | null;
    created_by: string;
    created_at: number;
    updated_at: number;
  };
  /** A worksheet's business rule: `condition` is the filter language as JSON with fields by id; `enabled` 1/0 (records/rules/). */
  business_rules: { id: string; worksheet_id: string; name: string; condition: string; message: string; enabled: number; position: number; created_at: number; updated_at: number };
  /** Option sets of an application (migration 0013): `options` as a field keeps them (JSON). */
  option_sets: {
    id: string;
    app_id: string;
    name: string;
    options: string;
    enable_color: number;
    enable_score: number;
    account_id: string;
    created_at: number;
    updated_at: number;
  };
  /** Secrets kept across restarts and shared by every process (the download-link key). */
  server_secrets: { name: string; value: string };
  /** A signed-in session of the web pages: `id` is the SHA-256 of the browser's session id; `data` the session as JSON. */
  sessions: { id: string; account_id: string; data: string; created_at: number; seen_at: number };
  /** One failed sign-in per key (`email:<sha256>` or `ip:<address>`), counted over a window. */
  sign_in_failures: { key: string; at: number };
  /** A record's share link: only the token's SHA-256 is kept; `visible_fields` is a JSON list of field ids or null (every field). */
  share_links: {
    id: string;
    app_id: string;
    worksheet_id: string;
    row_id: string;
    token_hash: string;
    visible_fields: string | null;
    password_hash: string | null;
    expires_at: number | null;
    created_by: string;
    created_at: number;
    revoked_at: number | null;
  };
  views: {
    id: string;
    worksheet_id: string;
    name: string;
    /** The wire view type: 0 table, 1 kanban, 2 hierarchy, 3 gallery, 4 calendar, 5 gantt, 6 detail, 7 resource, 8 map, 21 plugin. */
    type: number;
    position: number;
    /** JSON of the view's settings, field references as field ids (`modules/views/definition.ts`). */
    definition: string;
    created_at: number;
    updated_at: number;
  };
  /**
   * Administrative regions (migration 0018, from data packages): GB/T 2260 codes for China, 91 + the
   * ISO 3166-1 numeric code for the countries under 910000 海外. `level` 1–3, `last` 1 when nothing
   * lies below, `path` the names from the top joined with `/`.
   */
  regions: {
    id: string;
    parent_id: string | null;
    level: number;
    position: number;
    name: string;
    name_en: string | null;
    path: string;
    path_en: string | null;
    last: number;
  };
  /** The durable job queue (`src/jobs/`). */
  background_jobs: {
    id: string;
    kind: string;
    payload: string;
    /** queued, running (claimed: `run_at` is the end of the lease) or failed (every attempt used). */
    status: string;
    run_at: number;
    attempts: Generated<number>;
    max_attempts: number;
    locked_by: string | null;
    last_error: string | null;
    created_at: number;
  };
  workflows: {
    id: string;
    app_id: string;
    name: string;
    description: string;
    trigger_type: number;
    trigger_alias: string;
    trigger_config: string;
    trigger_worksheet_id: string | null;
    /** draft (never published), published, closed (published once, now off). */
    status: string;
    published_version: Generated<number>;
    draft_version: Generated<number>;
    owner_id: string;
    created_at: number;
    updated_at: number;
  };
  workflow_nodes: {
    id: string;
    workflow_id: string;
    alias: string;
    node_type: string;
    name: string;
    description: string;
    prev_alias: string | null;
    parent_alias: string | null;
    config: string;
    created_at: number;
  };
  workflow_versions: { workflow_id: string; version: number; definition: string; published_at: number; published_by: string };
  workflow_runs: {
    id: string;
    workflow_id: string;
    version: number;
    app_id: string;
    status: string;
    worksheet_id: string | null;
    row_id: string | null;
    trigger: string;
    initiator_id: string;
    chain_depth: number;
    cursor: string | null;
    state: string;
    outputs: string | null;
    error: string | null;
    step_count: Generated<number>;
    started_at: number;
    updated_at: number;
    ended_at: number | null;
    /** Raised by every commit that moves the run; a commit names the one it read (migration 0031). */
    revision: Generated<number>;
    /** When the sweep aborts the run if it has not ended (migration 0031); null: never. */
    timeout_at: Generated<number | null>;
    /** The firing a time-triggered run answers, unique per workflow (migration 0030). */
    trigger_key: string | null;
  };
  workflow_steps: {
    id: string;
    run_id: string;
    seq: number;
    node_alias: string;
    node_type: string;
    status: string;
    input: string | null;
    output: string | null;
    exit: string | null;
    error: string | null;
    started_at: number;
    ended_at: number | null;
  };
  /** A published workflow's time trigger: the job carrying it, and a date field's watermark (migration 0030). */
  workflow_time_triggers: { workflow_id: string; job_id: string; swept_until: number | null; updated_at: number };
  /** To-dos of waiting workflow steps (migration 0027, `modules/workflow-instances`). */
  workflow_work_items: {
    id: string;
    run_id: string;
    app_id: string;
    workflow_id: string;
    node_alias: string;
    node_name: string;
    seq: number;
    /** 4 approve, 3 fill in, 5 copy (cc), 0 the initiator's resubmit. */
    kind: number;
    /** Approvals: any, all or inOrder. */
    mode: string | null;
    assignee_id: string;
    /** 0 pending (unread); 1 passed, filled, read, resubmitted; 4 rejected or returned; 5 no longer needed. */
    status: number;
    /** What was done: approve, reject, return, fill, resubmit, read, none (closed unneeded). */
    action: string | null;
    opinion: string | null;
    /** A fill-in's submitted values (JSON `[{id, value}]`). */
    filled: string | null;
    /** A note for the assignee (a copy's message, a return's reason). */
    note: string | null;
    acted_by: string | null;
    acted_at: number | null;
    due_at: number | null;
    process_name: string;
    /** The record's title when the to-do opened. */
    title: string;
    worksheet_id: string | null;
    row_id: string | null;
    created_at: number;
  };
  /** When each workflow instance was last urged (migration 0027). */
  workflow_urges: { run_id: string; urged_at: number; urged_by: string };
  /** In-app notifications (migration 0027, `modules/notifications`). */
  notifications: {
    id: string;
    account_id: string;
    app_id: string | null;
    kind: string;
    title: string;
    body: string;
    /** Where it leads: an API path (`/v3/app/workflow/instance/{id}?workId=…`). */
    link: string;
    read_at: number | null;
    created_at: number;
    /** When its mail went to the SMTP server (migration 0032; null: not mailed, or not yet). */
    mailed_at: Generated<number | null>;
  };
  /** A person's notification choices (migration 0032): `mail` 0 turns their notification mail off; no row: on. */
  notification_settings: { account_id: string; mail: number; updated_at: number };
  /** Knowledge bases (migration 0036, `src/knowledge/`). `embedder` is a JSON `EmbedderSpec`. */
  knowledge_bases: {
    id: string;
    app_id: string;
    name: string;
    description: string;
    embedder: string;
    status: string;
    error: string | null;
    created_by: string;
    created_at: number;
    updated_at: number;
    /** Migration 0039: the `EmbedderSpec` (JSON) a re-embedding moves the base to, null when none. */
    next_embedder: string | null;
    reembed_progress: Generated<number>;
    reembed_total: Generated<number>;
    /** Why the last re-embedding failed (the base is failed until its embedder is set again). */
    reembed_error: string | null;
  };
  /** A worksheet a knowledge base indexes; `field_ids` is a JSON array of field ids. */
  knowledge_sources: {
    id: string;
    knowledge_id: string;
    worksheet_id: string;
    field_ids: string;
    /** The full indexing of its records: queued, indexing, ready, failed (`error` says why). */
    status: Generated<string>;
    /** Records indexed so far, of `total` (counted when the indexing started). */
    progress: Generated<number>;
    total: Generated<number>;
    error: string | null;
    created_at: number;
  };
  knowledge_documents: {
    id: string;
    knowledge_id: string;
    title: string;
    media_type: string;
    origin_url: string | null;
    byte_size: number;
    status: string;
    progress: Generated<number>;
    chunk_total: Generated<number>;
    error: string | null;
    created_by: string;
    created_at: number;
    updated_at: number;
  };
  /** `source_id` is the worksheet source or the document; `row_id` and `field_ids` (JSON) are set for record passages. */
  knowledge_passages: {
    seq: Generated<number>;
    knowledge_id: string;
    source_id: string;
    source_type: string;
    row_id: string | null;
    field_ids: string | null;
    chunk_index: number;
    title: string;
    content: string;
    /** The vector as 8-bit codes and a float scale (migration 0038; `store/quantized-vectors.ts`); null: no vector. */
    vector_codes: Uint8Array | null;
  };
  /** Passage vectors stored (with `knowledge_id` and `dims`) or removed (both null), in commit order (migration 0038). */
  knowledge_vector_changes: {
    id: Generated<number>;
    seq: number;
    knowledge_id: string | null;
    dims: number | null;
    created_at: number;
  };
  /** A re-embedding's new vectors (migration 0039): `embedding` float32 bytes (SQLite) or `real[]` (PostgreSQL), null without words. */
  knowledge_staged_vectors: { seq: number; knowledge_id: string; embedding: unknown; vector_codes: Uint8Array | null };
  /** Chatbots (migration 0037): `preset_questions` and `knowledge_ids` are JSON arrays of strings. */
  chatbots: {
    id: string;
    app_id: string;
    name: string;
    prompt: string;
    welcome_text: string;
    preset_questions: string;
    knowledge_ids: string;
    icon: string;
    icon_color: string;
    remark: string;
    created_by: string;
    created_at: number;
    updated_at: number;
  };
  chatbot_conversations: { id: string; chatbot_id: string; account_id: string; title: string; message_count: Generated<number>; created_at: number; updated_at: number };
  /** `role` is `user` or `assistant`; `citations` (JSON) the passages an answer was given. */
  chatbot_messages: { conversation_id: string; seq: number; id: string; role: string; content: string; citations: string | null; created_at: number };
}
