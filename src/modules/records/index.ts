/** Records of worksheets. */
export { recordRoutes } from './routes.js';
export { recordLogRoutes } from './logs/log-routes.js';
export { ruleRoutes } from './rules/routes.js';
export { RECYCLE_BIN_JOB, RecycleBinSweep } from './recycle-bin-sweep.js';
/** What other modules (discussions) use of records: liveness, members, and the file store's write path. */
export { liveRecordIds, visibleLiveIds } from './repository.js';
export { checkReferencesExist, resolveReferences } from './references.js';
export { emptyReferenceSet, type FieldValueInput } from './value-codec.js';
export { deleteFilesOfOwner, forgetUploads, insertFileRows, removeUnreferenced, uploadFiles, type Uploaded } from './attachments.js';
export type { HookContext, RecordChange, RecordHook } from './writer.js';
export { createRecord, deleteRecord, getRecord, listRecords, projection, updateRecord } from './service.js';
export { callerScope } from './filter-scope.js';
export { checkFieldValues } from './check-values.js';
export { listRelated } from './relations-service.js';
export { readableFields } from './presenter.js';
export { cellText } from './record-markdown.js';
/** Knowledge bases index records as text. */
export { liveIdsAfter, liveRecordCount, recordTexts } from './record-texts.js';
export { pivotRecords, planPivot, RECORD_COUNT, type PivotInput } from './pivot-service.js';
/** The workflow engine keeps the records' process fields; nodes that assign people set the assignees. */
export { noteProcessState } from './process-state.js';
