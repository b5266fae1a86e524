import { Type } from '@sinclair/typebox';

/** Wire schemas of a record's log. */

const Ids = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 });

export const LogQuery = Type.Object({
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  operatorIds: Type.Optional(Ids),
  'operatorIds[]': Type.Optional(Ids),
  opeartorIds: Type.Optional({ ...Ids, description: 'The public service’s spelling of operatorIds' }),
  'opeartorIds[]': Type.Optional(Ids),
  field: Type.Optional(Type.String({ maxLength: 200, description: 'Only entries that changed this field (id or alias)' })),
  startDate: Type.Optional(Type.String({ maxLength: 40, description: 'yyyy-MM-dd HH:mm:ss in TIME_ZONE, a day, or ISO 8601' })),
  endDate: Type.Optional(Type.String({ maxLength: 40 })),
  lastMark: Type.Optional(Type.String({ maxLength: 40, description: 'The lastMark of the previous page: continue after it' })),
});

const LogItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Integer({ description: 'The field type code' }),
  editType: Type.Integer({ description: '0 value changed, 1 related records added, 2 related records removed' }),
  oldValue: Type.String(),
  oldText: Type.String(),
  newValue: Type.String(),
  newText: Type.String(),
  isDeleted: Type.Boolean({ description: 'The field was removed since' }),
});

export const LogPage = Type.Object({
  logs: Type.Array(
    Type.Object({
      operator: Type.Object({ accountId: Type.String(), fullname: Type.String(), avatar: Type.String(), isPortal: Type.Boolean(), status: Type.Integer() }),
      content: Type.Object({
        worksheetId: Type.String(),
        objectId: Type.String(),
        uniqueId: Type.String(),
        objectType: Type.Integer({ description: '2: a record' }),
        type: Type.Integer({ description: 'Where the change came from: 1 manual or API, 2 workflow, 3 button' }),
        requestType: Type.Integer({ description: '1 created, 2 edited, 3 deleted (to the recycle bin), 4 restored' }),
        _createdAt: Type.String(),
        logData: Type.Array(LogItem),
      }),
    }),
  ),
  total: Type.Integer(),
  lastMark: Type.String({ description: 'Give it back as lastMark for the next page' }),
  flag: Type.Boolean({ description: 'Whether there are more entries' }),
});
