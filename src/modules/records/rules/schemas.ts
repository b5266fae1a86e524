import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../../shared/wire-schemas.js';

/** Wire schemas of the business-rule endpoints. */

export const WorksheetParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }) });
export const RuleParams = Type.Object({ worksheet_id: Type.String({ description: 'Worksheet id or alias' }), rule_id: Type.String({ description: 'Rule id' }) });

const fields = {
  name: Type.Optional(Type.String({ description: 'What the rule is called, at most 100 characters' })),
  condition: Type.Optional(Type.Unknown({ description: 'A filter (the filter language of lists): a write after which a record matches it is refused with 430021' })),
  message: Type.Optional(Type.String({ description: 'The error message of a refused write, at most 500 characters' })),
  enabled: Type.Optional(LenientBoolean({ description: 'Whether the rule is checked (default true)' })),
};

export const CreateBody = Type.Object(fields, { description: 'name, condition and message are required' });
export const UpdateBody = Type.Object(fields, { description: 'Any of name, condition, message, enabled' });

export const Rule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  condition: Type.Unknown({ description: 'The condition as stored: fields named by id' }),
  message: Type.String(),
  enabled: Type.Boolean(),
  position: Type.Integer({ description: 'The order rules are listed and checked in' }),
  problem: Type.String({ description: "Why the rule checks nothing now (a field its condition names was deleted or changed type), or '' while it works" }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const RuleList = Type.Object({ rules: Type.Array(Rule) });
