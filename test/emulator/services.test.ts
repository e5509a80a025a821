/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk loosely typed API results */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshAccount, useEmulator } from '../support/emulator-harness';

const h = useEmulator();

type Row = Record<string, any>;

describe('Account', () => {
  it('returns the account, the current user and the seeded collections', async () => {
    const account = await h.demo.call<Row>('Account', 'getObject');
    assert.equal(account.companyName, 'Svc Demo Company');
    assert.equal(account.id, h.emu.accounts.demo.accountId);
    assert.equal(account.virtualGuests, undefined, 'relations only when asked');
    const user = await h.demo.call<Row>('Account', 'getCurrentUser');
    assert.equal(user.username, 'demo');
    assert.equal(user.apiKey, undefined);
    const hardware = await h.demo.call<Row[]>('Account', 'getHardware', {
      mask: 'hostname, datacenter.name',
    });
    assert.deepEqual(hardware, [
      { hostname: 'db01', datacenter: { name: 'dal10' } },
      { hostname: 'backup01', datacenter: { name: 'wdc07' } },
    ]);
    const ips = await h.demo.call<Row[]>('Account', 'getIpAddresses', {
      mask: 'ipAddress, hardware.hostname',
    });
    assert.ok(ips.some((ip) => ip.ipAddress === '192.0.2.21' && ip.hardware.hostname === 'db01'));
    const domains = await h.demo.call<Row[]>('Account', 'getDomains');
    assert.deepEqual(
      domains.map((d) => d.name),
      ['example.com'],
    );
    assert.deepEqual(
      await h.demo.call('Account', 'getVirtualGuests'),
      [],
      'the demo account starts with no guests',
    );
    const counts = await h.demo.call<Row>('Account', 'getObject', {
      mask: 'mask[hardwareCount, openTicketCount, domainCount, userCount]',
    });
    assert.equal(
      counts.companyName,
      'Svc Demo Company',
      'counts are relational: all local properties still come back',
    );
    assert.deepEqual(
      [counts.hardwareCount, counts.openTicketCount, counts.domainCount, counts.userCount],
      [2, 2, 1, 2],
    );
  });

  it('keeps the sample guests of the other account in legacy.example.net', async () => {
    const guests = await h.other.call<Row[]>('Account', 'getVirtualGuests', {
      mask: 'fullyQualifiedDomainName, provisionDate',
    });
    assert.deepEqual(
      guests.map((g) => g.fullyQualifiedDomainName),
      ['legacy-web1.legacy.example.net', 'legacy-db1.legacy.example.net'],
    );
    assert.ok(guests.every((g) => typeof g.provisionDate === 'string'));
  });

  it('filters tickets by createDate with betweenDate and splits open and closed', async () => {
    const between = await h.demo.call<Row[]>('Account', 'getTickets', {
      filter: {
        tickets: {
          createDate: {
            operation: 'betweenDate',
            options: [
              { name: 'startDate', value: ['02/01/2026 0:0:0'] },
              { name: 'endDate', value: ['03/01/2026 23:59:59'] },
            ],
          },
        },
      },
      mask: 'title',
    });
    assert.deepEqual(
      between.map((t) => t.title),
      ['Reverse DNS for 192.0.2.10', 'Question about the February invoice'],
    );
    const open = await h.demo.call<Row[]>('Account', 'getOpenTickets', { mask: 'title' });
    assert.equal(open.length, 2);
    const closed = await h.demo.call<Row[]>('Account', 'getClosedTickets', { mask: 'title' });
    assert.deepEqual(
      closed.map((t) => t.title),
      ['Reverse DNS for 192.0.2.10'],
    );
  });
});

describe('Ticket', () => {
  it('returns a ticket with updates, assigned user and attached hardware with its datacenter', async () => {
    const [first] = await h.demo.call<Row[]>('Account', 'getTickets', { mask: 'id', limit: 1 });
    const ticket = await h.demo.call<Row>('Ticket', 'getObject', {
      id: first.id,
      mask: 'updates, assignedUser, attachedHardware.datacenter',
    });
    assert.equal(ticket.title, 'Disk warning on db01');
    assert.equal(ticket.updates.length, 2);
    assert.equal(ticket.updates[1].editorType, 'EMPLOYEE');
    assert.equal(ticket.assignedUser.username, 'demo');
    assert.equal(ticket.attachedHardware[0].hostname, 'db01');
    assert.equal(ticket.attachedHardware[0].datacenter.name, 'dal10');
    assert.match(ticket.createDate, /^2026-01-05T09:30:00-06:00$/);
  });

  it('creates a standard ticket and adds updates', async () => {
    const client = await freshAccount(h.emu);
    const ticket = await client.call<Row>('Ticket', 'createStandardTicket', {
      args: [{ subjectId: 1004, title: 'Please add a PTR record' }, 'For 192.0.2.50 please.'],
    });
    assert.equal(ticket.title, 'Please add a PTR record');
    assert.equal(ticket.statusId, 1001);
    const update = await client.call<Row>('Ticket', 'addUpdate', {
      id: ticket.id,
      args: [{ entry: 'Any news?' }],
    });
    assert.deepEqual(Object.keys(update).sort(), [
      'createDate',
      'editorId',
      'editorType',
      'entry',
      'id',
      'ticketId',
    ]);
    assert.equal(update.entry, 'Any news?');
    assert.equal(update.ticketId, ticket.id);
    const updates = await client.call<Row[]>('Ticket', 'getUpdates', {
      id: ticket.id,
      mask: 'entry',
    });
    assert.deepEqual(updates, [{ entry: 'For 192.0.2.50 please.' }, { entry: 'Any news?' }]);
    const count = await client.call<Row>('Ticket', 'getObject', {
      id: ticket.id,
      mask: 'id, updateCount, subject.name, status.name',
    });
    assert.deepEqual(count, {
      id: ticket.id,
      updateCount: 2,
      subject: { name: 'DNS Request' },
      status: { name: 'Open' },
    });
  });

  it('refuses bad tickets and empty updates', async () => {
    const cases: [unknown[], string, RegExp][] = [
      [[{ subjectId: 1004 }, 'body'], 'Svc_Exception_Public', /'title'/],
      [[{ subjectId: 7, title: 't' }, 'body'], 'Svc_Exception_Public', /'subjectId'/],
      [[{ subjectId: 1004, title: 't' }, '  '], 'Svc_Exception_InvalidValue', /'contents'/],
      [
        [{ subjectId: 1004, title: 't', color: 'red' }, 'b'],
        'Svc_Exception_Public',
        /Property 'color' not valid for 'Svc_Ticket'/,
      ],
      [[{ subjectId: 1004, title: 't' }], '-32602', /'contents' is required/],
    ];
    for (const [args, code, message] of cases) {
      const res = await h.demo.callRaw('Ticket', 'createStandardTicket', { args });
      assert.equal(res.fault?.faultCode, code, JSON.stringify(args));
      assert.match(res.fault!.faultString, message);
    }
    const [first] = await h.demo.call<Row[]>('Account', 'getTickets', { mask: 'id', limit: 1 });
    const empty = await h.demo.callRaw('Ticket', 'addUpdate', {
      id: first.id,
      args: [{ entry: '' }],
    });
    assert.equal(empty.fault?.faultCode, 'Svc_Exception_InvalidValue');
    const subjects = await h.demo.call<Row[]>('Ticket_Subject', 'getAllObjects');
    assert.equal(subjects.length, 5);
  });
});

describe('DNS', () => {
  it('finds the seeded zone by name and lists its records', async () => {
    const [zone] = await h.demo.call<Row[]>('Dns_Domain', 'getByDomainName', {
      args: ['Example.COM'],
    });
    assert.equal(zone.name, 'example.com');
    const records = await h.demo.call<Row[]>('Dns_Domain', 'getResourceRecords', {
      id: zone.id,
      mask: 'host, type, data, mxPriority',
    });
    assert.ok(
      records.some((r) => r.type === 'mx' && r.mxPriority === 10 && r.data === 'mail.example.com.'),
    );
    assert.deepEqual(
      await h.demo.call('Dns_Domain', 'getByDomainName', { args: ['nope.example'] }),
      [],
    );
  });

  it('dumps a zone in BIND format, SOA first, one line per record', async () => {
    const [zone] = await h.demo.call<Row[]>('Account', 'getDomains', { mask: 'id, serial' });
    const records = await h.demo.call<Row[]>('Dns_Domain', 'getResourceRecords', { id: zone.id });
    const text = await h.demo.call<string>('Dns_Domain', 'getZoneFileContents', { id: zone.id });
    const lines = text.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 2), ['$ORIGIN example.com.', '$TTL 86400']);
    assert.match(
      lines[2],
      new RegExp(`^@\\t86400\\tIN\\tSOA\\t\\S+ root\\.example\\.com\\. \\(${zone.serial} `),
    );
    assert.equal(lines.length, 3 + records.length);
    assert.ok(lines.includes('@\t86400\tIN\tMX\t10 mail.example.com.'));
    assert.ok(lines.includes('@\t3600\tIN\tTXT\t"v=spf1 mx -all"'));
    const other = await h.other.callRaw('Dns_Domain', 'getZoneFileContents', { id: zone.id });
    assert.equal(other.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
  });

  it('creates, edits and deletes zones and records', async () => {
    const client = await freshAccount(h.emu);
    const zone = await client.call<Row>('Dns_Domain', 'createObject', {
      args: [{ name: 'Zone.Test', serial: '2026010101', resourceRecords: {} }],
    });
    assert.equal(zone.name, 'zone.test');
    const dup = await client.callRaw('Dns_Domain', 'createObject', {
      args: [{ name: 'zone.test' }],
    });
    assert.equal(dup.fault?.faultCode, 'Svc_Exception_Public');

    const record = await client.call<Row>('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ host: 'www', data: '192.0.2.80', ttl: 900, type: 'A', domainId: zone.id }],
    });
    assert.deepEqual(
      { host: record.host, type: record.type, ttl: record.ttl, domainId: record.domainId },
      {
        host: 'www',
        type: 'a',
        ttl: 900,
        domainId: zone.id,
      },
    );
    const mx = await client.call<Row>('Dns_Domain_ResourceRecord', 'createObject', {
      args: [{ host: '@', data: 'mx.zone.test.', ttl: 3600, type: 'mx', domainId: zone.id }],
    });
    assert.equal(mx.mxPriority, 10);
    assert.equal(
      await client.call('Dns_Domain_ResourceRecord', 'editObject', {
        id: record.id,
        args: [{ ttl: 60, data: '192.0.2.81' }],
      }),
      true,
    );
    const edited = await client.call<Row>('Dns_Domain_ResourceRecord', 'getObject', {
      id: record.id,
    });
    assert.deepEqual([edited.ttl, edited.data, edited.host], [60, '192.0.2.81', 'www']);
    const after = await client.call<Row>('Dns_Domain', 'getObject', {
      id: zone.id,
      mask: 'serial',
    });
    assert.ok(after.serial > 2026010101, 'record changes bump the serial');

    for (const [input, field] of [
      [{ host: 'x', data: 'not-an-ip', ttl: 60, type: 'a' }, 'data'],
      [{ host: 'x', data: '192.0.2.1', ttl: -5, type: 'a' }, 'ttl'],
      [{ host: 'x', data: '192.0.2.1', ttl: 60, type: 'bogus' }, 'type'],
      [{ host: '', data: '192.0.2.1', ttl: 60, type: 'a' }, 'host'],
    ] as const) {
      const res = await client.callRaw('Dns_Domain_ResourceRecord', 'createObject', {
        args: [{ ...input, domainId: zone.id }],
      });
      assert.equal(res.fault?.faultCode, 'Svc_Exception_InvalidValue', field);
      assert.match(res.fault!.faultString, new RegExp(`'${field}'`));
    }

    assert.equal(
      await client.call('Dns_Domain_ResourceRecord', 'deleteObject', { id: record.id }),
      true,
    );
    const gone = await client.callRaw('Dns_Domain_ResourceRecord', 'getObject', { id: record.id });
    assert.equal(gone.fault?.faultCode, 'Svc_Exception_ObjectNotFound');
    assert.equal(await client.call('Dns_Domain', 'deleteObject', { id: zone.id }), true);
    assert.equal(
      (await client.callRaw('Dns_Domain_ResourceRecord', 'getObject', { id: mx.id })).fault
        ?.faultCode,
      'Svc_Exception_ObjectNotFound',
    );
    assert.deepEqual(await client.call('Account', 'getDomains'), []);
  });
});

describe('Hardware_Server, Location_Datacenter', () => {
  it('reads a hardware server and the datacenters', async () => {
    const [db] = await h.demo.call<Row[]>('Account', 'getHardware', { mask: 'id', limit: 1 });
    const server = await h.demo.call<Row>('Hardware_Server', 'getObject', {
      id: db.id,
      mask: 'mask[hostname, datacenter[name, longName], hardwareStatus]',
    });
    assert.deepEqual(server, {
      hostname: 'db01',
      datacenter: { name: 'dal10', longName: 'Dallas 10' },
      hardwareStatus: { id: 5, status: 'ACTIVE' },
    });
    const dcs = await h.demo.call<Row[]>('Location_Datacenter', 'getDatacenters', { mask: 'name' });
    for (const name of ['dal10', 'dal12', 'dal13', 'wdc07', 'lon06', 'fra02', 'tok02', 'syd01'])
      assert.ok(
        dcs.some((d) => d.name === name),
        name,
      );
    const tokyo = await h.demo.call<Row[]>('Location_Datacenter', 'getDatacenters', {
      filter: { name: { operation: 'tok02' } },
    });
    assert.deepEqual(tokyo, [{ id: 449604, name: 'tok02', longName: 'Tokyo 2', statusId: 2 }]);
  });
});
