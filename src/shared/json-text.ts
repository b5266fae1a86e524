/**
 * A value already written as JSON text, for a serializer that sends it as it is instead of
 * serialising an object (record rows: `modules/records/row-json.ts`, sent by
 * `plugins/chunked-rows-serializer.ts`).
 */
export class JsonText {
  constructor(readonly json: string) {}
}
