import type { Kysely, Transaction } from 'kysely';
import type { ResultsFormat } from '../../domain/competitions.ts';
import { scopeOf } from '../../domain/markets/market-shape.ts';
import { type HeatFacts, type ScopeFacts, scopeNeeds, scopeResultsOf } from '../../domain/markets/scope-facts.ts';
import type { ScopeResult } from '../../domain/markets/scope-result.ts';
import type { Database, EventRow, MarketRow } from '../schema.ts';
import { type EventDocumentRows, eventsRepository } from './events-repository.ts';
import { resultsRepository } from './results-repository.ts';

type ScopeEvent = Pick<EventRow, 'id' | 'eventStatus'> & Partial<Pick<EventRow, 'resultStatus' | 'abandoned'>>;

/**
 * The stored facts the scopes of some markets are decided by, each read once (one query per table),
 * and those scopes' results by the domain's rules (domain/markets/scope-facts.ts). The odds routes and
 * the settlements ledger read results through it, so both settle from the same facts.
 */
export function scopeFactsRepository(db: Kysely<Database> | Transaction<Database>) {
  const results = resultsRepository(db);
  return {
    /**
     * The results of every scope these markets are decided in, keyed by scopeKey. `documentRows`: the
     * event's rounds, scores and teams, when the caller has read them already.
     */
    async resultsOf(
      event: ScopeEvent,
      format: ResultsFormat,
      markets: readonly MarketRow[],
      documentRows?: EventDocumentRows,
    ): Promise<Map<string, ScopeResult>> {
      const scopes = markets.map((market) => scopeOf({ ...market, athleteIds: null }));
      const needs = scopeNeeds(scopes);
      const eventHeatIds = needs.allHeats ? await this.heatsOfEvent(event.id) : [];
      const [heatRows, document, places] = await Promise.all([
        results.findHeatsResults([...new Set([...needs.heatIds, ...eventHeatIds])]),
        needs.match ? (documentRows ?? eventsRepository(db).findDocument(event.id)) : undefined,
        needs.places ? results.participantPlaces(event.id) : [],
      ]);
      const heats = new Map<string, HeatFacts>();
      // A heat of another event decides nothing here.
      for (const [id, rows] of heatRows) if (rows.heat.eventId === event.id) heats.set(id, rows);
      const facts: ScopeFacts = {
        format,
        event,
        heats,
        eventHeatIds,
        match: document && {
          teams: document.event.teams,
          knownTeamIds: new Set(document.teams.map((t) => t.id)),
          rounds: document.rounds,
          roundScores: document.roundScores,
        },
        places,
      };
      return scopeResultsOf(scopes, facts);
    },

    async heatsOfEvent(eventId: string): Promise<string[]> {
      const rows = await db.selectFrom('heats').select('id').where('eventId', '=', eventId).execute();
      return rows.map((h) => h.id);
    },
  };
}
