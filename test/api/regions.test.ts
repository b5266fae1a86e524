import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';

interface RegionOut {
  id: string;
  name: string;
  path: string;
  last: boolean;
}
interface RegionsOut {
  regions: RegionOut[];
  currentRegion: { id: string; path: string } | null;
}

/**
 * `GET /v3/regions` and `/v3/regions/lookup`: China's provinces, cities and counties (GB/T 2260) and
 * the world's countries under 910000 海外, loaded by migration 0018 from data packages.
 */
describeApi('region lookups', (ctx) => {
  const regions = async (query: string, path = '/v3/regions') => {
    const response = await ctx.call<RegionsOut>('GET', `${path}${query}`);
    expect(response.body.error_msg).toBe('');
    return response.body.data;
  };

  it('lists the top level: the provinces and 海外, none of them last', async () => {
    const data = await regions('');
    expect(data.currentRegion).toBeNull();
    expect(data.regions[0]).toEqual({ id: '110000', name: '北京市', path: '北京市', last: false });
    expect(data.regions.at(-1)).toEqual({ id: '910000', name: '海外', path: '海外', last: false });
    expect(data.regions.map((r) => r.id)).toEqual(expect.arrayContaining(['440000', '710000', '810000', '820000']));
    expect(data.regions).toHaveLength(35);
  });

  it('lists the regions below a region, with the path of each and whether it is last', async () => {
    const province = await regions('?id=440000');
    expect(province.currentRegion).toEqual({ id: '440000', path: '广东省' });
    expect(province.regions[0]).toEqual({ id: '440100', name: '广州市', path: '广东省/广州市', last: false });
    const city = await regions('?id=440300');
    expect(city.currentRegion).toEqual({ id: '440300', path: '广东省/深圳市' });
    expect(city.regions).toContainEqual({ id: '440305', name: '南山区', path: '广东省/深圳市/南山区', last: true });
    expect(city.regions.every((r) => r.last)).toBe(true);
    // The districts of a municipality lie directly below it, as the data lists them.
    expect((await regions('?id=110000')).regions).toContainEqual({ id: '110101', name: '东城区', path: '北京市/东城区', last: true });
  });

  it('answers the same under /regions/lookup', async () => {
    expect(await regions('?id=440300', '/v3/regions/lookup')).toEqual(await regions('?id=440300'));
    expect(await regions('', '/api/v3/regions/lookup')).toEqual(await regions(''));
  });

  it('lists the countries under 海外, by ISO 3166-1 numeric code, in Chinese or English', async () => {
    const overseas = await regions('?id=910000');
    expect(overseas.regions.length).toBeGreaterThan(200);
    expect(overseas.regions).toContainEqual({ id: '910840', name: '美国', path: '海外/美国', last: true });
    expect(overseas.regions).toContainEqual({ id: '910392', name: '日本', path: '海外/日本', last: true });
    // China and the regions the Chinese data lists as provinces are not countries overseas.
    for (const id of ['910156', '910158', '910344', '910446']) expect(overseas.regions.map((r) => r.id)).not.toContain(id);
    const english = await regions('?id=910000&lang=en');
    expect(english.currentRegion).toEqual({ id: '910000', path: 'Overseas' });
    expect(english.regions).toContainEqual({ id: '910276', name: 'Germany', path: 'Overseas/Germany', last: true });
    // A country's code never reaches into another's: 910100 (Bulgaria) holds nothing.
    expect((await regions('?id=910100')).regions).toEqual([]);
  });

  it('searches names at every level, in Chinese or English, and below a region when given', async () => {
    const found = await regions('?search=南山');
    expect(found.regions).toContainEqual({ id: '440305', name: '南山区', path: '广东省/深圳市/南山区', last: true });
    expect(found.currentRegion).toBeNull();
    expect((await regions('?search=广州')).regions[0]).toEqual({ id: '440100', name: '广州市', path: '广东省/广州市', last: false });
    expect((await regions('?search=germany')).regions).toEqual([{ id: '910276', name: '德国', path: '海外/德国', last: true }]);
    const within = await regions('?id=440000&search=区');
    expect(within.currentRegion).toEqual({ id: '440000', path: '广东省' });
    expect(within.regions.length).toBeGreaterThan(0);
    expect(within.regions.every((r) => r.path.startsWith('广东省/'))).toBe(true);
    expect((await regions('?search=%E5%8C%BA')).regions).toHaveLength(100);
    expect((await regions('?search=no such place')).regions).toEqual([]);
  });

  it('refuses an id that is no region code (10002) or no region (10007)', async () => {
    const malformed = await ctx.call('GET', '/v3/regions?id=Guangdong');
    expect(malformed.body).toMatchObject({ success: false, error_code: 10002 });
    expect(malformed.body.error_msg).toContain('expected a region code');
    const unknown = await ctx.call('GET', '/v3/regions/lookup?id=990000');
    expect(unknown.body).toMatchObject({ success: false, error_code: 10007 });
    expect(unknown.body.error_msg).toBe('id: no region with code "990000"');
  });

  it('needs credentials', async () => {
    const response = await ctx.call('GET', '/v3/regions', undefined, {});
    expect(response.status).toBe(401);
  });
});
