import type { FeedDocument } from '../../src/ingest/feed-schema.ts';

/**
 * A small hand-written feed with known answers: two surfing events and one arena-soccer game, a tour
 * each, and futures. Tests assert against these exact values.
 */
export const WSL_PAST = 'a1a1a1a1-0000-4000-8000-000000000001';
export const WSL_LIVE = 'a1a1a1a1-0000-4000-8000-000000000002';
export const MASL_GAME = 'b2b2b2b2-0000-4000-8000-000000000003';
export const WSL_FUTURE = 'c3c3c3c3-0000-4000-8000-000000000004';

/**
 * One-change batches on the fixture, each stamped a minute after the last one these functions made:
 * a heat score of the live wsl event, and the masl game's goals.
 */
export function fixtureScoreChanges(from = '2026-06-01T00:00:00.000Z') {
  let clock = Date.parse(from);
  const later = (): string => {
    clock += 60_000;
    return new Date(clock).toISOString();
  };
  return {
    wslScore: (score: number): FeedDocument => ({
      heatEntries: [{ id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, heatScore: score, updatedAt: later() }],
    }),
    maslGoals: (goals: number): FeedDocument => ({
      roundScores: [{ id: 'rs-1', roundId: 'r-masl-1', teamId: 'sockers', goals, updatedAt: later() }],
    }),
  };
}

export function fixtureFeed(): FeedDocument {
  return {
    tours: [
      {
        id: 'wsl-ct-men',
        competition: 'wsl',
        name: "Men's Championship Tour",
        gender: 'men',
        updatedAt: '2026-01-01T00:00:00Z',
      },
      { id: 'masl-league', competition: 'masl', name: 'MASL Regular Season', updatedAt: '2026-01-01T00:00:00Z' },
    ],
    tourYears: [
      {
        id: 'wsl-ct-men-2026',
        tourId: 'wsl-ct-men',
        year: 2026,
        startDate: '2026-01-01T00:00:00Z',
        endDate: '2026-12-31T23:59:59Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
      { id: 'masl-2026', tourId: 'masl-league', year: 2026, updatedAt: '2026-01-01T00:00:00Z' },
    ],
    teams: [
      {
        id: 'sockers',
        competition: 'masl',
        name: 'San Diego Sockers',
        shortName: 'SD',
        logo: 'https://example.com/sd.png',
        updatedAt: '2026-01-01T00:00:00Z',
      },
      { id: 'wave', competition: 'masl', name: 'Milwaukee Wave', shortName: 'MIL', updatedAt: '2026-01-01T00:00:00Z' },
    ],
    athletes: [
      {
        id: 'ath-1',
        firstName: 'Italo',
        lastName: 'Ferreira',
        nationality: 'BRA',
        stance: 'Regular',
        updatedAt: '2026-01-01T00:00:00Z',
      },
      {
        id: 'ath-2',
        firstName: 'John John',
        lastName: 'Florence',
        nationality: 'USA',
        stance: 'Regular',
        updatedAt: '2026-01-01T00:00:00Z',
      },
    ],
    events: [
      {
        id: `wsl:${WSL_PAST}`,
        competition: 'wsl',
        tourId: 'wsl-ct-men',
        tourYearId: 'wsl-ct-men-2026',
        name: 'Pipe Pro',
        startDate: '2026-01-27T00:00:00Z',
        endDate: '2026-02-08T00:00:00Z',
        eventNumber: 1,
        eventStatus: 'COMPLETED',
        eventLocation: 'Banzai Pipeline',
        eventLocationGroup: 'Hawaii',
        updatedAt: '2026-02-08T00:00:00Z',
      },
      {
        id: WSL_LIVE,
        competition: 'wsl',
        tourId: 'wsl-ct-men',
        tourYearId: 'wsl-ct-men-2026',
        name: 'Rip Curl Pro Bells Beach',
        startDate: '2026-04-01T00:00:00Z',
        endDate: '2026-04-11T00:00:00Z',
        eventNumber: 4,
        eventStatus: 'LIVE',
        eventLocation: 'Bells Beach',
        eventLocationGroup: 'Australia',
        seasonType: 'regular',
        updatedAt: '2026-04-02T00:00:00Z',
      },
      {
        id: `masl:${MASL_GAME}`,
        competition: 'masl',
        tourId: 'masl-league',
        name: 'San Diego Sockers vs Milwaukee Wave',
        startDate: '2026-03-01T19:00:00Z',
        endDate: '2026-03-01T21:30:00Z',
        eventNumber: 12,
        eventStatus: 'UPCOMING',
        teams: [
          { teamId: 'sockers', isHomeTeam: true },
          { teamId: 'wave', isHomeTeam: false },
        ],
        updatedAt: '2026-02-20T00:00:00Z',
      },
    ],
    rounds: [
      {
        id: 'r-live-1',
        eventId: WSL_LIVE,
        roundName: 'Opening Round',
        roundNo: 1,
        roundStatus: 'COMPLETED',
        updatedAt: '2026-04-02T00:00:00Z',
      },
      {
        id: 'r-live-2',
        eventId: `wsl:${WSL_LIVE}`,
        roundName: 'Elimination Round',
        roundNo: 2,
        roundStatus: 'LIVE',
        updatedAt: '2026-04-02T00:00:00Z',
      },
      {
        id: 'r-masl-1',
        eventId: MASL_GAME,
        roundName: '1st Quarter',
        roundNo: 1,
        roundStatus: 'UPCOMING',
        updatedAt: '2026-02-20T00:00:00Z',
      },
    ],
    heats: [
      {
        id: 'h-1',
        roundId: 'r-live-1',
        heatName: 'Heat 1',
        heatNo: 1,
        heatStatus: 'COMPLETED',
        updatedAt: '2026-04-02T00:00:00Z',
      },
      {
        id: 'h-2',
        roundId: 'r-live-1',
        heatName: 'Heat 2',
        heatNo: 2,
        heatStatus: 'COMPLETED',
        updatedAt: '2026-04-02T00:00:00Z',
      },
      {
        id: 'h-3',
        roundId: 'r-live-2',
        heatName: 'Heat 1',
        heatNo: 1,
        heatStatus: 'LIVE',
        startDate: '2026-04-02T01:00:00Z',
        updatedAt: '2026-04-02T00:00:00Z',
      },
    ],
    roundScores: [
      { id: 'rs-1', roundId: 'r-masl-1', teamId: 'sockers', goals: 0, updatedAt: '2026-02-20T00:00:00Z' },
      { id: 'rs-2', roundId: 'r-masl-1', teamId: 'wave', goals: 0, updatedAt: '2026-02-20T00:00:00Z' },
    ],
    futures: [
      {
        id: `wsl:${WSL_FUTURE}`,
        competition: 'wsl',
        tourId: 'wsl-ct-men',
        tourYearId: 'wsl-ct-men-2026',
        type: 'winner',
        gender: 'men',
        startDate: '2026-01-01T00:00:00Z',
        endDate: '2026-09-30T00:00:00Z',
        isMarketOpen: true,
        updatedAt: '2026-03-01T00:00:00Z',
      },
    ],
    futureOdds: [
      {
        id: 'fo-1',
        futureId: WSL_FUTURE,
        name: 'Italo Ferreira',
        athleteId: 'ath-1',
        odds: [{ outcomeName: 'Yes', decimalOdds: 3.5 }],
        updatedAt: '2026-03-01T00:00:00Z',
      },
      {
        id: 'fo-2',
        futureId: WSL_FUTURE,
        name: 'John John Florence',
        athleteId: 'ath-2',
        odds: [{ outcomeName: 'Yes', americanOdds: -150 }],
        updatedAt: '2026-03-01T00:00:00Z',
      },
    ],
  };
}
