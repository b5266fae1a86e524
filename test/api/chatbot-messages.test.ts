import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { startFakeModelServer } from '../helpers/fake-model-server.js';
import { giveRole, memberWithToken } from '../helpers/people.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface Citation { index: number; content: string; score: number; source: { type: string; rowId?: string; title: string } }
interface Answered { conversationId: string; messageId: string; answer: string; citations: Citation[] }
interface Conversation { id: string; title: string; messageCount: number; messages: Array<{ role: string; content: string; citations: Citation[] }> }

const model = await startFakeModelServer();
afterAll(() => model.close());

/** The events of a Server-Sent Events body, in order. */
function eventsOf(body: string): Array<{ event: string; data: Record<string, unknown> }> {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))!.slice('event: '.length);
      const data = JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice('data: '.length)) as Record<string, unknown>;
      return { event, data };
    });
}

/**
 * Asking a chatbot: the question is searched in its knowledge bases under the caller's
 * permissions, the passages found reach the model in the prompt, and the answer comes back with
 * the passages it cites, whole or streamed, kept in the caller's conversation.
 */
describeApi(
  'chatbot messages: grounded answers with citations, conversations, streaming',
  (ctx) => {
    let sheet: Sheet;
    let chatbotId: string;
    let leaveRow: string;
    const ask = (body: Record<string, unknown>, headers?: Record<string, string>) => ctx.call<Answered>('POST', `/v3/app/chatbots/${chatbotId}/messages`, body, headers);

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Handbook', [
        { name: 'Topic', alias: 'topic', type: '2', isTitle: true },
        { name: 'Answer', alias: 'answer', type: '2' },
      ]);
      leaveRow = await createRecord(ctx, sheet, [{ id: 'topic', value: 'Annual leave' }, { id: 'answer', value: 'Every employee has 25 days of annual leave a year.' }]);
      await createRecord(ctx, sheet, [{ id: 'topic', value: 'Parking' }, { id: 'answer', value: 'The car park opens at seven in the morning.' }]);
      const kb = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Handbook', sources: [{ worksheetId: sheet.id, fieldIds: ['topic', 'answer'] }] });
      expect(kb.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect((await ctx.call<{ status: string; chunkCount: number }>('GET', `/v3/app/knowledge/${kb.body.data.id}`)).body.data).toMatchObject({ status: 'ready', chunkCount: 2 });
      const bot = await ctx.call<{ id: string }>('POST', '/v3/app/chatbots', { name: 'HR helper', prompt: 'You answer questions about the staff handbook.', knowledgeIds: [kb.body.data.id] });
      expect(bot.body.error_msg).toBe('');
      chatbotId = bot.body.data.id;
      model.answer = (messages) => (messages[0]!.content.includes('25 days') ? 'You get 25 days of leave a year [1].' : 'I do not know.');
    });

    it('answers from the passages it was given, citing them, and keeps the turn', async () => {
      const before = model.chatRequests.length;
      const answered = await ask({ message: 'How many days of annual leave do I get?' });
      expect(answered.body.error_msg).toBe('');
      expect(answered.body.data.answer).toBe('You get 25 days of leave a year [1].');
      expect(answered.body.data.citations).toHaveLength(1);
      expect(answered.body.data.citations[0]).toMatchObject({ index: 1, source: { type: 'record', rowId: leaveRow, title: 'Annual leave' } });
      expect(answered.body.data.citations[0]!.content).toContain('25 days of annual leave');
      // The prompt: the chatbot's own, the rule to cite, the passages numbered; then the question.
      const sent = model.chatRequests[before]!.messages;
      expect(sent[0]!.role).toBe('system');
      expect(sent[0]!.content).toContain('You answer questions about the staff handbook.');
      expect(sent[0]!.content).toContain('[1] Annual leave\n');
      expect(sent.at(-1)).toEqual({ role: 'user', content: 'How many days of annual leave do I get?' });
      const kept = await ctx.call<Conversation>('GET', `/v3/app/chatbots/${chatbotId}/conversations/${answered.body.data.conversationId}`);
      expect(kept.body.data).toMatchObject({ title: 'How many days of annual leave do I get?', messageCount: 2 });
      expect(kept.body.data.messages.map((m) => [m.role, m.content, m.citations.length])).toEqual([
        ['user', 'How many days of annual leave do I get?', 0],
        ['assistant', 'You get 25 days of leave a year [1].', 1],
      ]);
    });

    it('sends the conversation so far with a follow-up, and numbers the turns on', async () => {
      const first = await ask({ message: 'When does the car park open?' });
      const before = model.chatRequests.length;
      const second = await ask({ conversationId: first.body.data.conversationId, message: 'And on Sundays?' });
      expect(second.body.error_msg).toBe('');
      expect(second.body.data.conversationId).toBe(first.body.data.conversationId);
      expect(model.chatRequests[before]!.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(model.chatRequests[before]!.messages[1]!.content).toBe('When does the car park open?');
      const listed = await ctx.call<{ conversations: Array<{ id: string; messageCount: number }>; total: number }>('GET', `/v3/app/chatbots/${chatbotId}/conversations`);
      expect(listed.body.data.conversations[0]).toMatchObject({ id: first.body.data.conversationId, messageCount: 4 });
    });

    it('grounds a member only in what they may read', async () => {
      const member = await memberWithToken(ctx, 'chat-reader');
      // Their own records only: the handbook's records were made by the app key, so none.
      await giveRole(ctx, 'Own records', { permissionScope: 0, worksheetPermissions: [{ id: sheet.id, recordDataScope: { read: 20 } }], chatbotPermissions: [{ id: chatbotId, enable: true }] }, [member.id]);
      const before = model.chatRequests.length;
      const answered = await ask({ message: 'How many days of annual leave do I get?' }, member.headers);
      expect(answered.body.error_msg).toBe('');
      expect(model.chatRequests[before]!.messages[0]!.content).not.toContain('25 days');
      expect(model.chatRequests[before]!.messages[0]!.content).toContain('Passages: none were found');
      expect(answered.body.data).toMatchObject({ answer: 'I do not know.', citations: [] });
      // Their conversations are theirs: the app key's are not listed for them, theirs not for the key.
      const theirs = await ctx.call<{ total: number }>('GET', `/v3/app/chatbots/${chatbotId}/conversations`, undefined, member.headers);
      expect(theirs.body.data.total).toBe(1);
      expect((await ctx.call('GET', `/v3/app/chatbots/${chatbotId}/conversations/${answered.body.data.conversationId}`)).body.error_code).toBe(10007);
    });

    it('keeps nothing of a turn the model failed, and says so without the service address', async () => {
      const listed = async () => (await ctx.call<{ total: number }>('GET', `/v3/app/chatbots/${chatbotId}/conversations`)).body.data.total;
      const count = await listed();
      model.failNext({ status: 500 });
      const failed = await ask({ message: 'Anything?' });
      expect([failed.status, failed.body.error_code]).toEqual([502, 0]);
      expect(failed.body.error_msg).toMatch(/^the language model failed \(HTTP 500\); the server log has the details \(request [^)]+\)$/);
      expect(failed.body.error_msg).not.toContain('127.0.0.1');
      expect(await listed()).toBe(count);
    });

    it('refuses a blank or missing message, and a conversation that is not the caller\'s', async () => {
      expect((await ask({})).body).toMatchObject({ error_code: 10001, error_msg: 'body.message is required' });
      expect((await ask({ message: '' })).body.error_code).toBe(10002);
      expect((await ask({ message: 'Hi', conversationId: 'nope' })).body).toMatchObject({ error_code: 10007, error_msg: 'conversationId: no conversation "nope" of yours with this chatbot' });
    });

    it('ends a stream the model broke off with an error event, keeping nothing', async () => {
      const count = (await ctx.call<{ total: number }>('GET', `/v3/app/chatbots/${chatbotId}/conversations`)).body.data.total;
      model.failNext({ streamError: 'the model is overloaded' });
      const response = await ctx.app.inject({ method: 'POST', url: `/v3/app/chatbots/${chatbotId}/messages`, headers: { ...ctx.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ message: 'Tell me about parking', stream: true }) });
      expect(response.statusCode).toBe(200);
      const events = eventsOf(response.body);
      expect(events.map((e) => e.event).filter((e) => e !== 'delta')).toEqual(['conversation', 'error']);
      expect(events.at(-1)!.data).toMatchObject({ success: false, error_code: 0 });
      expect((await ctx.call<{ total: number }>('GET', `/v3/app/chatbots/${chatbotId}/conversations`)).body.data.total).toBe(count);
    });

    it('streams the answer as Server-Sent Events over real HTTP, piece by piece, then keeps it', async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.app.server.address() as AddressInfo;
      const release = model.holdStreamAfterFirstChunk();
      const response = await fetch(`http://127.0.0.1:${port}/v3/app/chatbots/${chatbotId}/messages`, {
        method: 'POST',
        headers: { ...ctx.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'How many days of annual leave do I get?', stream: true }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      // The conversation and the first piece arrive while the model still holds the rest.
      while (!text.includes('event: delta')) text += decoder.decode((await reader.read()).value, { stream: true });
      release();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
      const events = eventsOf(text);
      expect(events[0]!.event).toBe('conversation');
      expect(events.at(-1)!.event).toBe('done');
      const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('You get 25 days of leave a year [1].');
      const done = events.at(-1)!.data as unknown as Answered;
      expect(done.citations.map((c) => c.source.rowId)).toEqual([leaveRow]);
      const kept = await ctx.call<Conversation>('GET', `/v3/app/chatbots/${chatbotId}/conversations/${done.conversationId}`);
      expect(kept.body.data.messages.map((m) => m.content)).toEqual(['How many days of annual leave do I get?', 'You get 25 days of leave a year [1].']);
    });
  },
  { LLM_URL: model.url, LLM_MODEL: 'fake-chat', WORKERS: '0' },
);

describeApi('chatbot messages without a model configured', (ctx) => {
  it('refuses with a message naming LLM_URL, keeping nothing', async () => {
    const bot = await ctx.call<{ id: string }>('POST', '/v3/app/chatbots', { name: 'Silent' });
    const refused = await ctx.call(`POST`, `/v3/app/chatbots/${bot.body.data.id}/messages`, { message: 'Hello?' });
    expect([refused.status, refused.body.error_code]).toEqual([503, 0]);
    expect(refused.body.error_msg).toContain('LLM_URL');
    expect((await ctx.call<{ total: number }>('GET', `/v3/app/chatbots/${bot.body.data.id}/conversations`)).body.data.total).toBe(0);
  });
});
