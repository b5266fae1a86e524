import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import * as initial from './0001-initial.js';
import * as rowIndexes from './0002-row-indexes.js';
import * as coveringReadIndexes from './0003-covering-read-indexes.js';
import * as rowChanges from './0004-row-changes.js';
import * as recordSequence from './0005-record-sequence.js';
import * as files from './0006-files.js';
import * as recordLogs from './0007-record-logs.js';
import * as discussions from './0008-discussions.js';
import * as shareLinks from './0009-share-links.js';
import * as recordDrafts from './0010-record-drafts.js';
import * as deletedBy from './0011-deleted-by.js';
import * as views from './0012-views.js';
import * as optionSets from './0013-option-sets.js';
import * as businessRules from './0014-business-rules.js';
import * as charts from './0015-charts.js';
import * as people from './0016-people.js';
import * as keyIpAllowlist from './0017-key-ip-allowlist.js';
import * as accessTokens from './0019-access-tokens.js';
import * as sessions from './0020-sessions.js';
import * as roles from './0021-roles.js';
import * as oauth from './0022-oauth.js';
import * as keyWorksheets from './0023-key-worksheets.js';
import * as regions from './0018-regions.js';
import * as workflows from './0026-workflows.js';
import * as approvals from './0027-approvals.js';
import * as workflowTimeTriggers from './0030-workflow-time-triggers.js';
import * as processFields from './0031-process-fields.js';
import * as notificationMail from './0032-notification-mail.js';
import * as knowledge from './0036-knowledge.js';
import * as chatbots from './0037-chatbots.js';
import * as knowledgeVectorChanges from './0038-knowledge-vector-changes.js';
import * as knowledgeReembedding from './0039-knowledge-reembedding.js';

/** Every migration, by its number. Append only: never edit or reorder a released migration. */
/** One migration: it may ask the engine's dialect for what differs between engines. */
export interface Migration {
  up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void>;
}

export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-row-indexes': rowIndexes,
  '0003-covering-read-indexes': coveringReadIndexes,
  '0004-row-changes': rowChanges,
  '0005-record-sequence': recordSequence,
  '0006-files': files,
  '0007-record-logs': recordLogs,
  '0008-discussions': discussions,
  '0009-share-links': shareLinks,
  '0010-record-drafts': recordDrafts,
  '0011-deleted-by': deletedBy,
  '0012-views': views,
  '0013-option-sets': optionSets,
  '0014-business-rules': businessRules,
  '0015-charts': charts,
  '0016-people': people,
  '0017-key-ip-allowlist': keyIpAllowlist,
  '0018-regions': regions,
  '0019-access-tokens': accessTokens,
  '0020-sessions': sessions,
  '0021-roles': roles,
  '0022-oauth': oauth,
  '0023-key-worksheets': keyWorksheets,
  '0026-workflows': workflows,
  '0027-approvals': approvals,
  '0030-workflow-time-triggers': workflowTimeTriggers,
  '0031-process-fields': processFields,
  '0032-notification-mail': notificationMail,
  '0036-knowledge': knowledge,
  '0037-chatbots': chatbots,
  '0038-knowledge-vector-changes': knowledgeVectorChanges,
  '0039-knowledge-reembedding': knowledgeReembedding,
};
