import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatFilterDate,
  formatMask,
  mergeFilters,
  nestedFilter,
  orderBy,
  queryFilter,
  queryFilterDate,
} from '../../provider/client';

void test('formatMask wraps a bare list and leaves rooted masks alone', () => {
  const cases: [string, string][] = [
    ['id', 'mask[id]'],
    [
      '  updates, assignedUser, attachedHardware.datacenter ',
      'mask[updates, assignedUser, attachedHardware.datacenter]',
    ],
    ['something.nested', 'mask[something.nested]'],
    ['maskedValue', 'mask[maskedValue]'],
    ['mask[something[nested]]', 'mask[something[nested]]'],
    ['mask.something.nested', 'mask.something.nested'],
    ['mask(Svc_Hardware_Server).controlPanel', 'mask(Svc_Hardware_Server).controlPanel'],
    ['filteredMask[a[b]]', 'filteredMask[a[b]]'],
    ['[mask.id,mask.x]', '[mask.id,mask.x]'],
    ['mask', 'mask'],
    ['mask[\n  id,\n  hostname\n]', 'mask[\n  id,\n  hostname\n]'],
  ];
  for (const [input, expected] of cases) assert.equal(formatMask(input), expected, input);
  assert.throws(() => formatMask('  '), TypeError);
});

void test('queryFilter: numbers, operators, wildcards and case-insensitive equality', () => {
  const cases: [string | number | boolean, string | number][] = [
    [86400, 86400],
    ['86400', 86400],
    [true, 1],
    [false, 0],
    [2.9, 2],
    ['example.com', '_= example.com'],
    ['  example.com ', '_= example.com'],
    ['*web*', '*= web'],
    ['*.com', '$= .com'],
    ['web*', '^= web'],
    ['>10', '> 10'],
    ['>= 1024', '>= 1024'],
    ['<=5', '<= 5'],
    ['!= x', '!= x'],
    ['!*=foo', '!*= foo'],
    ['!^= a', '!^= a'],
    ['!$= a', '!$= a'],
    ['~ ^web', '~ ^web'],
    ['!~ ^web', '!~ ^web'],
    ['_= Web', '_= Web'],
    ['not null', 'not null'],
    ['IS NULL', 'is null'],
  ];
  for (const [input, operation] of cases)
    assert.deepEqual(queryFilter(input), { operation }, String(input));
});

void test('queryFilterDate builds betweenDate with MM/DD/YYYY H:M:S', () => {
  assert.deepEqual(queryFilterDate('2018-01-01', '2018-01-02 13:05'), {
    operation: 'betweenDate',
    options: [
      { name: 'startDate', value: ['01/01/2018 0:0:0'] },
      { name: 'endDate', value: ['01/02/2018 13:5:0'] },
    ],
  });
  // An instant is written as wall time in the API's zone (UTC-6).
  assert.equal(
    formatFilterDate(new Date(Date.UTC(2024, 11, 31, 23, 59, 58))),
    '12/31/2024 17:59:58',
  );
  assert.equal(formatFilterDate(new Date('2025-01-15T09:00:00-06:00')), '01/15/2025 9:0:0');
  assert.throws(() => formatFilterDate('31/12/2024'), RangeError);
  assert.throws(() => formatFilterDate(new Date('nope')), RangeError);
});

void test('orderBy, nestedFilter and mergeFilters', () => {
  assert.deepEqual(orderBy(), {
    operation: 'orderBy',
    options: [{ name: 'sort', value: ['ASC'] }],
  });
  assert.deepEqual(orderBy('DESC', 1), {
    operation: 'orderBy',
    options: [
      { name: 'sort', value: ['DESC'] },
      { name: 'sortOrder', value: [1] },
    ],
  });
  const base = nestedFilter('virtualGuests.domain', queryFilter('example.com'));
  assert.deepEqual(base, { virtualGuests: { domain: { operation: '_= example.com' } } });
  const merged = nestedFilter(['virtualGuests', 'datacenter', 'name'], queryFilter('dal10'), base);
  assert.deepEqual(merged, {
    virtualGuests: {
      domain: { operation: '_= example.com' },
      datacenter: { name: { operation: '_= dal10' } },
    },
  });
  assert.deepEqual(
    base,
    { virtualGuests: { domain: { operation: '_= example.com' } } },
    'input not modified',
  );
  assert.deepEqual(mergeFilters(base, nestedFilter('virtualGuests.domain', queryFilter('*.org'))), {
    virtualGuests: { domain: { operation: '$= .org' } },
  });
  assert.throws(() => nestedFilter('a..b', queryFilter(1)), TypeError);
});
