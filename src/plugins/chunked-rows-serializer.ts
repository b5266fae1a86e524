import fastJsonStringify from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import type { FastifySerializerCompiler } from 'fastify';
import { JsonText } from '../shared/json-text.js';

/** Rows serialised into one string piece before it is encoded: far below V8's large-object size. */
const CHUNK_CHARACTERS = 16_000;
/** Up to this many rows the response is one string, as on every other route. */
const ROWS_IN_ONE_STRING = 16;
const EMPTY_ROWS = '"rows":[]';

type Serialize = (payload: unknown) => string;

/**
 * A serializer for envelopes whose `data.rows` can be long (record lists): the rows are serialised
 * one by one with the row schema (or sent as the text they came as: `JsonText`), and encoded to
 * UTF-8 in pieces of about 16,000 characters.
 *
 * Why: a page of 50 records is 60–80,000 characters. As soon as one character is outside Latin-1
 * (an en dash, an accent, any CJK text) V8 keeps the whole response as a two-byte string, which
 * over 64K characters lands in the large-object space, where measuring and encoding it for the
 * socket cost about 0.7 ms more than the same text in pieces (docs/benchmark.md). The bytes sent
 * are exactly those of the one-string serializer.
 *
 * @example app.post('/…/rows/list', { serializerCompiler: chunkedRowsSerializer(RecordItem), schema, handler })
 */
export function chunkedRowsSerializer<RouteSchema>(rowSchema: TSchema): FastifySerializerCompiler<RouteSchema> {
  const serializeRow = fastJsonStringify(rowSchema) as Serialize;
  return ({ schema, httpStatus }) => {
    const serializeWhole = fastJsonStringify(schema as TSchema) as Serialize;
    if (httpStatus !== '200') return serializeWhole;
    // Fastify sends a Buffer as it is (its length is the Content-Length); its type says string only.
    return (payload: unknown) => serializeEnvelope(payload, serializeWhole, serializeRow) as string;
  };
}

/** A row's JSON: the text it came as (`JsonText`), or what the row schema makes of the object. */
function rowText(row: unknown, serializeRow: Serialize): string {
  return row instanceof JsonText ? row.json : serializeRow(row);
}

function serializeEnvelope(payload: unknown, serializeWhole: Serialize, serializeRow: Serialize): string | Buffer {
  const data = (payload as { data?: { rows?: unknown } }).data;
  const rows = data?.rows;
  if (!Array.isArray(rows) || rows.length === 0) return serializeWhole(payload);
  // Rows that came as text cannot go through the whole envelope's schema: they are always spliced in.
  if (rows.length <= ROWS_IN_ONE_STRING && !(rows[0] instanceof JsonText)) return serializeWhole(payload);
  // The envelope without its rows, then the rows spliced in where its empty list stands: `data`
  // is the envelope's last key and `rows` the first of `data`, so nothing before it can hold the
  // marker (`success`, `error_code` and an empty `error_msg` come first).
  const frame = serializeWhole({ ...(payload as object), data: { ...data, rows: [] } });
  const at = frame.indexOf(EMPTY_ROWS) + EMPTY_ROWS.length - 1;
  const pieces: Buffer[] = [Buffer.from(frame.slice(0, at))];
  let piece = '';
  for (let i = 0; i < rows.length; i++) {
    piece += (i === 0 ? '' : ',') + rowText(rows[i], serializeRow);
    if (piece.length >= CHUNK_CHARACTERS) {
      pieces.push(Buffer.from(piece));
      piece = '';
    }
  }
  pieces.push(Buffer.from(piece + frame.slice(at)));
  return Buffer.concat(pieces);
}
