import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import type { Connection } from './connection.ts';

/**
 * One set of migrations for both stores. Column types are chosen so that SQLite and PostgreSQL read
 * back the same JavaScript values: text timestamps, integer flags, double precision prices.
 */

// biome-ignore lint/suspicious/noExplicitAny: a migration stays as it was written, whatever the Database type becomes (Kysely's advice).
type AnyDb = Kysely<any>;

const text = 'text' as const;
const integer = 'integer' as const;
const double = 'double precision' as const;

/**
 * The first schema: tours and their years, teams, athletes, events, rounds, heats, round scores,
 * futures and their odds, API keys. A list of tables, long as the list is: a migration stays as it
 * was first run.
 */
async function initial(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('tours')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('competition', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('gender', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tour_years')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('tour_id', text, (c) => c.notNull().references('tours.id'))
    .addColumn('year', integer, (c) => c.notNull())
    .addColumn('start_date', text)
    .addColumn('end_date', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('competition', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('short_name', text)
    .addColumn('logo', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('athletes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('first_name', text, (c) => c.notNull())
    .addColumn('middle_name', text, (c) => c.notNull())
    .addColumn('last_name', text, (c) => c.notNull())
    .addColumn('nationality', text)
    .addColumn('stance', text)
    .addColumn('team_id', text, (c) => c.references('teams.id'))
    .addColumn('hometown', text)
    .addColumn('height', text)
    .addColumn('weight', text)
    .addColumn('gender', text)
    .addColumn('weight_class', text)
    .addColumn('dob', text)
    .addColumn('provider_id', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('competition', text, (c) => c.notNull())
    .addColumn('tour_id', text, (c) => c.notNull().references('tours.id'))
    .addColumn('tour_year_id', text, (c) => c.references('tour_years.id'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('start_date', text, (c) => c.notNull())
    .addColumn('end_date', text, (c) => c.notNull())
    .addColumn('year', integer, (c) => c.notNull())
    .addColumn('event_number', integer, (c) => c.notNull())
    .addColumn('event_status', text, (c) => c.notNull())
    .addColumn('event_location', text)
    .addColumn('event_location_numeric_id', integer)
    .addColumn('event_location_group', text)
    .addColumn('provider_id', text)
    .addColumn('season_type', text)
    .addColumn('teams', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .addColumn('content_updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_start_date').on('events').columns(['start_date', 'reference_id']).execute();
  await db.schema
    .createIndex('events_competition_start_date')
    .on('events')
    .columns(['competition', 'start_date', 'reference_id'])
    .execute();
  await db.schema.createIndex('events_end_date').on('events').column('end_date').execute();
  await db.schema.createIndex('events_content_updated_at').on('events').column('content_updated_at').execute();

  await db.schema
    .createTable('rounds')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('round_name', text, (c) => c.notNull())
    .addColumn('round_no', integer, (c) => c.notNull())
    .addColumn('round_status', text, (c) => c.notNull())
    .addColumn('start_date', text)
    .addColumn('end_date', text)
    .addColumn('provider_id', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rounds_event_id').on('rounds').columns(['event_id', 'round_no']).execute();

  await db.schema
    .createTable('heats')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('round_id', text, (c) => c.notNull().references('rounds.id'))
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('heat_name', text, (c) => c.notNull())
    .addColumn('heat_no', integer, (c) => c.notNull())
    .addColumn('heat_status', text, (c) => c.notNull())
    .addColumn('start_date', text)
    .addColumn('end_date', text)
    .addColumn('provider_id', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('heats_event_id').on('heats').columns(['event_id', 'heat_no']).execute();
  await db.schema.createIndex('heats_round_id').on('heats').column('round_id').execute();

  await db.schema
    .createTable('round_scores')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('round_id', text, (c) => c.notNull().references('rounds.id'))
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('team_id', text, (c) => c.notNull().references('teams.id'))
    .addColumn('goals', integer, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('round_scores_event_id').on('round_scores').column('event_id').execute();

  await db.schema
    .createTable('futures')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('competition', text, (c) => c.notNull())
    .addColumn('tour_id', text, (c) => c.notNull().references('tours.id'))
    .addColumn('tour_year_id', text, (c) => c.notNull().references('tour_years.id'))
    .addColumn('type', text, (c) => c.notNull())
    .addColumn('gender', text)
    .addColumn('start_date', text, (c) => c.notNull())
    .addColumn('end_date', text, (c) => c.notNull())
    .addColumn('year', integer, (c) => c.notNull())
    .addColumn('is_market_open', integer, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('futures_lookup').on('futures').columns(['competition', 'tour_id', 'type']).execute();

  await db.schema
    .createTable('future_odds')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('future_id', text, (c) => c.notNull().references('futures.id'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('athlete_id', text, (c) => c.references('athletes.id'))
    .addColumn('team_id', text, (c) => c.references('teams.id'))
    .addColumn('prices', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('future_odds_future_id').on('future_odds').column('future_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('key_hash', text, (c) => c.notNull().unique())
    .addColumn('key_prefix', text, (c) => c.notNull())
    .addColumn('competitions', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('revoked_at', text)
    .execute();
}

/** Results: event participants, heat entries, per-lap records, fight and battle results, team games. */
async function results(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('event_participants')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('athlete_id', text, (c) => c.notNull().references('athletes.id'))
    .addColumn('seed_no', integer)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_participants_event_id').on('event_participants').column('event_id').execute();

  let entries = db.schema
    .createTable('heat_entries')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('heat_id', text, (c) => c.notNull().references('heats.id'))
    .addColumn('athlete_id', text, (c) => c.notNull().references('athletes.id'))
    .addColumn('team_id', text, (c) => c.references('teams.id'))
    .addColumn('seed', integer)
    .addColumn('position', integer)
    .addColumn('heat_score', double)
    .addColumn('lap_time', double)
    .addColumn('penalty_time', double)
    .addColumn('joker_lap_time', double)
    .addColumn('joker_lap', integer)
    .addColumn('lap_status', text)
    .addColumn('total_laps', integer);
  for (const column of [
    'line_score1',
    'line_score2',
    'trick1_score',
    'trick2_score',
    'trick3_score',
    'trick4_score',
    'trick5_score',
    'trick6_score',
    'rider_score',
    'bull_score',
  ]) {
    entries = entries.addColumn(column, double);
  }
  await entries.addColumn('updated_at', text, (c) => c.notNull()).execute();
  await db.schema.createIndex('heat_entries_heat_id').on('heat_entries').column('heat_id').execute();

  await db.schema
    .createTable('laps')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('heat_entry_id', text, (c) => c.notNull().references('heat_entries.id'))
    .addColumn('heat_id', text, (c) => c.notNull().references('heats.id'))
    .addColumn('lap_no', integer, (c) => c.notNull())
    .addColumn('lap_time', double)
    .addColumn('position', integer)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('laps_heat_id').on('laps').column('heat_id').execute();

  await db.schema
    .createTable('heat_results')
    .addColumn('id', text, (c) => c.primaryKey().references('heats.id'))
    .addColumn('winner_athlete_id', text, (c) => c.references('athletes.id'))
    .addColumn('method', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('team_games')
    .addColumn('id', text, (c) => c.primaryKey().references('heats.id'))
    .addColumn('home_team_id', text, (c) => c.notNull().references('teams.id'))
    .addColumn('away_team_id', text, (c) => c.notNull().references('teams.id'))
    .addColumn('event_type', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}

/** Odds markets and their priced outcomes; event participants' final standing. */
async function markets(db: AnyDb): Promise<void> {
  await db.schema.alterTable('event_participants').addColumn('place', integer).execute();

  await db.schema
    .createTable('markets')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('odd_type', text, (c) => c.notNull())
    .addColumn('heat_id', text, (c) => c.references('heats.id'))
    .addColumn('exactas_type', integer)
    .addColumn('over_under_sub_market_type', text)
    .addColumn('line', double)
    .addColumn('athlete_ids', text)
    .addColumn('places', integer)
    .addColumn('proposition', text)
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('markets_event_id').on('markets').columns(['event_id', 'odd_type']).execute();

  await db.schema
    .createTable('odds')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('reference_id', integer, (c) => c.notNull().unique())
    .addColumn('market_id', text, (c) => c.notNull().references('markets.id'))
    .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
    .addColumn('athlete_id', text, (c) => c.references('athletes.id'))
    .addColumn('athlete_ids', text)
    .addColumn('team_id', text, (c) => c.references('teams.id'))
    .addColumn('side', text)
    .addColumn('name', text)
    .addColumn('position', integer)
    .addColumn('decimal_odds', double, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('settlement', text)
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('odds_event_id').on('odds').columns(['event_id', 'market_id']).execute();
}

/**
 * Team matches: the sport-specific facts of curling, table tennis, box lacrosse, 3-on-3
 * hockey and Jai Alai. Event teams (stone colour, first hammer) stay in the event's teams JSON.
 */
async function teamMatches(db: AnyDb): Promise<void> {
  await db.schema.alterTable('events').addColumn('card_id', text).execute();
  await db.schema.alterTable('events').addColumn('event_type', text).execute();
  await db.schema.alterTable('events').addColumn('stream_url', text).execute();
  await db.schema.alterTable('events').addColumn('on_serve', text).execute();
  await db.schema.alterTable('events').addColumn('bracket_round', integer).execute();
  await db.schema.alterTable('events').addColumn('bracket_slot', integer).execute();
  await db.schema.createIndex('events_card_id').on('events').column('card_id').execute();
  await db.schema.createIndex('events_tour_year_id').on('events').column('tour_year_id').execute();
  await db.schema.alterTable('rounds').addColumn('game_type', text).execute();
  await db.schema.alterTable('rounds').addColumn('home_lineup', text).execute();
  await db.schema.alterTable('rounds').addColumn('away_lineup', text).execute();
  await db.schema.alterTable('markets').addColumn('team_market_type', text).execute();
  await db.schema
    .alterTable('markets')
    .addColumn('round_id', text, (c) => c.references('rounds.id'))
    .execute();
}

/**
 * Live data: the change log that cache invalidation and the push stream read on every node,
 * and per-key rate limits (null: the server's default; 0: no limit).
 */
async function liveData(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('changes')
    // Ingest holds a lock for its whole transaction, so ids are assigned in commit order.
    .addColumn('id', postgres ? 'serial' : integer, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('competition', text)
    .addColumn('event_id', text)
    .addColumn('data', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('api_keys').addColumn('rate_per_minute', integer).execute();
  await db.schema.alterTable('api_keys').addColumn('rate_per_day', integer).execute();
}

/** Pricing models: the model each event's generated markets came from, read by the parlay route. */
async function pricingModels(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('pricing_models')
    // No foreign key: a model is a note beside the event's markets, never in the way of their writes.
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('model', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
}

/** Rows of an event's public documents, each with the SQL that names its event. */
const EVENT_ROWS: Array<[table: string, event: string]> = [
  ['rounds', 'rounds.event_id'],
  ['round_scores', 'round_scores.event_id'],
  ['heats', 'heats.event_id'],
  ['heat_entries', '(select h.event_id from heats h where h.id = heat_entries.heat_id)'],
  ['laps', '(select h.event_id from heats h where h.id = laps.heat_id)'],
  ['heat_results', '(select h.event_id from heats h where h.id = heat_results.id)'],
  ['team_games', '(select h.event_id from heats h where h.id = team_games.id)'],
  ['event_participants', 'event_participants.event_id'],
  ['markets', 'markets.event_id'],
  ['odds', 'odds.event_id'],
];

/**
 * Integrators: each event's lastChangedAt, the latest updatedAt of any row of its public
 * documents (the event, its rounds, heats and their score rows, its markets and odds), which
 * `updatedSince` filters on. Filled from the rows already held.
 */
async function integrators(db: AnyDb): Promise<void> {
  await db.schema.alterTable('events').addColumn('last_changed_at', text).execute();
  await sql`update events set last_changed_at = content_updated_at`.execute(db);
  for (const [table, event] of EVENT_ROWS) {
    await sql`update events set last_changed_at = latest.at from (
      select ${sql.raw(event)} as event_id, max(updated_at) as at from ${sql.table(table)} group by 1
    ) latest where latest.event_id = events.id and latest.at > events.last_changed_at`.execute(db);
  }
  await db.schema.createIndex('events_last_changed_at').on('events').column('last_changed_at').execute();
}

/**
 * Trading-grade markets: when the feed last spoke of each event, by the server's clock, so
 * that every node derives a silent LIVE event's bet stop (FEED_STALE) at read time, across restarts.
 */
async function trading(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('feed_activity')
    .addColumn('event_id', text, (c) => c.primaryKey())
    .addColumn('competition', text, (c) => c.notNull())
    .addColumn('last_message_at', text, (c) => c.notNull())
    // Set once a node has pushed the event's FEED_STALE bet stop on the stream; cleared by its next message.
    .addColumn('stale_published_at', text)
    .execute();
  await db.schema.createIndex('feed_activity_competition').on('feed_activity').column('competition').execute();
  // Why the operator set a market or outcome's status (null: OPEN, or OPERATOR when not).
  await db.schema.alterTable('markets').addColumn('status_reason', text).execute();
  await db.schema.alterTable('odds').addColumn('status_reason', text).execute();
}

/**
 * In-play bet stops: when a score of each LIVE event last changed (SCORE_CHANGE), and
 * whether a node has pushed that suspension on the stream.
 */
async function inPlay(db: AnyDb): Promise<void> {
  for (const column of ['score_changed_at', 'score_stop_published_at'])
    await db.schema.alterTable('feed_activity').addColumn(column, text).execute();
}

/**
 * The settlement lifecycle: provisional or official results, the operator's dead-heat
 * share, abandoned events, and the settlements as last published (what a changed result is compared
 * with, and when each outcome settled).
 */
async function settlement(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('result_status', text, (c) => c.notNull().defaultTo('OFFICIAL'))
    .execute();
  await db.schema
    .alterTable('events')
    .addColumn('abandoned', integer, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('heat_results')
    .addColumn('result_status', text, (c) => c.notNull().defaultTo('OFFICIAL'))
    .execute();
  await db.schema.alterTable('odds').addColumn('dead_heat_factor', double).execute();
  await db.schema
    .createTable('settlements')
    .addColumn('odd_id', text, (c) => c.primaryKey())
    .addColumn('event_id', text, (c) => c.notNull())
    .addColumn('market_id', text, (c) => c.notNull())
    .addColumn('settlement', text, (c) => c.notNull())
    .addColumn('settlement_reason', text)
    .addColumn('dead_heat_factor', double, (c) => c.notNull())
    .addColumn('settlement_status', text)
    .addColumn('settled_at', text)
    .execute();
  await db.schema.createIndex('settlements_event_id').on('settlements').column('event_id').execute();
}

/**
 * Price history: every change of an outcome's price or status, append-only, read one outcome
 * at a time in the order written (odds_history_odd). `first` marks an outcome's first price ever
 * recorded (is_first), so that a reader can tell a true opening from the oldest retained one (ODDS_HISTORY_DAYS).
 * The odds already held start the history at their present price, not marked first: what came before
 * is unknown.
 */
async function oddsHistory(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('odds_history')
    // SQLite's rowid (no AUTOINCREMENT bookkeeping): ids only order an outcome's rows.
    .addColumn('id', postgres ? 'bigserial' : integer, (c) => c.primaryKey())
    .addColumn('odd_id', text, (c) => c.notNull())
    .addColumn('decimal_odds', double, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('status_reason', text)
    // The odd's updatedAt: when the feed says the price or status took effect.
    .addColumn('changed_at', text, (c) => c.notNull())
    .addColumn('is_first', integer, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('odds_history_odd').on('odds_history').columns(['odd_id', 'id']).execute();
  // Retention prunes by time.
  await db.schema.createIndex('odds_history_at').on('odds_history').column('changed_at').execute();
  await sql`insert into odds_history (odd_id, decimal_odds, status, status_reason, changed_at, is_first)
    select id, decimal_odds, status, status_reason, updated_at, 0 from odds order by updated_at, id`.execute(db);
}

/**
 * Published prices: the probability an engine-priced outcome was published from (its model's,
 * margin included, in percent), beside its odds rounded towards the house, and in the price history
 * beside each price; null for a price an operator feeds, whose published probability is 100 / odds.
 */
async function modelProbability(db: AnyDb): Promise<void> {
  for (const table of ['odds', 'odds_history'])
    await db.schema.alterTable(table).addColumn('probability', double).execute();
}

/**
 * The secret stream tokens are signed with: random, held by the store so that every node
 * signs and checks with the same one, and rotated by `altsports keys rotate-stream-secret`. A retired
 * secret stays until its tokens have expired.
 */
async function streamSecrets(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('stream_token_secrets')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('secret', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('retired_at', text)
    .execute();
  await db
    .insertInto('stream_token_secrets')
    .values({
      id: randomBytes(6).toString('base64url'),
      secret: randomBytes(32).toString('base64url'),
      created_at: new Date().toISOString(),
      retired_at: null,
    })
    .execute();
}

/**
 * Selling the API: a key's counted requests per UTC day and route, kept durably (written in batches by
 * the serving processes), and plans (a monthly quota, rate limits and competitions) that keys belong to.
 */
async function usagePlans(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('key_usage')
    .addColumn('key_id', text, (c) => c.notNull())
    .addColumn('day', text, (c) => c.notNull())
    .addColumn('route', text, (c) => c.notNull())
    .addColumn('requests', integer, (c) => c.notNull())
    .addPrimaryKeyConstraint('key_usage_pk', ['key_id', 'day', 'route'])
    .execute();
  await db.schema
    .createTable('plans')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull().unique())
    .addColumn('monthly_quota', integer)
    .addColumn('rate_per_minute', integer)
    .addColumn('rate_per_day', integer)
    .addColumn('competitions', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('api_keys')
    // No foreign key: SQLite could not drop the column again; the access layer checks the plan exists.
    .addColumn('plan_id', text)
    .execute();
}

const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': { up: initial },
  '0002-results': { up: results },
  '0003-markets': { up: markets },
  '0004-team-matches': { up: teamMatches },
  '0005-live-data': { up: liveData },
  '0006-pricing-models': { up: pricingModels },
  '0007-integrators': { up: integrators },
  '0008-trading': { up: trading },
  '0009-odds-history': { up: oddsHistory },
  '0010-settlement': { up: settlement },
  '0011-in-play': { up: inPlay },
  '0012-model-probability': { up: modelProbability },
  '0013-stream-secrets': { up: streamSecrets },
  '0014-usage-plans': { up: usagePlans },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(store: Pick<Connection, 'db' | 'dialect'>, pgSchema?: string): Promise<string[]> {
  if (store.dialect === 'postgres' && pgSchema)
    await sql`create schema if not exists ${sql.id(pgSchema)}`.execute(store.db);
  // Kysely's own bookkeeping tables live in the same schema, so that each schema migrates on its own.
  const migrator = new Migrator({
    db: store.db,
    provider: migrationProvider,
    ...(store.dialect === 'postgres' && pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
