import { getCompetition } from '../../src/domain/competitions.ts';
import { generateEventMarkets } from '../../src/domain/pricing/market-generator.ts';
import { Random } from '../../src/domain/random.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';

/**
 * A live supercross event whose markets the pricing engine generated from known win probabilities:
 * fair (no margin) and Plackett-Luce by default, so that the parlay can be checked against closed forms.
 * Athletes are `<key>-0`, `<key>-1`, ... in the order of `win`; the main heat is `<key>-main`.
 */
export function fieldFeed(
  key: string,
  uuid: string,
  win: readonly number[],
  options: { overround?: number; seed?: number } = {},
): FeedDocument {
  const T = '2026-06-01T00:00:00.000Z';
  const athleteIds = win.map((_, i) => `${key}-${i}`);
  const rng = new Random(options.seed ?? 7);
  const generated = generateEventMarkets(
    {
      eventId: uuid,
      athleteIds,
      win,
      heats: [{ heatId: `${key}-main`, athleteIds }],
      mainHeatId: `${key}-main`,
      oddTypes: getCompetition('spr').supportedMarkets,
    },
    {
      overround: options.overround ?? 0,
      marginMethod: 'multiplicative',
      shape: 1,
      samples: 40_000,
      uniform: () => rng.next(),
    },
  );
  return {
    tours: [{ id: 'spr-tour', competition: 'spr', name: 'spr tour', updatedAt: T }],
    athletes: athleteIds.map((id, i) => ({
      id,
      firstName: `Rider`,
      lastName: `${key.toUpperCase()} ${i}`,
      updatedAt: T,
    })),
    events: [
      {
        id: `spr:${uuid}`,
        competition: 'spr',
        tourId: 'spr-tour',
        name: `${key} main`,
        startDate: '2026-06-01T00:00:00Z',
        endDate: '2026-06-01T06:00:00Z',
        eventNumber: 1,
        eventStatus: 'LIVE',
        updatedAt: T,
      },
    ],
    rounds: [{ id: `${key}-r1`, eventId: uuid, roundName: 'Main', roundNo: 1, roundStatus: 'LIVE', updatedAt: T }],
    heats: [
      {
        id: `${key}-main`,
        roundId: `${key}-r1`,
        heatName: 'Main Event',
        heatNo: 1,
        heatStatus: 'UPCOMING',
        updatedAt: T,
      },
    ],
    eventParticipants: athleteIds.map((athleteId, i) => ({
      id: `${key}-p${i}`,
      eventId: uuid,
      athleteId,
      seedNo: i + 1,
      updatedAt: T,
    })),
    markets: generated.markets.map((m) => ({ ...m, updatedAt: T })),
    odds: generated.odds.map((o) => ({ ...o, updatedAt: T })),
  };
}
