/**
 * Clients that create small batches of records (each triggering a run) until told to stop or until
 * the server goes away, keeping the ids they were given: what a restarted server must still hold.
 */

export interface RecordWriters {
  /** No client starts another request after this; the ones under way finish or fail with the server. */
  stop(): void;
  finished: Promise<{ acknowledged: string[]; lost: number; refused: string[] }>;
}

export function startRecordWriters(options: { baseUrl: string; headers: Record<string, string>; worksheetId: string; titleField: string; clients: number; rowsPerBatch: number; tag: string }): RecordWriters {
  const acknowledged: string[] = [];
  const refused: string[] = [];
  let lost = 0;
  let stopped = false;
  let sent = 0;
  const path = `${options.baseUrl}/v3/app/worksheets/${options.worksheetId}/rows/batch`;
  async function client(): Promise<void> {
    while (!stopped) {
      const rows = Array.from({ length: options.rowsPerBatch }, () => ({ fields: [{ id: options.titleField, value: `${options.tag}/${sent++}` }] }));
      let text: string;
      let status: number;
      try {
        const response = await fetch(path, { method: 'POST', headers: options.headers, body: JSON.stringify({ rows }), signal: AbortSignal.timeout(60_000) });
        status = response.status;
        text = await response.text();
      } catch {
        // The connection broke: the server was killed. Committed or not, the check finds out.
        lost += 1;
        return;
      }
      const envelope = JSON.parse(text) as { success?: boolean; data?: { rowIds?: string[] } };
      if (status !== 200 || envelope.success !== true || !envelope.data?.rowIds) {
        refused.push(`HTTP ${status}: ${text.slice(0, 300)}`);
        return;
      }
      acknowledged.push(...envelope.data.rowIds);
    }
  }
  const finished = Promise.all(Array.from({ length: options.clients }, client)).then(() => ({ acknowledged, lost, refused }));
  return { stop: () => void (stopped = true), finished };
}
