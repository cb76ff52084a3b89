import type { OddType } from '../../src/domain/enumerations.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { BKFC_EVENT, SPR_EVENT } from './results-fixture.ts';

/**
 * Markets with known settlements, on top of fixtureFeed() and resultsFeed(): the completed supercross
 * main (sx-a 1st, sx-b and sx-c tied 2nd, sx-d injured) and the fight card (a KO, a draw, a no
 * contest and a fight in progress). Prices come in all three formats.
 */

const T = '2026-05-01T03:00:00.000Z';
const sx = (id: string, oddType: OddType, extra: Record<string, unknown> = {}) => ({
  id,
  eventId: `spr:${SPR_EVENT}`,
  oddType,
  updatedAt: T,
  ...extra,
});
const odd = (id: string, marketId: string, price: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  id,
  marketId,
  ...price,
  updatedAt: T,
  ...extra,
});

export function oddsFeed(): FeedDocument {
  return {
    eventParticipants: [
      { id: 'p-sx-a', eventId: SPR_EVENT, athleteId: 'sx-a', seedNo: 3, place: 1, updatedAt: T },
      { id: 'p-sx-b', eventId: SPR_EVENT, athleteId: 'sx-b', seedNo: 1, place: 2, updatedAt: T },
      { id: 'p-sx-c', eventId: SPR_EVENT, athleteId: 'sx-c', seedNo: 2, place: 2, updatedAt: T },
      { id: 'p-sx-d', eventId: SPR_EVENT, athleteId: 'sx-d', status: 'INJURED', updatedAt: T },
    ],
    markets: [
      sx('m-sx-win', 'eventWinner'),
      sx('m-sx-second', 'secondPlace'),
      sx('m-sx-podium', 'podiums'),
      sx('m-sx-exacta', 'eventExacta'),
      sx('m-sx-trifecta', 'eventExacta', { exactasType: 3 }),
      sx('m-sx-h2h', 'headToHead'),
      sx('m-sx-ou', 'overUnder', { athleteIds: ['sx-b'], line: 2 }),
      sx('m-sx-fast', 'fastestLap', { heatId: 'sx-h1' }),
      sx('m-sx-hole', 'holeShot', { heatId: 'sx-h1' }),
      sx('m-sx-heat', 'heatWinner', { heatId: 'sx-h1' }),
      sx('m-sx-prop', 'propBets', { proposition: 'Will a rider crash on lap 1?', status: 'CLOSED' }),
      sx('m-sx-team', 'dreamTeam'),
      { id: 'm-bk-1', eventId: `bkfc:${BKFC_EVENT}`, oddType: 'heatWinner', heatId: 'bk-h1', updatedAt: T },
      { id: 'm-bk-2', eventId: BKFC_EVENT, oddType: 'heatWinner', heatId: 'bk-h2', updatedAt: T },
      { id: 'm-bk-3', eventId: BKFC_EVENT, oddType: 'heatWinner', heatId: 'bk-h3', updatedAt: T },
      { id: 'm-bk-4', eventId: BKFC_EVENT, oddType: 'heatWinner', heatId: 'bk-h4', status: 'SUSPENDED', updatedAt: T },
      { id: 'm-bk-h2h', eventId: BKFC_EVENT, oddType: 'headToHead', heatId: 'bk-h1', updatedAt: T },
    ],
    odds: [
      odd('o-sx-win-a', 'm-sx-win', { odds: 2.5 }, { athleteId: 'sx-a', position: 1 }),
      odd('o-sx-win-b', 'm-sx-win', { probability: 40 }, { athleteId: 'sx-b', position: 2 }),
      odd('o-sx-win-c', 'm-sx-win', { americanOdds: 300 }, { athleteId: 'sx-c', position: 3 }),
      odd('o-sx-win-d', 'm-sx-win', { americanOdds: -120 }, { athleteId: 'sx-d', position: 4 }),
      odd('o-sx-second-a', 'm-sx-second', { odds: 3 }, { athleteId: 'sx-a' }),
      odd('o-sx-second-b', 'm-sx-second', { odds: 3 }, { athleteId: 'sx-b' }),
      odd('o-sx-second-c', 'm-sx-second', { odds: 3 }, { athleteId: 'sx-c' }),
      odd('o-sx-podium-c', 'm-sx-podium', { odds: 1.5 }, { athleteId: 'sx-c' }),
      odd('o-sx-podium-d', 'm-sx-podium', { odds: 4 }, { athleteId: 'sx-d' }),
      odd('o-sx-exacta-ab', 'm-sx-exacta', { odds: 6 }, { athleteIds: ['sx-a', 'sx-b'] }),
      odd('o-sx-exacta-ba', 'm-sx-exacta', { odds: 7 }, { athleteIds: ['sx-b', 'sx-a'] }),
      odd('o-sx-trifecta-abc', 'm-sx-trifecta', { odds: 20 }, { athleteIds: ['sx-a', 'sx-b', 'sx-c'] }),
      odd('o-sx-h2h-b', 'm-sx-h2h', { odds: 1.9 }, { athleteId: 'sx-b', position: 1 }),
      odd('o-sx-h2h-c', 'm-sx-h2h', { odds: 1.9 }, { athleteId: 'sx-c', position: 2 }),
      odd('o-sx-ou-over', 'm-sx-ou', { odds: 1.9 }, { side: 'OVER' }),
      odd('o-sx-ou-under', 'm-sx-ou', { odds: 1.9 }, { side: 'UNDER' }),
      odd('o-sx-fast-a', 'm-sx-fast', { odds: 2 }, { athleteId: 'sx-a' }),
      odd('o-sx-fast-b', 'm-sx-fast', { odds: 2 }, { athleteId: 'sx-b' }),
      odd('o-sx-hole-a', 'm-sx-hole', { odds: 2 }, { athleteId: 'sx-a' }),
      odd('o-sx-hole-b', 'm-sx-hole', { odds: 2 }, { athleteId: 'sx-b' }),
      odd('o-sx-heat-a', 'm-sx-heat', { odds: 2 }, { athleteId: 'sx-a' }),
      odd('o-sx-heat-b', 'm-sx-heat', { odds: 2 }, { athleteId: 'sx-b' }),
      odd('o-sx-prop-yes', 'm-sx-prop', { odds: 3 }, { name: 'Yes', settlement: 'WIN' }),
      odd('o-sx-prop-no', 'm-sx-prop', { odds: 1.3 }, { name: 'No' }),
      odd('o-sx-team-ab', 'm-sx-team', { odds: 1.8 }, { athleteIds: ['sx-a', 'sx-b'], name: 'Team A' }),
      odd('o-sx-team-cd', 'm-sx-team', { odds: 1.8 }, { athleteIds: ['sx-c', 'sx-d'], name: 'Team C' }),
      odd('o-bk1-red', 'm-bk-1', { odds: 1.5 }, { athleteId: 'bk-red' }),
      odd('o-bk1-blue', 'm-bk-1', { odds: 2.6 }, { athleteId: 'bk-blue' }),
      odd('o-bk2-green', 'm-bk-2', { odds: 1.9 }, { athleteId: 'bk-green' }),
      odd('o-bk3-red', 'm-bk-3', { odds: 1.9 }, { athleteId: 'bk-red' }),
      odd('o-bk4-blue', 'm-bk-4', { odds: 1.9 }, { athleteId: 'bk-blue' }),
      odd('o-bk4-gold', 'm-bk-4', { odds: 1.9 }, { athleteId: 'bk-gold' }),
      odd('o-bk-h2h-red', 'm-bk-h2h', { odds: 1.5 }, { athleteId: 'bk-red' }),
      odd('o-bk-h2h-blue', 'm-bk-h2h', { odds: 2.6 }, { athleteId: 'bk-blue' }),
    ],
  };
}
