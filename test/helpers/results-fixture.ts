import type { EventStatus } from '../../src/domain/enumerations.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { WSL_LIVE } from './feed-fixture.ts';

/**
 * Results with known answers, on top of fixtureFeed(): a fight card, a supercross main with laps, a
 * skateboarding final, bull riding with a team game, drag racing, and wsl heat scores.
 */
export const BKFC_EVENT = 'd4d4d4d4-0000-4000-8000-000000000005';
export const SPR_EVENT = 'e5e5e5e5-0000-4000-8000-000000000006';
export const SLS_EVENT = 'f6f6f6f6-0000-4000-8000-000000000007';
export const PBR_EVENT = 'a7a7a7a7-0000-4000-8000-000000000008';
export const NHRA_EVENT = 'b8b8b8b8-0000-4000-8000-000000000009';

const T = '2026-05-01T00:00:00.000Z';
const LATER = '2026-05-01T02:00:00.000Z';

const tour = (competition: string) => ({
  id: `${competition}-tour`,
  competition,
  name: `${competition} tour`,
  updatedAt: T,
});
const event = (uuid: string, competition: string, name: string, eventStatus: EventStatus = 'COMPLETED') => ({
  id: `${competition}:${uuid}`,
  competition,
  tourId: `${competition}-tour`,
  name,
  startDate: '2026-05-01T00:00:00Z',
  endDate: '2026-05-01T06:00:00Z',
  eventNumber: 1,
  eventStatus,
  updatedAt: T,
});
const round = (id: string, eventId: string) => ({
  id,
  eventId,
  roundName: 'Main',
  roundNo: 1,
  roundStatus: 'COMPLETED' as const,
  updatedAt: T,
});
const heat = (id: string, roundId: string, heatNo: number, heatStatus: EventStatus = 'COMPLETED') => ({
  id,
  roundId,
  heatName: `Heat ${heatNo}`,
  heatNo,
  heatStatus,
  updatedAt: T,
});
const athlete = (id: string, firstName: string, lastName: string, extra: Record<string, unknown> = {}) => ({
  id,
  firstName,
  lastName,
  nationality: 'USA',
  updatedAt: T,
  ...extra,
});
const lap = (heatEntryId: string, lapNo: number, lapTime: number, position: number) => ({
  heatEntryId,
  lapNo,
  lapTime,
  position,
  updatedAt: LATER,
});

export function resultsFeed(): FeedDocument {
  return {
    tours: ['bkfc', 'spr', 'sls', 'pbr', 'nhra'].map(tour),
    teams: [
      { id: 'pbr-gamblers', competition: 'pbr', name: 'Austin Gamblers', updatedAt: T },
      { id: 'pbr-stampede', competition: 'pbr', name: 'Nashville Stampede', updatedAt: T },
    ],
    athletes: [
      athlete('bk-red', 'Mike', 'Perry', { weightClass: 'Cruiserweight', height: 178, weight: 90.5 }),
      athlete('bk-blue', 'Luke', 'Rockhold', { weightClass: 'Cruiserweight' }),
      athlete('bk-green', 'Eddie', 'Alvarez', { weightClass: 'Lightweight' }),
      athlete('bk-gold', 'Chad', 'Mendes', { weightClass: 'Lightweight' }),
      athlete('sx-a', 'Eli', 'Tomac'),
      athlete('sx-b', 'Cooper', 'Webb'),
      athlete('sx-c', 'Chase', 'Sexton'),
      athlete('sx-d', 'Jason', 'Anderson'),
      athlete('sls-a', 'Nyjah', 'Huston'),
      athlete('sls-b', 'Yuto', 'Horigome'),
      athlete('pbr-a', 'Jose', 'Vitor Leme', { teamId: 'pbr-gamblers' }),
      athlete('pbr-b', 'Kaique', 'Pacheco', { teamId: 'pbr-stampede' }),
      athlete('nh-a', 'Brittany', 'Force'),
      athlete('nh-b', 'Doug', 'Kalitta'),
      athlete('nh-c', 'Tony', 'Stewart'),
    ],
    events: [
      event(BKFC_EVENT, 'bkfc', 'BKFC 70'),
      event(SPR_EVENT, 'spr', 'Anaheim 1'),
      event(SLS_EVENT, 'sls', 'SLS Tokyo'),
      event(PBR_EVENT, 'pbr', 'PBR Teams: Nashville'),
      event(NHRA_EVENT, 'nhra', 'Winternationals'),
    ],
    rounds: [
      round('bk-r1', BKFC_EVENT),
      round('sx-r1', SPR_EVENT),
      round('sls-r1', SLS_EVENT),
      round('pbr-r1', PBR_EVENT),
      round('nh-r1', NHRA_EVENT),
    ],
    heats: [
      heat('bk-h1', 'bk-r1', 1),
      heat('bk-h2', 'bk-r1', 2),
      heat('bk-h3', 'bk-r1', 3),
      heat('bk-h4', 'bk-r1', 4, 'LIVE'),
      heat('sx-h1', 'sx-r1', 1),
      heat('sls-h1', 'sls-r1', 1),
      heat('pbr-h1', 'pbr-r1', 1),
      heat('pbr-h2', 'pbr-r1', 2),
      heat('nh-h1', 'nh-r1', 1),
      heat('nh-h2', 'nh-r1', 2),
    ],
    eventParticipants: [
      { id: 'p-wsl-2', eventId: `wsl:${WSL_LIVE}`, athleteId: 'ath-2', seedNo: 1, updatedAt: T },
      { id: 'p-wsl-1', eventId: WSL_LIVE, athleteId: 'ath-1', seedNo: 2, status: 'ELIMINATED', updatedAt: T },
      { id: 'p-sx-d', eventId: SPR_EVENT, athleteId: 'sx-d', status: 'INJURED', updatedAt: T },
    ],
    heatEntries: [
      // wsl: a completed heat with positions and a live heat with one surfer scored.
      {
        id: 'e-h1-a',
        heatId: 'h-1',
        athleteId: 'ath-1',
        seed: 2,
        position: 1,
        heatScore: 15.5,
        updatedAt: '2026-04-02T03:00:00.000Z',
      },
      {
        id: 'e-h1-b',
        heatId: 'h-1',
        athleteId: 'ath-2',
        seed: 1,
        position: 2,
        heatScore: 12.1,
        updatedAt: '2026-04-01T00:00:00.000Z',
      },
      { id: 'e-h3-a', heatId: 'h-3', athleteId: 'ath-1', seed: 1, heatScore: 7.83, updatedAt: T },
      { id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, updatedAt: T },
      // bkfc: a KO, a draw, a no contest, and a fight in progress.
      { id: 'e-bk1-red', heatId: 'bk-h1', athleteId: 'bk-red', seed: 1, updatedAt: T },
      { id: 'e-bk1-blue', heatId: 'bk-h1', athleteId: 'bk-blue', seed: 2, position: 1, updatedAt: T },
      { id: 'e-bk2-green', heatId: 'bk-h2', athleteId: 'bk-green', updatedAt: T },
      { id: 'e-bk2-gold', heatId: 'bk-h2', athleteId: 'bk-gold', updatedAt: T },
      { id: 'e-bk3-red', heatId: 'bk-h3', athleteId: 'bk-red', updatedAt: T },
      { id: 'e-bk3-green', heatId: 'bk-h3', athleteId: 'bk-green', updatedAt: T },
      { id: 'e-bk4-blue', heatId: 'bk-h4', athleteId: 'bk-blue', updatedAt: T },
      { id: 'e-bk4-gold', heatId: 'bk-h4', athleteId: 'bk-gold', updatedAt: T },
      // spr: three riders over three laps, and a DNS.
      {
        id: 'e-sx-a',
        heatId: 'sx-h1',
        athleteId: 'sx-a',
        seed: 3,
        position: 1,
        lapTime: 47.8,
        totalLaps: 3,
        lapStatus: 'ACT',
        updatedAt: T,
      },
      {
        id: 'e-sx-b',
        heatId: 'sx-h1',
        athleteId: 'sx-b',
        seed: 1,
        position: 2,
        lapTime: 47.7,
        penaltyTime: 5,
        totalLaps: 3,
        lapStatus: 'ACT',
        updatedAt: T,
      },
      {
        id: 'e-sx-c',
        heatId: 'sx-h1',
        athleteId: 'sx-c',
        seed: 2,
        position: 3,
        lapTime: 48.5,
        totalLaps: 3,
        updatedAt: T,
      },
      { id: 'e-sx-d', heatId: 'sx-h1', athleteId: 'sx-d', seed: 4, totalLaps: 3, lapStatus: 'DNS', updatedAt: T },
      // sls: runs and tricks.
      {
        id: 'e-sls-a',
        heatId: 'sls-h1',
        athleteId: 'sls-a',
        seed: 1,
        position: 2,
        lineScore1: 7.2,
        lineScore2: 8.1,
        trick1Score: 9.0,
        trick2Score: 6.5,
        trick3Score: 8.4,
        trick4Score: 3.0,
        updatedAt: T,
      },
      {
        id: 'e-sls-b',
        heatId: 'sls-h1',
        athleteId: 'sls-b',
        seed: 2,
        position: 1,
        lineScore1: 8.7,
        trick1Score: 9.1,
        trick2Score: 7.3,
        trick3Score: 9.3,
        trick4Score: 0,
        updatedAt: T,
      },
      // pbr: a team game (riders ride for their teams) and an individual round.
      {
        id: 'e-pbr1-a',
        heatId: 'pbr-h1',
        athleteId: 'pbr-a',
        teamId: 'pbr-gamblers',
        position: 1,
        riderScore: 91.25,
        bullScore: 45.5,
        heatScore: 91.25,
        updatedAt: T,
      },
      {
        id: 'e-pbr1-b',
        heatId: 'pbr-h1',
        athleteId: 'pbr-b',
        teamId: 'pbr-stampede',
        riderScore: 0,
        bullScore: 44,
        updatedAt: T,
      },
      { id: 'e-pbr2-a', heatId: 'pbr-h2', athleteId: 'pbr-a', seed: 1, riderScore: 88, bullScore: 43.75, updatedAt: T },
      // nhra: a pairing won by nh-b, and a qualifying session with stored positions.
      { id: 'e-nh1-a', heatId: 'nh-h1', athleteId: 'nh-a', seed: 1, position: 1, heatScore: 3.701, updatedAt: T },
      { id: 'e-nh1-b', heatId: 'nh-h1', athleteId: 'nh-b', seed: 8, heatScore: 3.689, updatedAt: T },
      { id: 'e-nh2-a', heatId: 'nh-h2', athleteId: 'nh-a', position: 1, heatScore: 3.65, updatedAt: T },
      { id: 'e-nh2-b', heatId: 'nh-h2', athleteId: 'nh-b', position: 2, heatScore: 3.67, updatedAt: T },
      { id: 'e-nh2-c', heatId: 'nh-h2', athleteId: 'nh-c', position: 3, heatScore: 3.7, updatedAt: T },
    ],
    laps: [
      lap('e-sx-a', 1, 50.0, 2),
      lap('e-sx-b', 1, 49.0, 1),
      lap('e-sx-c', 1, 51.0, 3),
      lap('e-sx-a', 2, 47.5, 1),
      lap('e-sx-b', 2, 48.0, 2),
      lap('e-sx-c', 2, 47.9, 3),
      lap('e-sx-a', 3, 47.8, 1),
      lap('e-sx-b', 3, 47.7, 2),
      lap('e-sx-c', 3, 48.5, 3),
    ],
    heatResults: [
      { heatId: 'bk-h1', winnerAthleteId: 'bk-red', method: 'knockout', updatedAt: LATER },
      { heatId: 'bk-h2', winnerAthleteId: null, method: 'SPLIT_DRAW', updatedAt: LATER },
      { heatId: 'bk-h3', method: 'nc', updatedAt: LATER },
      { heatId: 'nh-h1', winnerAthleteId: 'nh-b', updatedAt: LATER },
    ],
    teamGames: [
      {
        heatId: 'pbr-h1',
        homeTeamId: 'pbr-stampede',
        awayTeamId: 'pbr-gamblers',
        eventType: 'PBR Teams',
        updatedAt: T,
      },
    ],
  };
}
