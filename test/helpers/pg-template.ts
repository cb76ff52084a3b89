/**
 * Migrated PostgreSQL databases for test stores, cloned from a template: the migrations (some 230 DDL
 * statements) run once per server rather than once per store, and `CREATE DATABASE ... TEMPLATE` copies
 * the result in a fraction of the time. The first test file that needs the template builds it; files
 * starting in parallel wait for it on an advisory lock.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { migrateToLatest, openStore } from '../../src/store/database.ts';

/** The schema that holds the tables in every cloned database (named, as test stores always were). */
export const TEMPLATE_SCHEMA = 'altsports';

/** Any constant: it only has to be the same in every test process. */
const TEMPLATE_LOCK = 230_023;

let admin: pg.Pool | undefined;
let template: Promise<string> | undefined;
let counter = 0;

export interface ClonedDatabase {
  url: string;
  /** Drops the database, ending whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** `serverUrl` with another database as its path. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Named after the migrations it holds, so that a server kept between runs never hands out stale tables. */
function templateName(): string {
  const migrations = readFileSync(new URL('../../src/store/migrations.ts', import.meta.url), 'utf8');
  return `altsports_template_${createHash('sha256').update(migrations).digest('hex').slice(0, 12)}`;
}

/** Connections to the server's own database; idle ones never hold the test process open. */
function adminPool(serverUrl: string): pg.Pool {
  admin ??= new pg.Pool({ connectionString: serverUrl, max: 2, allowExitOnIdle: true });
  return admin;
}

/** Built under a temporary name and renamed once migrated: a run killed half-way leaves no broken template. */
async function buildTemplate(client: pg.Client, serverUrl: string, name: string): Promise<void> {
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await client.query(`create database "${building}"`);
  try {
    const store = openStore({
      databaseUrl: databaseUrl(serverUrl, building),
      pgSchema: TEMPLATE_SCHEMA,
      pgPoolSize: 1,
    });
    try {
      await migrateToLatest(store, TEMPLATE_SCHEMA);
    } finally {
      await store.close(); // a template may have no connections while it is renamed or cloned
    }
    await client.query(`alter database "${building}" rename to "${name}"`);
  } catch (error) {
    await client.query(`drop database if exists "${building}" with (force)`).catch(() => {});
    throw error;
  }
}

async function ensureTemplate(serverUrl: string): Promise<string> {
  const name = templateName();
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await buildTemplate(client, serverUrl, name);
  } finally {
    await client.end(); // ends the session, and with it the lock
  }
  return name;
}

/** A new database holding the migrated, empty tables in TEMPLATE_SCHEMA. */
export async function cloneTemplate(serverUrl: string): Promise<ClonedDatabase> {
  template ??= ensureTemplate(serverUrl);
  const source = await template;
  counter += 1;
  const name = `t_${process.pid}_${counter}_${randomBytes(4).toString('hex')}`;
  const pool = adminPool(serverUrl);
  await pool.query(`create database "${name}" template "${source}"`);
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      await pool.query(`drop database if exists "${name}" with (force)`);
    },
  };
}
