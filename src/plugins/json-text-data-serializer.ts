import fastJsonStringify from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySerializerCompiler } from 'fastify';
import { JsonText } from '../shared/json-text.js';

type Serialize = (payload: unknown) => string;

/**
 * A serializer for routes whose success `data` may come as JSON text already (`JsonText`: a
 * record a get wrote with `records/row-json.ts`): the envelope is written around the text, with
 * the keys in the order and form of its schema (`shared/wire-schemas.ts`'s `Envelope`). Any other
 * payload, and every status but 200, goes through the route's schema as usual.
 * @example app.get('/…/rows/:row_id', { serializerCompiler: jsonTextDataSerializer(), schema, handler })
 */
export function jsonTextDataSerializer<RouteSchema>(): FastifySerializerCompiler<RouteSchema> {
  return ({ schema, httpStatus }) => {
    const serializeWhole = fastJsonStringify(schema as TSchema) as Serialize;
    if (httpStatus !== '200') return serializeWhole;
    return (payload: unknown) => {
      const envelope = payload as { success: boolean; error_code: number; error_msg: string; data: unknown };
      if (!(envelope.data instanceof JsonText)) return serializeWhole(payload);
      return `{"success":${envelope.success === true},"error_code":${Math.trunc(Number(envelope.error_code))},"error_msg":${JSON.stringify(String(envelope.error_msg))},"data":${envelope.data.json}}`;
    };
  };
}
