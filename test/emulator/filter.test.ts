import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { EmulatorClient } from '../support/emulator-client';
import { createGuest, freshAccount, useEmulator } from '../support/emulator-harness';

describe('object filters', () => {
  const h = useEmulator();
  let client: EmulatorClient;

  const GUESTS = [
    {
      hostname: 'alpha',
      startCpus: 1,
      maxMemory: 1024,
      datacenter: { name: 'dal10' },
      tags: ['web', 'prod'],
      notes: 'first one',
    },
    {
      hostname: 'beta',
      startCpus: 2,
      maxMemory: 2048,
      datacenter: { name: 'wdc07' },
      tags: ['db'],
      notes: undefined,
    },
    {
      hostname: 'gamma',
      startCpus: 4,
      maxMemory: 4096,
      datacenter: { name: 'dal10' },
      tags: ['web'],
      notes: 'Gamma ray',
    },
    {
      hostname: 'delta',
      startCpus: 8,
      maxMemory: 8192,
      datacenter: { name: 'lon06' },
      tags: [],
      notes: undefined,
    },
    {
      hostname: 'Epsilon',
      startCpus: 2,
      maxMemory: 16384,
      datacenter: { name: 'fra02' },
      tags: ['prod'],
      notes: 'last',
    },
  ];

  before(async () => {
    client = await freshAccount(h.emu);
    for (const [i, g] of GUESTS.entries()) {
      await createGuest(client, {
        hostname: g.hostname,
        startCpus: g.startCpus,
        maxMemory: g.maxMemory,
        datacenter: g.datacenter,
        notes: g.notes,
        hourlyBillingFlag: i % 2 === 0,
        localDiskFlag: i < 2,
        networkComponents: [{ maxSpeed: i === 3 ? 1000 : 100 }],
        tagReferences: g.tags.map((name) => ({ tag: { name } })),
      });
    }
  });

  /** Hostnames of the guests matching `leaf` on `property` (a path is given as nested keys). */
  async function hosts(
    filter: Record<string, unknown>,
    extra: { limit?: number; offset?: number } = {},
  ): Promise<string[]> {
    const rows = await client.call<{ hostname: string }[]>('Account', 'getVirtualGuests', {
      filter: { virtualGuests: filter },
      mask: 'hostname',
      ...extra,
    });
    return rows.map((r) => r.hostname);
  }

  const op = (operation: unknown, options?: unknown) =>
    options ? { operation, options } : { operation };

  describe('object filter operations', () => {
    it('equality on strings (exact) and numbers given as numbers or text', async () => {
      assert.deepEqual(await hosts({ hostname: op('gamma') }), ['gamma']);
      assert.deepEqual(await hosts({ hostname: op('GAMMA') }), []);
      assert.deepEqual(await hosts({ maxCpu: op(2) }), ['beta', 'Epsilon']);
      assert.deepEqual(await hosts({ maxCpu: op('2') }), ['beta', 'Epsilon']);
      assert.deepEqual(await hosts({ maxCpu: op('!= 2') }), ['alpha', 'gamma', 'delta']);
    });

    it('prefix, suffix, contains (case-insensitive) and their negations', async () => {
      assert.deepEqual(await hosts({ hostname: op('^= EP') }), ['Epsilon']);
      assert.deepEqual(await hosts({ hostname: op('$= TA') }), ['beta', 'delta']);
      assert.deepEqual(await hosts({ hostname: op('*= mm') }), ['gamma']);
      assert.deepEqual(await hosts({ hostname: op('!*= a') }), ['Epsilon']);
      assert.deepEqual(await hosts({ hostname: op('!^= a') }), [
        'beta',
        'gamma',
        'delta',
        'Epsilon',
      ]);
      assert.deepEqual(await hosts({ hostname: op('!$= a') }), ['Epsilon']);
    });

    it('_= is case-insensitive equality with * wildcards', async () => {
      assert.deepEqual(await hosts({ hostname: op('_= EPSILON') }), ['Epsilon']);
      assert.deepEqual(await hosts({ hostname: op('_= *ta') }), ['beta', 'delta']);
      assert.deepEqual(await hosts({ hostname: op('_= g*a') }), ['gamma']);
      assert.deepEqual(await hosts({ hostname: op('_= amm') }), []);
    });

    it('~ and !~ match a regular expression (case-sensitive), and unsafe patterns fault', async () => {
      assert.deepEqual(await hosts({ hostname: op('~ ^[a-d]') }), ['alpha', 'beta', 'delta']);
      assert.deepEqual(await hosts({ hostname: op('~ E') }), ['Epsilon']);
      assert.deepEqual(await hosts({ hostname: op('!~ a$') }), ['Epsilon']);
      const bad = await client.callRaw('Account', 'getVirtualGuests', {
        filter: { virtualGuests: { hostname: op('~ (a+)+$') } },
      });
      assert.equal(bad.fault?.faultCode, 'Svc_Exception_Public');
    });

    it('comparisons on numbers', async () => {
      assert.deepEqual(await hosts({ maxMemory: op('> 4096') }), ['delta', 'Epsilon']);
      assert.deepEqual(await hosts({ maxMemory: op('>= 4096') }), ['gamma', 'delta', 'Epsilon']);
      assert.deepEqual(await hosts({ maxMemory: op('< 2048') }), ['alpha']);
      assert.deepEqual(await hosts({ maxMemory: op('<=2048') }), ['alpha', 'beta']);
    });

    it('is null / not null', async () => {
      assert.deepEqual(await hosts({ notes: op('is null') }), ['beta', 'delta']);
      assert.deepEqual(await hosts({ notes: op('not null') }), ['alpha', 'gamma', 'Epsilon']);
      assert.deepEqual(await hosts({ activeTransaction: { id: op('is null') } }), [
        'alpha',
        'beta',
        'gamma',
        'delta',
        'Epsilon',
      ]);
    });

    it('in, or and and', async () => {
      assert.deepEqual(
        await hosts({ hostname: op('in', [{ name: 'data', value: ['beta', 'delta', 'zeta'] }]) }),
        ['beta', 'delta'],
      );
      assert.deepEqual(await hosts({ maxCpu: op('in', [{ name: 'data', value: [4, 8] }]) }), [
        'gamma',
        'delta',
      ]);
      assert.deepEqual(
        await hosts({ hostname: op('or', [{ name: 'data', value: ['^= al', '^= be'] }]) }),
        ['alpha', 'beta'],
      );
      assert.deepEqual(
        await hosts({ maxMemory: op('and', [{ name: 'data', value: ['>= 2048', '<= 8192'] }]) }),
        ['beta', 'gamma', 'delta'],
      );
    });

    it('flags compare as booleans or as 1/0', async () => {
      assert.deepEqual(await hosts({ hourlyBillingFlag: op(1) }), ['alpha', 'gamma', 'Epsilon']);
      assert.deepEqual(await hosts({ localDiskFlag: op(0) }), ['gamma', 'delta', 'Epsilon']);
      assert.deepEqual(await hosts({ localDiskFlag: op(true) }), ['alpha', 'beta']);
    });

    it('paths through relations', async () => {
      assert.deepEqual(await hosts({ datacenter: { name: op('dal10') } }), ['alpha', 'gamma']);
      assert.deepEqual(
        await hosts({
          tagReferences: { tag: { name: op('in', [{ name: 'data', value: ['prod'] }]) } },
        }),
        ['alpha', 'Epsilon'],
      );
      assert.deepEqual(
        await hosts({
          tagReferences: { tag: { name: op('web') } },
          datacenter: { name: op('dal10') },
          maxCpu: op('> 1'),
        }),
        ['gamma'],
      );
      assert.deepEqual(await hosts({ networkComponents: { maxSpeed: op(1000) } }), ['delta']);
      assert.deepEqual(await hosts({ billingItem: { hourlyFlag: op(0) } }), ['beta', 'delta']);
    });

    it('orderBy ASC/DESC, several keys by sortOrder, through relations', async () => {
      const desc = { operation: 'orderBy', options: [{ name: 'sort', value: ['DESC'] }] };
      assert.deepEqual(await hosts({ maxMemory: desc }), [
        'Epsilon',
        'delta',
        'gamma',
        'beta',
        'alpha',
      ]);
      assert.deepEqual(
        await hosts({
          hostname: { operation: 'orderBy', options: [{ name: 'sort', value: ['ASC'] }] },
        }),
        ['alpha', 'beta', 'delta', 'Epsilon', 'gamma'],
      );
      const twoKeys = {
        maxCpu: {
          operation: 'orderBy',
          options: [
            { name: 'sort', value: ['DESC'] },
            { name: 'sortOrder', value: [1] },
          ],
        },
        hostname: {
          operation: 'orderBy',
          options: [
            { name: 'sort', value: ['ASC'] },
            { name: 'sortOrder', value: [2] },
          ],
        },
      };
      assert.deepEqual(await hosts(twoKeys), ['delta', 'gamma', 'beta', 'Epsilon', 'alpha']);
      assert.deepEqual(
        await hosts({
          datacenter: {
            name: { operation: 'orderBy', options: [{ name: 'sort', value: ['DESC'] }] },
          },
        }),
        ['beta', 'delta', 'Epsilon', 'alpha', 'gamma'],
      );
    });

    it('applies limit and offset after the filter and reports the filtered total', async () => {
      const res = await client.callRaw('Account', 'getVirtualGuests', {
        filter: {
          virtualGuests: {
            maxMemory: op('>= 2048'),
            hostname: { operation: 'orderBy', options: [{ name: 'sort', value: ['DESC'] }] },
          },
        },
        mask: 'hostname',
        limit: 2,
        offset: 1,
      });
      assert.equal(res.totalItems, 4);
      assert.deepEqual(res.value, [{ hostname: 'Epsilon' }, { hostname: 'delta' }]);
    });

    it('ignores a top-level orderBy beside the collection (as python iter_call adds)', async () => {
      const res = await client.call<unknown[]>('Account', 'getVirtualGuests', {
        filter: {
          id: { operation: 'orderBy', options: [{ name: 'sort', value: ['ASC'] }] },
          virtualGuests: { maxCpu: op(2) },
        },
        mask: 'id',
      });
      assert.equal(res.length, 2);
    });
  });

  describe('object filter dates', () => {
    // Seeded demo tickets: 2026-01-05 09:30, 2026-02-10 14:00, 2026-03-01 08:15 (-06:00).
    async function titles(createDate: Record<string, unknown>): Promise<string[]> {
      const rows = await h.demo.call<{ title: string }[]>('Account', 'getTickets', {
        filter: { tickets: { createDate } },
        mask: 'title',
      });
      return rows.map((r) => r.title.split(' ')[0]);
    }
    const date = (name: string, value: string) => ({ name, value: [value] });

    it('betweenDate, isDate, lessThanDate, greaterThanDate', async () => {
      assert.deepEqual(
        await titles(
          op('betweenDate', [
            date('startDate', '1/5/2026 9:30:00'),
            date('endDate', '02/10/2026 13:59:59'),
          ]),
        ),
        ['Disk'],
      );
      assert.deepEqual(await titles(op('isDate', [date('date', '02/10/2026')])), ['Reverse']);
      assert.deepEqual(await titles(op('lessThanDate', [date('date', '02/10/2026 14:00:01')])), [
        'Disk',
        'Reverse',
      ]);
      assert.deepEqual(await titles(op('greaterThanDate', [date('date', '02/28/2026 23:59:59')])), [
        'Question',
      ]);
    });

    it('comparisons with dates and relative sysdate', async () => {
      assert.deepEqual(await titles(op('> 2026-02-01T00:00:00-06:00')), ['Reverse', 'Question']);
      assert.deepEqual(await titles(op('< sysdate - 3650')), []);
      assert.deepEqual((await titles(op('> sysdate - 3650'))).length, 3);
    });

    it('faults on a malformed date option', async () => {
      const res = await h.demo.callRaw('Account', 'getTickets', {
        filter: { tickets: { createDate: op('betweenDate', [date('startDate', 'yesterday')]) } },
      });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_Public');
      assert.match(res.fault!.faultString, /startDate/);
    });
  });

  describe('object filter errors', () => {
    it('faults on unknown properties at any depth and on malformed leaves', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [
          { virtualGuests: { bogus: op('x') } },
          /Property 'bogus' not valid for 'Svc_Virtual_Guest'/,
        ],
        [
          { virtualGuests: { datacenter: { planet: op('x') } } },
          /Property 'planet' not valid for 'Svc_Location'/,
        ],
        [{ nonsense: { hostname: op('x') } }, /Property 'nonsense' not valid for 'Svc_Account'/],
        [{ virtualGuests: { datacenter: op('dal10') } }, /relational/],
        [{ virtualGuests: { hostname: 'alpha' } }, /'operation'/],
        [{ virtualGuests: { hostname: op(['x']) } }, /operation/],
        [{ virtualGuests: { hostname: op('in') } }, /'data'/],
        [
          { virtualGuests: { hostname: op('orderBy', [{ name: 'sort', value: ['UP'] }]) } },
          /ASC or DESC/,
        ],
      ];
      for (const [filter, message] of cases) {
        const res = await client.callRaw('Account', 'getVirtualGuests', { filter });
        assert.equal(res.fault?.faultCode, 'Svc_Exception_Public', JSON.stringify(filter));
        assert.match(res.fault!.faultString, message, JSON.stringify(filter));
      }
    });

    it('checks the filter of single-object calls too', async () => {
      const res = await client.callRaw('Account', 'getObject', { filter: { zzz: op(1) } });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_Public');
    });
  });
});
