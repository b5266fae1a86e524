import { afterEach, describe, expect, it } from 'vitest';
import { changeEpoch, linkProcesses, noteChange, noticesInFlight, receiveChange, tellOtherProcesses, type ProcessNotice } from '../../src/shared/change-notices.js';
import { SchemaCache } from '../../src/shared/schema-cache.js';

afterEach(() => linkProcesses(undefined));

describe('change notices', () => {
  it('bump the epoch, here and on a notice from another process', () => {
    const before = changeEpoch();
    noteChange();
    expect(changeEpoch()).toBe(before + 1);
    receiveChange();
    expect(changeEpoch()).toBe(before + 2);
  });

  it('send nothing and hold no response while this process is the only one', () => {
    noteChange();
    tellOtherProcesses({ kind: 'jobs' });
    expect(noticesInFlight()).toBeUndefined();
  });

  it('send one notice for the changes of one turn, and hold responses until it is delivered', async () => {
    const sent: ProcessNotice[] = [];
    let deliver: () => void = () => undefined;
    linkProcesses((notice) => {
      sent.push(notice);
      return new Promise<void>((resolve) => (deliver = resolve));
    });
    noteChange();
    noteChange();
    noteChange();
    const waiting = noticesInFlight();
    expect(waiting).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(sent).toEqual([{ kind: 'changed' }]);
    let released = false;
    void waiting!.then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(false);
    deliver();
    await waiting;
    expect(released).toBe(true);
    expect(noticesInFlight()).toBeUndefined();
  });

  it('pass nudges on without holding anything', () => {
    const sent: ProcessNotice[] = [];
    linkProcesses((notice) => {
      sent.push(notice);
      return new Promise<void>(() => undefined);
    });
    tellOtherProcesses({ kind: 'runEnded', runId: 'r1' });
    expect(sent).toEqual([{ kind: 'runEnded', runId: 'r1' }]);
    expect(noticesInFlight()).toBeUndefined();
  });
});

describe('SchemaCache', () => {
  it('drops every entry when anything changes, here or elsewhere', () => {
    const cache = new SchemaCache<string>();
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    receiveChange();
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'A2');
    cache.delete('b');
    expect(cache.get('a')).toBeUndefined();
  });

  it('treats an entry read while a change came in as stale at once', () => {
    const cache = new SchemaCache<string>();
    const readSince = changeEpoch();
    receiveChange();
    cache.set('a', 'read before the change', readSince);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'read after it');
    expect(cache.get('a')).toBe('read after it');
  });
});
