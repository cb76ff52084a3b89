import type { FeedDocument } from '../../ingest/feed-schema.ts';
import type { ResultSink } from '../results.ts';
import type { FeedEvent, FeedHeat, FeedRound, FeedRoundScore } from './feed-items.ts';

/** The collections of one document under construction; events are materialised straight into it. */
export interface DemoChunk extends ResultSink {
  events: FeedEvent[];
  rounds: FeedRound[];
  heats: FeedHeat[];
  roundScores: FeedRoundScore[];
}

export const newChunk = (): DemoChunk => ({
  events: [],
  rounds: [],
  heats: [],
  roundScores: [],
  eventParticipants: [],
  heatEntries: [],
  laps: [],
  heatResults: [],
  teamGames: [],
  markets: [],
  odds: [],
});

/** How many items the chunk holds, of every collection. */
export function chunkItems(chunk: DemoChunk): number {
  return (
    chunk.events.length +
    chunk.rounds.length +
    chunk.heats.length +
    chunk.roundScores.length +
    chunk.eventParticipants.length +
    chunk.heatEntries.length +
    chunk.laps.length +
    chunk.heatResults.length +
    chunk.teamGames.length +
    chunk.markets.length +
    chunk.odds.length
  );
}

/** A chunk's non-empty collections. */
export function chunkDocument(chunk: DemoChunk): FeedDocument {
  const doc: FeedDocument = {};
  for (const [collection, items] of Object.entries(chunk) as Array<[keyof DemoChunk, unknown[]]>)
    if (items.length > 0) (doc as Record<string, unknown[]>)[collection] = items;
  return doc;
}
