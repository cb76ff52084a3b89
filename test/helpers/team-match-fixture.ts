import type { EventStatus, OutcomeStatus } from '../../src/domain/enumerations.ts';
import type { OutcomeSide } from '../../src/domain/markets/selection.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';

/**
 * Team matches of each sport-specific format (routes 8 to 17), with known answers, on top of
 * fixtureFeed(): a completed and a live curling match, a table tennis match decided 4-2 in games with
 * game 7 called off, a box lacrosse game won in overtime, a 3ICE knockout bracket half played, a Jai
 * Alai card of three matches plus a match whose card id is derived, typed team markets on each, and
 * the Jai Alai season's outright.
 */

export const GSOC_DONE = '9a9a9a9a-0000-4000-8000-000000000001';
export const GSOC_LIVE = '9a9a9a9a-0000-4000-8000-000000000002';
export const MLTT_MATCH = '9b9b9b9b-0000-4000-8000-000000000003';
export const NLL_GAME = '9c9c9c9c-0000-4000-8000-000000000004';
export const ICE_QF = [
  '9d9d9d9d-0000-4000-8000-000000000011',
  '9d9d9d9d-0000-4000-8000-000000000012',
  '9d9d9d9d-0000-4000-8000-000000000013',
  '9d9d9d9d-0000-4000-8000-000000000014',
] as const;
export const ICE_SF1 = '9d9d9d9d-0000-4000-8000-000000000021';
export const ICE_SF2 = '9d9d9d9d-0000-4000-8000-000000000022';
export const ICE_FINAL = '9d9d9d9d-0000-4000-8000-000000000031';
export const JAI_1 = '9e9e9e9e-0000-4000-8000-000000000001';
export const JAI_2 = '9e9e9e9e-0000-4000-8000-000000000002';
export const JAI_3 = '9e9e9e9e-0000-4000-8000-000000000003';
export const JAI_SOLO = '9e9e9e9e-0000-4000-8000-000000000004';
export const JAI_FUTURE = '9f9f9f9f-0000-4000-8000-000000000005';

export const ICE_TOUR_YEAR = 'tm-3ice-2026';
export const GSOC_TOUR_YEAR = 'tm-gsoc-2026';
export const JAI_TOUR_YEAR = 'tm-jaialai-2026';
export const JAI_CARD = 'jaialai:2026-03-14_dania-beach';
/** The card of JAI_SOLO, which names none: competition, UTC start date, slug of the venue. */
export const JAI_SOLO_CARD = 'jaialai:2026-03-21_dania-beach-jai-alai';

const T = '2026-03-01T00:00:00.000Z';
const DONE = '2026-03-14T03:00:00.000Z';
const LIVE = '2026-03-15T01:00:00.000Z';

type Doc = Required<
  Pick<
    FeedDocument,
    | 'tours'
    | 'tourYears'
    | 'teams'
    | 'events'
    | 'rounds'
    | 'roundScores'
    | 'markets'
    | 'odds'
    | 'futures'
    | 'futureOdds'
  >
>;
type FeedEvent = Doc['events'][number];
type FeedRound = Doc['rounds'][number];

const COMPETITIONS = ['gsoc', 'mltt', 'nll', '3ice', 'jaialai'] as const;

const team = (competition: string, id: string, name: string, shortName?: string) => ({
  id,
  competition,
  name,
  ...(shortName ? { shortName } : {}),
  updatedAt: T,
});

function matchEvent(
  competition: string,
  uuid: string,
  name: string,
  eventStatus: EventStatus,
  home: string | null,
  away: string | null,
  extra: Partial<FeedEvent> = {},
): FeedEvent {
  return {
    id: `${competition}:${uuid}`,
    competition,
    tourId: `tm-${competition}-tour`,
    tourYearId: `tm-${competition}-2026`,
    name,
    startDate: '2026-03-13T23:00:00Z',
    endDate: '2026-03-14T02:00:00Z',
    eventNumber: 1,
    eventStatus,
    eventLocation: 'Home Arena',
    teams:
      home && away
        ? [
            { teamId: home, isHomeTeam: true },
            { teamId: away, isHomeTeam: false },
          ]
        : [],
    updatedAt: eventStatus === 'COMPLETED' ? DONE : LIVE,
    ...extra,
  };
}

/**
 * Periods of a match, with each side's score: `[home, away]` for a period with scores, null for one
 * without (not played, or called off). Round ids are `<prefix>-<n>`, score ids `<prefix>-<n>-h|a`.
 */
function periods(
  doc: Doc,
  prefix: string,
  eventUuid: string,
  home: string,
  away: string,
  list: Array<{ name: string; status: EventStatus; score: [number, number] | null; extra?: Partial<FeedRound> }>,
  updatedAt = DONE,
) {
  list.forEach((p, i) => {
    const id = `${prefix}-${i + 1}`;
    doc.rounds.push({
      id,
      eventId: eventUuid,
      roundName: p.name,
      roundNo: i + 1,
      roundStatus: p.status,
      updatedAt,
      ...p.extra,
    });
    if (p.score) {
      doc.roundScores.push({ id: `${id}-h`, roundId: id, teamId: home, goals: p.score[0], updatedAt });
      doc.roundScores.push({ id: `${id}-a`, roundId: id, teamId: away, goals: p.score[1], updatedAt });
    }
  });
}

type Price = { odds: number } | { americanOdds: number } | { probability: number };

/** A typed team market and its outcomes, ids `<id>` and `<id>-<side in lower case>`. */
function market(
  doc: Doc,
  id: string,
  eventId: string,
  teamMarketType: 'moneyline' | 'spread' | 'total',
  outcomes: Array<[side: OutcomeSide, price: Price]>,
  extra: { line?: number; roundId?: string; status?: OutcomeStatus } = {},
  updatedAt = DONE,
) {
  doc.markets.push({ id, eventId, oddType: 'teamMarkets', teamMarketType, ...extra, updatedAt });
  for (const [side, price] of outcomes)
    doc.odds.push({ id: `${id}-${side.toLowerCase()}`, marketId: id, side, ...price, updatedAt });
}

export function teamMatchFeed(): FeedDocument {
  const doc: Doc = {
    tours: [],
    tourYears: [],
    teams: [],
    events: [],
    rounds: [],
    roundScores: [],
    markets: [],
    odds: [],
    futures: [],
    futureOdds: [],
  };
  for (const competition of COMPETITIONS) {
    doc.tours.push({ id: `tm-${competition}-tour`, competition, name: `${competition} test tour`, updatedAt: T });
    doc.tourYears.push({
      id: `tm-${competition}-2026`,
      tourId: `tm-${competition}-tour`,
      year: 2026,
      startDate: '2026-01-01T00:00:00Z',
      endDate: '2026-12-31T00:00:00Z',
      updatedAt: T,
    });
  }

  // Curling. Completed: Homan (home, red, first hammer) beat Einarson 6-4. Ends (home-away) and the
  // hammer in each: 1 blank (home keeps it), 2 2-0 (home; passes to away), 3 0-1 (away; to home),
  // 4 0-1 steal (home had it; away scored, so home keeps it), 5 1-0 (home; to away), 6 0-2 (away;
  // to home), 7 3-0 (home; to away), 8 blank (away keeps it). After the match away has the hammer.
  doc.teams.push(
    team('gsoc', 'tm-gsoc-homan', 'Team Homan', 'HOM'),
    team('gsoc', 'tm-gsoc-einarson', 'Team Einarson', 'EIN'),
    team('gsoc', 'tm-gsoc-jacobs', 'Team Jacobs', 'JAC'),
    team('gsoc', 'tm-gsoc-gushue', 'Team Gushue', 'GUS'),
  );
  doc.events.push(
    matchEvent('gsoc', GSOC_DONE, 'Team Homan vs Team Einarson', 'COMPLETED', null, null, {
      eventLocation: 'Guelph',
      eventNumber: 7,
      teams: [
        { teamId: 'tm-gsoc-homan', isHomeTeam: true, stoneColor: 'red', firstHammer: true },
        { teamId: 'tm-gsoc-einarson', isHomeTeam: false, stoneColor: 'yellow' },
      ],
    }),
  );
  const ends: Array<[number, number]> = [
    [0, 0],
    [2, 0],
    [0, 1],
    [0, 1],
    [1, 0],
    [0, 2],
    [3, 0],
    [0, 0],
  ];
  periods(
    doc,
    'gd-end',
    GSOC_DONE,
    'tm-gsoc-homan',
    'tm-gsoc-einarson',
    ends.map((score, i) => ({
      name: `End ${i + 1}`,
      status: 'COMPLETED',
      score,
      extra: {
        startDate: `2026-03-13T23:${String(i * 5).padStart(2, '0')}:00Z`,
        endDate: `2026-03-13T23:${String(i * 5 + 4).padStart(2, '0')}:00Z`,
      },
    })),
  );
  // Live: Jacobs (home, yellow) vs Gushue (away, red, first hammer), 2-1 after three ends. End 1 0-1
  // (away; to home), 2 blank (home keeps it), 3 2-0 (home; to away); away has the hammer in end 4 (LIVE).
  doc.events.push(
    matchEvent('gsoc', GSOC_LIVE, 'Team Jacobs vs Team Gushue', 'LIVE', null, null, {
      eventLocation: 'Guelph',
      eventNumber: 8,
      startDate: '2026-03-15T00:00:00Z',
      endDate: '2026-03-15T03:00:00Z',
      teams: [
        { teamId: 'tm-gsoc-jacobs', isHomeTeam: true, stoneColor: 'yellow' },
        { teamId: 'tm-gsoc-gushue', isHomeTeam: false, stoneColor: 'red', firstHammer: true },
      ],
    }),
  );
  periods(
    doc,
    'gl-end',
    GSOC_LIVE,
    'tm-gsoc-jacobs',
    'tm-gsoc-gushue',
    [
      { name: 'End 1', status: 'COMPLETED', score: [0, 1] },
      { name: 'End 2', status: 'COMPLETED', score: [0, 0] },
      { name: 'End 3', status: 'COMPLETED', score: [2, 0] },
      { name: 'End 4', status: 'LIVE', score: [0, 0] },
      { name: 'End 5', status: 'NEXT', score: null },
      { name: 'End 6', status: 'UPCOMING', score: null },
      { name: 'End 7', status: 'UPCOMING', score: null },
      { name: 'End 8', status: 'UPCOMING', score: null },
    ],
    LIVE,
  );

  // Table tennis: Atlanta beat Texas 4-2 in games; game 7 is called off.
  doc.teams.push(
    team('mltt', 'tm-mltt-atlanta', 'Atlanta Blazers', 'ATL'),
    team('mltt', 'tm-mltt-texas', 'Texas Smash', 'TX'),
  );
  doc.events.push(
    matchEvent('mltt', MLTT_MATCH, 'Atlanta Blazers vs Texas Smash', 'COMPLETED', 'tm-mltt-atlanta', 'tm-mltt-texas', {
      eventNumber: 3,
    }),
  );
  const singles = (home: string, away: string) => ({
    gameType: 'singles' as const,
    homeLineup: home,
    awayLineup: away,
  });
  periods(doc, 'tt-game', MLTT_MATCH, 'tm-mltt-atlanta', 'tm-mltt-texas', [
    { name: 'Game 1', status: 'COMPLETED', score: [11, 7], extra: singles('Kanak Jha', 'Jiwei Xia') },
    { name: 'Game 2', status: 'COMPLETED', score: [9, 11], extra: singles('Lily Zhang', 'Adriana Diaz') },
    {
      name: 'Game 3',
      status: 'COMPLETED',
      score: [11, 5],
      extra: { gameType: 'doubles', homeLineup: 'Kanak Jha / Lily Zhang', awayLineup: 'Jiwei Xia / Adriana Diaz' },
    },
    { name: 'Game 4', status: 'COMPLETED', score: [11, 9], extra: singles('Kanak Jha', 'Adriana Diaz') },
    { name: 'Game 5', status: 'COMPLETED', score: [8, 11], extra: singles('Lily Zhang', 'Jiwei Xia') },
    { name: 'Game 6', status: 'COMPLETED', score: [12, 10], extra: singles('Kanak Jha', 'Jiwei Xia') },
    { name: 'Game 7', status: 'CANCELLED', score: null, extra: singles('Lily Zhang', 'Adriana Diaz') },
  ]);

  // Box lacrosse: 11-11 after four quarters, Toronto wins 12-11 in overtime.
  doc.teams.push(
    team('nll', 'tm-nll-buffalo', 'Buffalo Bandits', 'BUF'),
    team('nll', 'tm-nll-toronto', 'Toronto Rock', 'TOR'),
  );
  doc.events.push(
    matchEvent('nll', NLL_GAME, 'Buffalo Bandits vs Toronto Rock', 'COMPLETED', 'tm-nll-buffalo', 'tm-nll-toronto', {
      eventNumber: 9,
    }),
  );
  periods(doc, 'nl-q', NLL_GAME, 'tm-nll-buffalo', 'tm-nll-toronto', [
    { name: 'Q1', status: 'COMPLETED', score: [3, 2] },
    { name: 'Q2', status: 'COMPLETED', score: [2, 3] },
    { name: 'Q3', status: 'COMPLETED', score: [4, 3] },
    { name: 'Q4', status: 'COMPLETED', score: [2, 3] },
    { name: 'Overtime', status: 'COMPLETED', score: [0, 1] },
  ]);

  // 3ICE: an 8-team bracket. Quarterfinals: A beat B, D beat C, E beat F in overtime, H beat G.
  // Semifinal 1: D beat A. Semifinal 2 (E v H) is scheduled without teams; the final without teams.
  const iceTeams = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
  for (const t of iceTeams) doc.teams.push(team('3ice', `tm-ice-${t.toLowerCase()}`, `Team ${t}`, `T${t}`));
  const iceId = (t: string) => `tm-ice-${t.toLowerCase()}`;
  const quarterfinals: Array<[string, string, Array<[number, number]>]> = [
    [
      'A',
      'B',
      [
        [2, 1],
        [2, 1],
      ],
    ],
    [
      'C',
      'D',
      [
        [1, 2],
        [2, 3],
      ],
    ],
    [
      'E',
      'F',
      [
        [1, 1],
        [1, 1],
        [1, 0],
      ],
    ],
    [
      'G',
      'H',
      [
        [0, 2],
        [1, 1],
      ],
    ],
  ];
  quarterfinals.forEach(([home, away, scores], i) => {
    const uuid = ICE_QF[i] as string;
    doc.events.push(
      matchEvent('3ice', uuid, `Team ${home} vs Team ${away}`, 'COMPLETED', iceId(home), iceId(away), {
        eventNumber: 10 + i,
        startDate: `2026-03-0${i + 1}T20:00:00Z`,
        endDate: `2026-03-0${i + 1}T21:00:00Z`,
        bracketRound: 1,
        bracketSlot: i + 1,
      }),
    );
    periods(
      doc,
      `ice-qf${i + 1}`,
      uuid,
      iceId(home),
      iceId(away),
      scores.map((score, k) => ({
        name: k === 2 ? 'Overtime' : k === 0 ? '1st Half' : '2nd Half',
        status: 'COMPLETED',
        score,
      })),
    );
  });
  doc.events.push(
    matchEvent('3ice', ICE_SF1, 'Team A vs Team D', 'COMPLETED', iceId('A'), iceId('D'), {
      eventNumber: 20,
      startDate: '2026-03-08T20:00:00Z',
      endDate: '2026-03-08T21:00:00Z',
      bracketRound: 2,
      bracketSlot: 1,
    }),
    matchEvent('3ice', ICE_SF2, 'Semifinal 2', 'UPCOMING', null, null, {
      eventNumber: 21,
      startDate: '2026-03-20T20:00:00Z',
      endDate: '2026-03-20T21:00:00Z',
      bracketRound: 2,
      bracketSlot: 2,
    }),
    matchEvent('3ice', ICE_FINAL, 'Final', 'UPCOMING', null, null, {
      eventNumber: 30,
      startDate: '2026-03-27T20:00:00Z',
      endDate: '2026-03-27T21:00:00Z',
      bracketRound: 3,
      bracketSlot: 1,
    }),
  );
  periods(doc, 'ice-sf1', ICE_SF1, iceId('A'), iceId('D'), [
    { name: '1st Half', status: 'COMPLETED', score: [1, 2] },
    { name: '2nd Half', status: 'COMPLETED', score: [1, 2] },
  ]);

  // Jai Alai: a card of three doubles matches at Dania Beach (all naming the card), fed out of order,
  // and a match a week later that names no card.
  doc.teams.push(
    team('jaialai', 'tm-ja-goitia', 'Goitia / Olaskoaga'),
    team('jaialai', 'tm-ja-alberdi', 'Alberdi / Egurbide'),
    team('jaialai', 'tm-ja-ortiz', 'Ortiz / Zubizarreta'),
    team('jaialai', 'tm-ja-arrieta', 'Arrieta / Mendizabal'),
  );
  const pairs = new Map(doc.teams.map((t) => [t.id, t.name]));
  const jai = (
    uuid: string,
    eventNumber: number,
    start: string,
    end: string,
    status: EventStatus,
    home: string,
    away: string,
    extra: Partial<FeedEvent>,
  ) =>
    matchEvent('jaialai', uuid, `${pairs.get(home)} vs ${pairs.get(away)}`, status, home, away, {
      eventNumber,
      startDate: start,
      endDate: end,
      eventLocation: 'Dania Beach Jai-Alai',
      eventType: 'Doubles',
      streamUrl: `https://stream.example.com/dania/${eventNumber}`,
      ...extra,
    });
  doc.events.push(
    jai(JAI_3, 3, '2026-03-15T00:20:00Z', '2026-03-15T01:00:00Z', 'LIVE', 'tm-ja-goitia', 'tm-ja-ortiz', {
      cardId: JAI_CARD,
      onServe: 'away',
    }),
    jai(JAI_1, 1, '2026-03-14T23:00:00Z', '2026-03-14T23:30:00Z', 'COMPLETED', 'tm-ja-goitia', 'tm-ja-alberdi', {
      cardId: JAI_CARD,
      onServe: 'home',
    }),
    jai(JAI_2, 2, '2026-03-14T23:40:00Z', '2026-03-15T00:10:00Z', 'COMPLETED', 'tm-ja-ortiz', 'tm-ja-arrieta', {
      cardId: JAI_CARD,
    }),
    jai(JAI_SOLO, 1, '2026-03-21T23:00:00Z', '2026-03-21T23:30:00Z', 'UPCOMING', 'tm-ja-alberdi', 'tm-ja-arrieta', {}),
  );
  const sets = (list: Array<[EventStatus, [number, number] | null]>) =>
    list.map(([status, score], i) => ({ name: `Set ${i + 1}`, status, score }));
  periods(
    doc,
    'ja1-set',
    JAI_1,
    'tm-ja-goitia',
    'tm-ja-alberdi',
    sets([
      ['COMPLETED', [15, 9]],
      ['COMPLETED', [15, 12]],
      ['CANCELLED', null],
    ]),
  );
  periods(
    doc,
    'ja2-set',
    JAI_2,
    'tm-ja-ortiz',
    'tm-ja-arrieta',
    sets([
      ['COMPLETED', [11, 15]],
      ['COMPLETED', [15, 13]],
      ['COMPLETED', [8, 15]],
    ]),
  );
  periods(
    doc,
    'ja3-set',
    JAI_3,
    'tm-ja-goitia',
    'tm-ja-ortiz',
    sets([
      ['COMPLETED', [15, 6]],
      ['LIVE', [7, 9]],
      ['UPCOMING', null],
    ]),
    LIVE,
  );
  periods(
    doc,
    'jas-set',
    JAI_SOLO,
    'tm-ja-alberdi',
    'tm-ja-arrieta',
    sets([
      ['UPCOMING', null],
      ['UPCOMING', null],
      ['UPCOMING', null],
    ]),
    T,
  );

  // Typed team markets. Completed curling (6-4, end 1 blank): home wins, home -2 pushes, over 9.5.
  market(doc, 'tm-gd-ml', GSOC_DONE, 'moneyline', [
    ['HOME', { odds: 1.8 }],
    ['AWAY', { odds: 2.1 }],
  ]);
  market(
    doc,
    'tm-gd-spread',
    GSOC_DONE,
    'spread',
    [
      ['HOME', { odds: 2.2 }],
      ['AWAY', { odds: 1.7 }],
    ],
    { line: -2 },
  );
  market(
    doc,
    'tm-gd-total',
    GSOC_DONE,
    'total',
    [
      ['OVER', { americanOdds: -110 }],
      ['UNDER', { americanOdds: -110 }],
    ],
    { line: 9.5 },
  );
  market(
    doc,
    'tm-gd-end1',
    GSOC_DONE,
    'moneyline',
    [
      ['HOME', { odds: 2.5 }],
      ['AWAY', { odds: 3.5 }],
      ['DRAW', { odds: 3 }],
    ],
    { roundId: 'gd-end-1' },
  );
  // Live curling: open match markets, including both sides of a 1.5-end handicap.
  market(
    doc,
    'tm-gl-ml',
    GSOC_LIVE,
    'moneyline',
    [
      ['HOME', { odds: 1.9 }],
      ['AWAY', { odds: 1.9 }],
    ],
    {},
    LIVE,
  );
  market(
    doc,
    'tm-gl-total',
    GSOC_LIVE,
    'total',
    [
      ['OVER', { odds: 1.9 }],
      ['UNDER', { odds: 1.9 }],
    ],
    { line: 10.5 },
    LIVE,
  );
  market(
    doc,
    'tm-gl-spread-m',
    GSOC_LIVE,
    'spread',
    [
      ['HOME', { odds: 2.6 }],
      ['AWAY', { odds: 1.5 }],
    ],
    { line: -1.5 },
    LIVE,
  );
  market(
    doc,
    'tm-gl-spread-p',
    GSOC_LIVE,
    'spread',
    [
      ['HOME', { odds: 1.5 }],
      ['AWAY', { odds: 2.6 }],
    ],
    { line: 1.5 },
    LIVE,
  );
  // Table tennis (4-2 in games; game 2 9-11; game 7 called off).
  market(doc, 'tm-tt-ml', MLTT_MATCH, 'moneyline', [
    ['HOME', { probability: 60 }],
    ['AWAY', { probability: 40 }],
  ]);
  market(
    doc,
    'tm-tt-spread',
    MLTT_MATCH,
    'spread',
    [
      ['HOME', { odds: 1.95 }],
      ['AWAY', { odds: 1.85 }],
    ],
    { line: -1.5 },
  );
  market(
    doc,
    'tm-tt-total',
    MLTT_MATCH,
    'total',
    [
      ['OVER', { odds: 1.9 }],
      ['UNDER', { odds: 1.9 }],
    ],
    { line: 6.5 },
  );
  market(
    doc,
    'tm-tt-g2-total',
    MLTT_MATCH,
    'total',
    [
      ['OVER', { odds: 1.9 }],
      ['UNDER', { odds: 1.9 }],
    ],
    { line: 19.5, roundId: 'tt-game-2' },
  );
  market(
    doc,
    'tm-tt-g2-ml',
    MLTT_MATCH,
    'moneyline',
    [
      ['HOME', { odds: 1.7 }],
      ['AWAY', { odds: 2.2 }],
    ],
    { roundId: 'tt-game-2' },
  );
  market(
    doc,
    'tm-tt-g7-ml',
    MLTT_MATCH,
    'moneyline',
    [
      ['HOME', { odds: 1.9 }],
      ['AWAY', { odds: 1.9 }],
    ],
    { roundId: 'tt-game-7' },
  );
  // Lacrosse (11-12 after overtime): away wins, home +1.5 covers, over 22.5 only with overtime.
  market(doc, 'tm-nl-ml', NLL_GAME, 'moneyline', [
    ['HOME', { odds: 1.6 }],
    ['AWAY', { odds: 2.4 }],
  ]);
  market(
    doc,
    'tm-nl-spread',
    NLL_GAME,
    'spread',
    [
      ['HOME', { odds: 1.9 }],
      ['AWAY', { odds: 1.9 }],
    ],
    { line: 1.5 },
  );
  market(
    doc,
    'tm-nl-total',
    NLL_GAME,
    'total',
    [
      ['OVER', { odds: 1.9 }],
      ['UNDER', { odds: 1.9 }],
    ],
    { line: 22.5 },
  );
  // Jai Alai match 1 (2-0 in sets: 15-9, 15-12; set 3 called off).
  market(doc, 'tm-ja-ml', `jaialai:${JAI_1}`, 'moneyline', [
    ['HOME', { odds: 1.5 }],
    ['AWAY', { odds: 2.75 }],
  ]);
  market(
    doc,
    'tm-ja-spread',
    JAI_1,
    'spread',
    [
      ['HOME', { odds: 2.4 }],
      ['AWAY', { odds: 1.6 }],
    ],
    { line: -1.5 },
  );
  market(
    doc,
    'tm-ja-total',
    JAI_1,
    'total',
    [
      ['OVER', { odds: 2 }],
      ['UNDER', { odds: 1.8 }],
    ],
    { line: 2.5 },
  );
  market(
    doc,
    'tm-ja-s1-ml',
    JAI_1,
    'moneyline',
    [
      ['HOME', { odds: 1.6 }],
      ['AWAY', { odds: 2.4 }],
    ],
    { roundId: 'ja1-set-1' },
  );
  market(
    doc,
    'tm-ja-s1-total',
    JAI_1,
    'total',
    [
      ['OVER', { odds: 1.9 }],
      ['UNDER', { odds: 1.9 }],
    ],
    { line: 24.5, roundId: 'ja1-set-1' },
  );

  // The Jai Alai season's outright.
  doc.futures.push({
    id: `jaialai:${JAI_FUTURE}`,
    competition: 'jaialai',
    tourId: 'tm-jaialai-tour',
    tourYearId: JAI_TOUR_YEAR,
    type: 'winner',
    startDate: '2026-01-01T00:00:00Z',
    endDate: '2026-12-31T00:00:00Z',
    isMarketOpen: true,
    updatedAt: T,
  });
  doc.futureOdds.push(
    {
      id: 'tm-jf-goitia',
      futureId: JAI_FUTURE,
      name: 'Goitia / Olaskoaga',
      teamId: 'tm-ja-goitia',
      odds: [{ outcomeName: 'Yes', decimalOdds: 3 }],
      updatedAt: T,
    },
    {
      id: 'tm-jf-alberdi',
      futureId: JAI_FUTURE,
      name: 'Alberdi / Egurbide',
      teamId: 'tm-ja-alberdi',
      odds: [{ outcomeName: 'Yes', americanOdds: 250 }],
      updatedAt: T,
    },
  );
  return { updatedAt: T, ...doc };
}
