import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../shared/envelope.js';
import { responses } from '../../../shared/wire-schemas.js';
import { serviceContext } from '../../../plugins/service-context.js';
import * as schemas from './schemas.js';
import * as service from './service.js';
import { administersRoute, reads } from '../../../access/index.js';

const tags = ['Business rules'];
const path = '/app/worksheets/:worksheet_id/rules';

/** Business rules of a worksheet (our addition to the interface): list, create, change, delete. */
export const ruleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(path, {
    config: { access: reads('worksheet:get') },
    schema: { tags, summary: "List a worksheet's business rules, in order", params: schemas.WorksheetParams, response: responses(schemas.RuleList) },
    handler: async (request) => ok(await service.listRules(serviceContext(request), request.params.worksheet_id)),
  });

  app.post(path, {
    config: { access: administersRoute('worksheet:edit') },
    schema: { tags, summary: 'Create a business rule: writes leaving a record that matches its condition are refused (430021)', params: schemas.WorksheetParams, body: schemas.CreateBody, response: responses(schemas.Rule) },
    handler: async (request) => ok(await service.createRule(serviceContext(request), request.params.worksheet_id, request.body)),
  });

  app.patch(`${path}/:rule_id`, {
    config: { access: administersRoute('worksheet:edit') },
    schema: { tags, summary: 'Change a business rule: any of name, condition, message, enabled', params: schemas.RuleParams, body: schemas.UpdateBody, response: responses(schemas.Rule) },
    handler: async (request) => ok(await service.updateRule(serviceContext(request), request.params.worksheet_id, request.params.rule_id, request.body)),
  });

  app.delete(`${path}/:rule_id`, {
    config: { access: administersRoute('worksheet:edit') },
    schema: { tags, summary: 'Delete a business rule', params: schemas.RuleParams, response: responses(Type.Null()) },
    handler: async (request) => {
      await service.deleteRule(serviceContext(request), request.params.worksheet_id, request.params.rule_id);
      return ok(null);
    },
  });
};
