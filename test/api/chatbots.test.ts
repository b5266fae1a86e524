import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { giveRole, memberWithToken } from '../helpers/people.js';

interface Chatbot { id: string; name: string; sectionId: string; prompt: string; welcomeText: string; presetQuestions: string[]; knowledgeIds: string[]; icon: string; iconColor: string; remark: string }
interface AppTree { sections: Array<{ id: string; items: Array<{ id: string; type: number; name: string }> }> }

/** Chatbots: created as items of a section, read, changed, deleted; hidden from members whose roles do not enable them. */
describeApi('chatbots: definitions, navigation and who sees them', (ctx) => {
  let knowledgeId: string;
  let otherKnowledgeId: string;
  const member: Record<string, { id: string; headers: Record<string, string> }> = {};

  const create = (body: Record<string, unknown>, headers?: Record<string, string>) => ctx.call<{ id: string }>('POST', '/v3/app/chatbots', body, headers);
  const get = (id: string, headers?: Record<string, string>) => ctx.call<Chatbot>('GET', `/v3/app/chatbots/${id}`, undefined, headers);
  const itemsOf = async (headers?: Record<string, string>) => {
    const app = await ctx.call<AppTree>('GET', '/v3/app', undefined, headers);
    expect(app.body.error_msg).toBe('');
    return app.body.data.sections.flatMap((s) => s.items.map((i) => ({ ...i, sectionId: s.id })));
  };

  beforeAll(async () => {
    const now = Date.now();
    knowledgeId = `kb-a-${ctx.engine}`;
    otherKnowledgeId = `kb-b-${ctx.engine}`;
    const base = { app_id: ctx.setup.app.appId, description: '', embedder: '{"kind":"builtin","model":"hashed-ngrams-v1","dimensions":256}', status: 'ready', error: null, created_by: ctx.setup.owner.accountId, created_at: now, updated_at: now };
    await ctx.database.db.insertInto('knowledge_bases').values([{ ...base, id: knowledgeId, name: 'Handbook' }, { ...base, id: otherKnowledgeId, name: 'Policies' }]).execute();
    for (const name of ['enabled', 'disabled', 'wide']) member[name] = await memberWithToken(ctx, `bot-${name}`);
  });

  it('creates a chatbot as an item (type 3) of the first section and reads it back', async () => {
    const made = await create({ name: ' Helpdesk ', prompt: 'You answer questions about the handbook.', welcomeText: 'Hi!', presetQuestions: ['How do I book leave?', ' '], knowledgeIds: [knowledgeId, knowledgeId], icon: 'robot', iconColor: '#2196f3', remark: 'first' });
    expect(made.body.error_msg).toBe('');
    const read = await get(made.body.data.id);
    expect(read.body.data).toMatchObject({ id: made.body.data.id, name: 'Helpdesk', prompt: 'You answer questions about the handbook.', welcomeText: 'Hi!', presetQuestions: ['How do I book leave?'], knowledgeIds: [knowledgeId], icon: 'robot', iconColor: '#2196f3', remark: 'first' });
    const item = (await itemsOf()).find((i) => i.id === made.body.data.id);
    expect(item).toEqual({ id: made.body.data.id, type: 3, name: 'Helpdesk', sectionId: read.body.data.sectionId });
  });

  it('changes the keys sent, replacing whole lists, renaming and moving its item', async () => {
    const made = await create({ name: 'Draft bot', presetQuestions: ['a', 'b'], knowledgeIds: [knowledgeId] });
    const section = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/sections/batch', { sections: [{ name: 'Assistants' }] });
    expect(section.body.error_msg).toBe('');
    const sectionId = section.body.data[0]!.id;
    const changed = await ctx.call<Chatbot>('PATCH', `/v3/app/chatbots/${made.body.data.id}`, { name: 'Policy bot', presetQuestions: ['c'], knowledgeIds: [otherKnowledgeId], sectionId });
    expect(changed.body.error_msg).toBe('');
    expect(changed.body.data).toMatchObject({ name: 'Policy bot', presetQuestions: ['c'], knowledgeIds: [otherKnowledgeId], sectionId, prompt: '' });
    expect((await itemsOf()).find((i) => i.id === made.body.data.id)).toMatchObject({ name: 'Policy bot', sectionId });
  });

  it('refuses bad input naming the key, and writes nothing', async () => {
    const before = (await ctx.call<{ chatbots: Chatbot[] }>('GET', '/v3/app/chatbots')).body.data.chatbots.length;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: '   ' }, 10001, 'name is required'],
      [{ name: 'x', knowledgeIds: [knowledgeId, 'nope'] }, 10002, 'knowledgeIds[1]: no knowledge base "nope"'],
      [{ name: 'x', sectionId: 'nope' }, 10007, 'sectionId: no section "nope"'],
    ];
    for (const [body, code, message] of cases) {
      const refused = await create(body);
      expect(refused.body).toMatchObject({ success: false, error_code: code });
      expect(refused.body.error_msg).toContain(message);
    }
    const schemaRefused = await create({ name: 'x', presetQuestions: [{ text: 'not a string' }] });
    expect(schemaRefused.body.success).toBe(false);
    expect(schemaRefused.body.error_msg).toContain('presetQuestions');
    expect((await ctx.call<{ chatbots: Chatbot[] }>('GET', '/v3/app/chatbots')).body.data.chatbots).toHaveLength(before);
  });

  it('shows a chatbot only to members whose roles enable it, and every chatbot to wider roles', async () => {
    const shown = await create({ name: 'Shown' });
    const hidden = await create({ name: 'Hidden' });
    await giveRole(ctx, 'Bot users', { permissionScope: 0, chatbotPermissions: [{ id: shown.body.data.id, enable: true }, { id: hidden.body.data.id, enable: false }] }, [member.enabled!.id]);
    await giveRole(ctx, 'No bots', { permissionScope: 0 }, [member.disabled!.id]);
    await giveRole(ctx, 'Readers', { permissionScope: 20 }, [member.wide!.id]);
    expect((await get(shown.body.data.id, member.enabled!.headers)).body.error_code).toBe(1);
    expect((await get(hidden.body.data.id, member.enabled!.headers)).body).toMatchObject({ error_code: 10007, error_msg: `chatbot_id: no chatbot "${hidden.body.data.id}" in this application` });
    expect((await get(shown.body.data.id, member.disabled!.headers)).body.error_code).toBe(10007);
    expect((await get(hidden.body.data.id, member.wide!.headers)).body.error_code).toBe(1);
    const enabledItems = (await itemsOf(member.enabled!.headers)).map((i) => i.id);
    expect(enabledItems).toContain(shown.body.data.id);
    expect(enabledItems).not.toContain(hidden.body.data.id);
    const listed = await ctx.call<{ chatbots: Chatbot[] }>('GET', '/v3/app/chatbots', undefined, member.enabled!.headers);
    expect(listed.body.data.chatbots.map((c) => c.name)).toEqual(['Shown']);
    // Members change nothing: creating and changing chatbots is for administrators.
    expect((await create({ name: 'Mine' }, member.wide!.headers)).body.error_code).toBe(10005);
  });

  it('refuses a role naming a chatbot that does not exist', async () => {
    const refused = await ctx.call('POST', '/v3/app/roles', { name: 'Bad', permissionScope: 0, chatbotPermissions: [{ id: 'ghost', enable: true }] });
    expect(refused.body).toMatchObject({ success: false, error_code: 10002, error_msg: 'chatbotPermissions[0].id: no chatbot "ghost" in this application' });
  });

  it('deletes a chatbot with its item and its conversations', async () => {
    const made = await create({ name: 'Short-lived' });
    const id = made.body.data.id;
    const now = Date.now();
    await ctx.database.db.insertInto('chatbot_conversations').values({ id: `c-${ctx.engine}`, chatbot_id: id, account_id: ctx.setup.owner.accountId, title: 'Hello', created_at: now, updated_at: now }).execute();
    await ctx.database.db.insertInto('chatbot_messages').values({ conversation_id: `c-${ctx.engine}`, seq: 1, id: 'm1', role: 'user', content: 'Hello', citations: null, created_at: now }).execute();
    expect((await ctx.call('DELETE', `/v3/app/chatbots/${id}`)).body.error_code).toBe(1);
    expect((await get(id)).body.error_code).toBe(10007);
    expect((await itemsOf()).some((i) => i.id === id)).toBe(false);
    expect(await ctx.database.db.selectFrom('chatbot_messages').select('id').where('conversation_id', '=', `c-${ctx.engine}`).execute()).toEqual([]);
  });
});
