import { type Kysely, sql } from 'kysely';
import type { OddType, OverUnderSubMarketType } from '../../domain/enumerations.ts';
import type { MarketShape } from '../../domain/markets/market-shape.ts';
import type { Database, HeatRow, MarketRow, OddRow, RoundRow } from '../schema.ts';
import { anyOf, readById } from './chunked.ts';

export interface MarketFilter {
  /** One odd type, or any of several. */
  oddType?: OddType | readonly OddType[];
  exactasType?: number;
  overUnderSubMarketType?: OverUnderSubMarketType;
}

/**
 * Odds markets and their priced outcomes, one aggregate: an event's odds are read together.
 * Long only as a list of short methods is: every repository is one object of its aggregate's queries
 * (docs/decisions.md, "SQL in repositories").
 */
export function oddsRepository(db: Kysely<Database>) {
  return {
    /** Records the model an event's generated markets were priced from (the parlay route prices from it). */
    async recordModel(eventId: string, model: string, updatedAt: string): Promise<void> {
      await db
        .insertInto('pricingModels')
        .values({ id: eventId, model, updatedAt })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ model, updatedAt }))
        .execute();
    },

    /** The model recorded for the event's generated markets, as recorded; undefined when none was. */
    async recordedModel(eventId: string): Promise<string | undefined> {
      const row = await db.selectFrom('pricingModels').select('model').where('id', '=', eventId).executeTakeFirst();
      return row?.model;
    },

    /** The event's markets, in reference-id order. */
    async marketsOfEvent(eventId: string, filter: MarketFilter = {}): Promise<MarketRow[]> {
      let query = db.selectFrom('markets').selectAll().where('eventId', '=', eventId);
      if (typeof filter.oddType === 'string') query = query.where('oddType', '=', filter.oddType);
      else if (filter.oddType) query = query.where('oddType', 'in', anyOf(filter.oddType));
      if (filter.exactasType !== undefined) query = query.where('exactasType', '=', filter.exactasType);
      if (filter.overUnderSubMarketType)
        query = query.where('overUnderSubMarketType', '=', filter.overUnderSubMarketType);
      return query.orderBy('referenceId').execute();
    },

    /**
     * The priced outcomes of these markets of one event, in display order. The event id makes the
     * (event_id, market_id) index usable: by market id alone the query scans every odd in the store.
     */
    async oddsOfMarkets(eventId: string, marketIds: readonly string[]): Promise<OddRow[]> {
      if (marketIds.length === 0) return [];
      return db
        .selectFrom('odds')
        .selectAll()
        .where('eventId', '=', eventId)
        .where('marketId', 'in', [...marketIds])
        .orderBy('position')
        .orderBy('referenceId')
        .execute();
    },

    /** Every priced outcome of the event, in display order. */
    async oddsOfEvent(eventId: string): Promise<OddRow[]> {
      return db
        .selectFrom('odds')
        .selectAll()
        .where('eventId', '=', eventId)
        .orderBy('position')
        .orderBy('referenceId')
        .execute();
    },

    /** Suspends these outcomes with a reason of the store's own (EVENT_STARTED), leaving their price and time. */
    async suspend(ids: readonly string[], statusReason: string): Promise<void> {
      for (let i = 0; i < ids.length; i += 500)
        await db
          .updateTable('odds')
          .set({ status: 'SUSPENDED', statusReason })
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
    },

    /**
     * A page of the event's priced outcomes in reference-id order (the price history's paging): of
     * markets of one odd type, one outcome (by id or outcomeId) when asked, after a reference id,
     * `limit` of them. The odd type is a subquery, so that the markets can be read beside it.
     */
    async outcomesPage(
      eventId: string,
      page: { oddType?: readonly OddType[]; outcome?: string; afterReferenceId?: number; limit?: number },
    ): Promise<OddRow[]> {
      let query = db.selectFrom('odds').selectAll().where('eventId', '=', eventId);
      const oddType = page.oddType;
      if (oddType)
        query = query.where('marketId', 'in', (eb) =>
          eb.selectFrom('markets').select('id').where('eventId', '=', eventId).where('oddType', 'in', anyOf(oddType)),
        );
      const outcome = page.outcome;
      if (outcome !== undefined)
        query = query.where((eb) =>
          eb.or([
            eb('id', '=', outcome),
            ...(/^\d{1,9}$/.test(outcome) ? [eb('referenceId', '=', Number(outcome))] : []),
          ]),
        );
      if (page.afterReferenceId !== undefined) query = query.where('referenceId', '>', page.afterReferenceId);
      query = query.orderBy('referenceId');
      return (page.limit === undefined ? query : query.limit(page.limit)).execute();
    },

    /** The odds these ids (or reference ids) name, each with its event's competition. */
    async findOdds(ids: readonly string[]): Promise<Array<OddRow & { competition: string }>> {
      if (ids.length === 0) return [];
      const numeric = ids.filter((id) => /^\d{1,9}$/.test(id)).map(Number);
      return db
        .selectFrom('odds')
        .innerJoin('markets', 'markets.id', 'odds.marketId')
        .innerJoin('events', 'events.id', 'markets.eventId')
        .selectAll('odds')
        .select('events.competition')
        .where((eb) =>
          eb.or([eb('odds.id', 'in', [...ids]), ...(numeric.length ? [eb('odds.referenceId', 'in', numeric)] : [])]),
        )
        .execute();
    },

    /** Stored markets by id, with what their odds are checked against and the event they belong to. */
    marketShapes(ids: readonly string[]): Promise<Map<string, MarketShape & { eventId: string }>> {
      return readById(
        ids,
        (part) =>
          db
            .selectFrom('markets')
            .select([
              'id',
              'eventId',
              'oddType',
              'heatId',
              'exactasType',
              'overUnderSubMarketType',
              'line',
              'athleteIds',
              'places',
              'proposition',
              'teamMarketType',
              'roundId',
            ])
            .where('id', 'in', part)
            .execute(),
        (row) => ({ ...row, athleteIds: row.athleteIds ? (JSON.parse(row.athleteIds) as string[]) : null }),
      );
    },

    async findMarkets(ids: readonly string[]): Promise<MarketRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('markets')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
    },

    /**
     * A version of the event's odds that changes whenever a market or price does (the latest
     * updatedAt and the counts): the parlay's cached samples are keyed by it.
     */
    async oddsVersion(eventId: string): Promise<string> {
      const row = await sql<{
        latest: string | null;
        total: number | string;
        mlatest: string | null;
        mtotal: number | string;
      }>`
        select (select max(updated_at) from odds where event_id = ${eventId}) as latest,
               (select count(*) from odds where event_id = ${eventId}) as total,
               (select max(updated_at) from markets where event_id = ${eventId}) as mlatest,
               (select count(*) from markets where event_id = ${eventId}) as mtotal`.execute(db);
      const r = row.rows[0];
      return `${r?.latest ?? '-'}|${r?.total ?? 0}|${r?.mlatest ?? '-'}|${r?.mtotal ?? 0}`;
    },

    /** An event's rounds, and its heats each with its round (heat markets' round and heat fields). */
    async placesOfEvent(eventId: string): Promise<{ heats: Array<HeatRow & { round: RoundRow }>; rounds: RoundRow[] }> {
      const [heats, rounds] = await Promise.all([
        db.selectFrom('heats').selectAll().where('eventId', '=', eventId).execute(),
        db.selectFrom('rounds').selectAll().where('eventId', '=', eventId).execute(),
      ]);
      const roundById = new Map(rounds.map((r) => [r.id, r]));
      const withRounds = heats.flatMap((h) => {
        const round = roundById.get(h.roundId);
        return round ? [{ ...h, round }] : [];
      });
      return { heats: withRounds, rounds };
    },
  };
}

export type OddsRepository = ReturnType<typeof oddsRepository>;
