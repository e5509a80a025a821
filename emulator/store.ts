/**
 * In-memory state (tables of records with a few secondary indexes) and the only way to change
 * it: `write(ops)`, which applies a transaction to memory at once and resolves when the journal
 * has it on disk. Callers answer the client only after that promise resolves.
 */
import { Journal, type JournalOp, type SnapshotState } from './journal';

/**
 * Table name to record type. Empty here: each service's model adds the tables it declares
 * (`declare module '../../store'`), so the store knows every record type without importing
 * any service, and services/registry.ts checks that every declared table is registered.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables {}

export type TableName = keyof Tables;

/** Where a table's ids start (ids are never reused: counters only grow and are persisted) and the fields indexed for lookups. */
export interface TableSpec {
  readonly firstId: number;
  readonly indexes: readonly string[];
}

/** A table as a model declares it: its spec, carrying the record type `R` for `RecordsOf`. */
export interface TableDecl<R> extends TableSpec {
  /** Never set: only names the record type. */
  readonly record?: R;
}

export const table = <R extends { id: number }>(
  firstId: number,
  indexes: readonly (keyof R & string)[] = [],
): TableDecl<R> => ({ firstId, indexes });

/** `{ guests: TableDecl<GuestRec> }` to `{ guests: GuestRec }`: how a model adds its tables to `Tables`. */
export type RecordsOf<T> = { [K in keyof T]: T[K] extends TableDecl<infer R> ? R : never };

export type TableSpecs = { readonly [K in TableName]: TableSpec };

export type WriteOp = {
  [K in TableName]: { put: K; record: Tables[K] } | { del: K; id: number };
}[TableName];

const SUB_IDS = 'subIds';
const FIRST_SUB_ID = 800001;

export class Store {
  private readonly tables = new Map<TableName, Map<number, Tables[TableName]>>();
  private readonly indexes = new Map<string, Map<number, Set<number>>>();
  private readonly counters = new Map<string, number>();
  private readonly dirtyCounters = new Set<string>();
  private journal: Journal | null = null;
  writes = 0;

  /** `specs`: every table (services/registry.ts derives them from the registered services). */
  constructor(private readonly specs: TableSpecs) {
    for (const name of Object.keys(specs) as TableName[]) {
      this.tables.set(name, new Map());
      this.counters.set(name, specs[name].firstId);
      for (const field of specs[name].indexes) this.indexes.set(`${name}.${field}`, new Map());
    }
    this.counters.set(SUB_IDS, FIRST_SUB_ID);
  }

  /** Restores persisted state and routes later writes through the journal. */
  attach(journal: Journal, snapshot: SnapshotState | null, entries: JournalOp[][]): void {
    if (snapshot) {
      for (const [name, value] of Object.entries(snapshot.counters)) this.counters.set(name, value);
      for (const [name, records] of Object.entries(snapshot.tables)) {
        if (!this.tables.has(name as TableName)) continue;
        for (const record of records)
          this.putRaw(name as TableName, record as unknown as Tables[TableName]);
      }
    }
    for (const ops of entries) this.replay(ops);
    this.journal = journal;
    journal.setSnapshotProvider(() => this.snapshot());
  }

  isEmpty(): boolean {
    return this.tables.get('accounts')!.size === 0;
  }

  get<K extends TableName>(table: K, id: number): Tables[K] | undefined {
    return this.tables.get(table)!.get(id) as Tables[K] | undefined;
  }

  all<K extends TableName>(table: K): Tables[K][] {
    return [...this.tables.get(table)!.values()] as Tables[K][];
  }

  count(table: TableName): number {
    return this.tables.get(table)!.size;
  }

  /** Records whose indexed `field` equals `value`, in ascending id order. */
  by<K extends TableName>(table: K, field: string, value: number): Tables[K][] {
    const index = this.indexes.get(`${table}.${field}`);
    if (!index) throw new Error(`no index ${table}.${field}`);
    const ids = index.get(value);
    if (!ids) return [];
    const rows = this.tables.get(table)!;
    const out: Tables[K][] = [];
    for (const id of ids) out.push(rows.get(id) as Tables[K]);
    // Sets keep insertion order, which is id order unless a record was re-indexed.
    for (let i = 1; i < out.length; i += 1) {
      if (out[i].id < out[i - 1].id) return out.sort((a, b) => a.id - b.id);
    }
    return out;
  }

  countBy(table: TableName, field: string, value: number): number {
    return this.indexes.get(`${table}.${field}`)?.get(value)?.size ?? 0;
  }

  /** A fresh id for a table record; ids are never reused (counters are persisted). */
  nextId(table: TableName): number {
    return this.bump(table);
  }

  /** A fresh id for a sub-object stored inside a record (NIC, disk, tag reference, transaction). */
  nextSubId(): number {
    return this.bump(SUB_IDS);
  }

  /** Applies the transaction now; resolves when it is durable. */
  write(ops: WriteOp[]): Promise<void> {
    const journalOps: JournalOp[] = [];
    for (const name of this.dirtyCounters) journalOps.push(['ctr', name, this.counters.get(name)!]);
    this.dirtyCounters.clear();
    for (const op of ops) {
      if ('put' in op) {
        this.putRaw(op.put, op.record);
        journalOps.push(['put', op.put, op.record as unknown as Record<string, unknown>]);
      } else {
        this.delRaw(op.del, op.id);
        journalOps.push(['del', op.del, op.id]);
      }
    }
    this.writes += 1;
    return this.journal ? this.journal.append(journalOps) : Promise.resolve();
  }

  snapshot(): SnapshotState {
    const tables: SnapshotState['tables'] = {};
    for (const [name, rows] of this.tables) {
      tables[name] = [...rows.values()] as unknown as Record<string, unknown>[];
    }
    return { counters: Object.fromEntries(this.counters), tables };
  }

  private bump(name: string): number {
    const id = this.counters.get(name)!;
    this.counters.set(name, id + 1);
    this.dirtyCounters.add(name);
    return id;
  }

  private replay(ops: JournalOp[]): void {
    for (const op of ops) {
      const [kind, name, value] = op;
      if (kind === 'ctr') this.counters.set(name, value);
      else if (!this.tables.has(name as TableName))
        throw new Error(`journal names unknown table ${name}`);
      else if (kind === 'put')
        this.putRaw(name as TableName, value as unknown as Tables[TableName]);
      else this.delRaw(name as TableName, value);
    }
  }

  private putRaw(table: TableName, record: Tables[TableName]): void {
    const rows = this.tables.get(table)!;
    const previous = rows.get(record.id);
    for (const field of this.specs[table].indexes) {
      const index = this.indexes.get(`${table}.${field}`)!;
      const before = previous ? (previous as unknown as Record<string, number>)[field] : undefined;
      const after = (record as unknown as Record<string, number>)[field];
      if (before === after) continue;
      if (before !== undefined) index.get(before)?.delete(record.id);
      if (after !== undefined) {
        let ids = index.get(after);
        if (!ids) index.set(after, (ids = new Set()));
        ids.add(record.id);
      }
    }
    rows.set(record.id, record);
    const counter = this.counters.get(table)!;
    if (record.id >= counter) this.counters.set(table, record.id + 1);
  }

  private delRaw(table: TableName, id: number): void {
    const rows = this.tables.get(table)!;
    const previous = rows.get(id);
    if (!previous) return;
    for (const field of this.specs[table].indexes) {
      const value = (previous as unknown as Record<string, number>)[field];
      if (value !== undefined) this.indexes.get(`${table}.${field}`)!.get(value)?.delete(id);
    }
    rows.delete(id);
  }
}
