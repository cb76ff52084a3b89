import type { OddType } from './enumerations.ts';

/**
 * The sport catalogue: every competition key of the specification (section 2.1), declared once.
 *
 * `sportKey`/`sportName` are the sport category published on score rows; `resultsFormat` says how a
 * heat's results are shaped and which derived-field rules apply to it; `participants` says whether
 * the event's entrants are athletes or teams (route 4 answers 400 for teams).
 */

export const RESULTS_FORMATS = {
  'judged-heat': 'judges score each athlete in a heat (surfing, action sports)',
  skateboarding: 'runs and tricks scored out of 10; round score is the best three (sls)',
  'supercross-laps': 'lap-by-lap racing, lap 1 excluded from fastest-lap figures',
  'sprint-laps': 'lap-by-lap sprint-car racing, lap 1 included in fastest-lap figures (hlrs)',
  'position-race': 'a race published as finishing positions',
  'timed-race': 'a race decided by time (swimming)',
  'stroke-play': 'rounds scored by strokes (disc golf)',
  'points-leaderboard': 'individual points accumulated across games (team-rotation leagues)',
  combat: 'a fight between two athletes with a winner and a method',
  'drift-battle': 'a two-driver tandem battle with a winner',
  'drag-pairing': 'a two-driver elimination pairing with a winner',
  'bull-riding': 'rides scored for rider and bull; team games for team events',
  'team-match': 'a game between two teams scored by period',
  curling: 'curling matches scored by end, with hammer and stone colour',
  'table-tennis': 'team matches made of singles and doubles games',
  'box-lacrosse': 'box lacrosse games scored by quarter',
  'three-ice': '3-on-3 hockey games scored by period, with a season bracket',
  'jai-alai': 'Jai Alai matches of two pairs scored by set',
} as const;
export type ResultsFormat = keyof typeof RESULTS_FORMATS;

/** Formats whose heats carry per-lap records (lap times and positions) and publish lap statistics. */
export const LAP_RECORD_FORMATS = ['supercross-laps', 'sprint-laps'] as const satisfies readonly ResultsFormat[];
/** Formats whose heats are decided by a stored winner and method: fights, drift battles, drag pairings. */
export const HEAT_RESULT_FORMATS = [
  'combat',
  'drift-battle',
  'drag-pairing',
] as const satisfies readonly ResultsFormat[];
/** Formats whose heats may be team games (home and away teams, an event type text). */
export const TEAM_GAME_FORMATS = ['bull-riding'] as const satisfies readonly ResultsFormat[];

export function formatIn(formats: readonly ResultsFormat[], format: ResultsFormat): boolean {
  return formats.includes(format);
}

/**
 * Sport categories (`sportKey`, `sportName`, `numericSportId` on score rows). Several competitions share
 * one: bkfc and byb are both bare-knuckle boxing.
 */
export const SPORTS = [
  { referenceId: 1, key: 'surfing', name: 'Surfing' },
  { referenceId: 2, key: 'skateboarding', name: 'Skateboarding' },
  { referenceId: 3, key: 'supercross', name: 'Supercross' },
  { referenceId: 4, key: 'arena-soccer', name: 'Arena Soccer' },
  { referenceId: 5, key: 'bull-riding', name: 'Bull Riding' },
  { referenceId: 6, key: 'bare-knuckle-boxing', name: 'Bare Knuckle Boxing' },
  { referenceId: 7, key: 'formula-racing', name: 'Formula Racing' },
  { referenceId: 8, key: 'motocross', name: 'Motocross' },
  { referenceId: 9, key: 'drifting', name: 'Drifting' },
  { referenceId: 10, key: 'jai-alai', name: 'Jai Alai' },
  { referenceId: 11, key: 'curling', name: 'Curling' },
  { referenceId: 12, key: 'motorcycle-road-racing', name: 'Motorcycle Road Racing' },
  { referenceId: 13, key: 'slap-fighting', name: 'Slap Fighting' },
  { referenceId: 14, key: 'sprint-car-racing', name: 'Sprint Car Racing' },
  { referenceId: 15, key: 'drag-racing', name: 'Drag Racing' },
  { referenceId: 16, key: 'action-sports', name: 'Action Sports' },
  { referenceId: 17, key: 'disc-golf', name: 'Disc Golf' },
  { referenceId: 18, key: 'team-rotation', name: 'Team Rotation Leagues' },
  { referenceId: 19, key: 'mma', name: 'Mixed Martial Arts' },
  { referenceId: 20, key: 'freestyle-wrestling', name: 'Freestyle Wrestling' },
  { referenceId: 21, key: 'box-lacrosse', name: 'Box Lacrosse' },
  { referenceId: 22, key: 'table-tennis', name: 'Table Tennis' },
  { referenceId: 23, key: 'made-for-tv', name: 'Made-for-TV Events' },
  { referenceId: 24, key: 'indoor-football', name: 'Indoor Football' },
  { referenceId: 25, key: 'three-on-three-hockey', name: '3-on-3 Hockey' },
  { referenceId: 26, key: 'swimming', name: 'Swimming' },
] as const satisfies ReadonlyArray<{ referenceId: number; key: string; name: string }>;
export type SportKey = (typeof SPORTS)[number]['key'];
const SPORT_BY_KEY = new Map<string, (typeof SPORTS)[number]>(SPORTS.map((s) => [s.key, s]));

export interface Competition {
  key: string;
  referenceId: number;
  name: string;
  sportKey: SportKey;
  sportName: string;
  /** The sport category's numeric id (`numericSportId` on score rows). */
  sportReferenceId: number;
  resultsFormat: ResultsFormat;
  participants: 'athletes' | 'teams';
  supportedMarkets: readonly OddType[];
}

const FIELD_RACE: readonly OddType[] = [
  'eventWinner',
  'secondPlace',
  'headToHead',
  'podiums',
  'shows',
  'raceTop3',
  'raceTop5',
  'raceTop10',
  'eventExacta',
  'overUnder',
  'multiOverUnder',
  'fastestLap',
  'propBets',
];
const MOTO_RACE: readonly OddType[] = [...FIELD_RACE, 'holeShot', 'heatWinner', 'dreamTeam'];
const JUDGED_HEATS: readonly OddType[] = [
  'eventWinner',
  'secondPlace',
  'heatWinner',
  'heatExacta',
  'headToHead',
  'podiums',
  'shows',
  'eventExacta',
  'overUnder',
  'propBets',
  'dreamTeam',
];
const COMBAT: readonly OddType[] = ['heatWinner', 'headToHead', 'overUnder', 'propBets'];
const BATTLES: readonly OddType[] = [
  'eventWinner',
  'secondPlace',
  'heatWinner',
  'headToHead',
  'podiums',
  'eventExacta',
  'propBets',
];
const TEAM_GAME: readonly OddType[] = ['eventWinner', 'teamMarkets', 'overUnder', 'propBets'];
const LEADERBOARD: readonly OddType[] = [
  'eventWinner',
  'secondPlace',
  'headToHead',
  'podiums',
  'raceTop3',
  'raceTop5',
  'raceTop10',
  'overUnder',
  'propBets',
];

function competition(
  referenceId: number,
  key: string,
  name: string,
  sportKey: SportKey,
  resultsFormat: ResultsFormat,
  supportedMarkets: readonly OddType[],
  participants: 'athletes' | 'teams' = 'athletes',
): Competition {
  const sport = SPORT_BY_KEY.get(sportKey);
  if (!sport) throw new Error(`unknown sport category: ${sportKey}`);
  return {
    key,
    referenceId,
    name,
    sportKey,
    sportName: sport.name,
    sportReferenceId: sport.referenceId,
    resultsFormat,
    participants,
    supportedMarkets,
  };
}

export const COMPETITIONS: readonly Competition[] = [
  competition(1, 'wsl', 'World Surf League', 'surfing', 'judged-heat', JUDGED_HEATS),
  competition(2, 'sls', 'Street League Skateboarding', 'skateboarding', 'skateboarding', JUDGED_HEATS),
  competition(3, 'spr', 'Supercross', 'supercross', 'supercross-laps', MOTO_RACE),
  competition(4, 'masl', 'Major Arena Soccer League', 'arena-soccer', 'team-match', TEAM_GAME, 'teams'),
  competition(5, 'pbr', 'Professional Bull Riders', 'bull-riding', 'bull-riding', [
    'eventWinner',
    'heatWinner',
    'headToHead',
    'overUnder',
    'propBets',
    'teamMarkets',
  ]),
  competition(6, 'bkfc', 'Bare Knuckle Fighting Championship', 'bare-knuckle-boxing', 'combat', COMBAT),
  competition(7, 'f1', 'Formula 1', 'formula-racing', 'position-race', FIELD_RACE),
  competition(8, 'motocrs', 'Pro Motocross', 'motocross', 'supercross-laps', MOTO_RACE),
  competition(9, 'fdrift', 'Formula Drift', 'drifting', 'drift-battle', BATTLES),
  competition(10, 'jaialai', 'World Jai Alai', 'jai-alai', 'jai-alai', ['teamMarkets', 'propBets'], 'teams'),
  competition(11, 'gsoc', 'Grand Slam of Curling', 'curling', 'curling', ['eventWinner', 'teamMarkets'], 'teams'),
  competition(12, 'motoamerica', 'MotoAmerica', 'motorcycle-road-racing', 'position-race', FIELD_RACE),
  competition(13, 'byb', 'BYB Extreme Fighting', 'bare-knuckle-boxing', 'combat', COMBAT),
  competition(14, 'powerslap', 'Power Slap', 'slap-fighting', 'combat', COMBAT),
  competition(15, 'usac', 'USAC Racing', 'sprint-car-racing', 'position-race', FIELD_RACE),
  competition(16, 'nhra', 'NHRA Drag Racing', 'drag-racing', 'drag-pairing', BATTLES),
  competition(17, 'sprmtcrs', 'SuperMotocross', 'motocross', 'supercross-laps', MOTO_RACE),
  competition(18, 'hlrs', 'High Limit Racing', 'sprint-car-racing', 'sprint-laps', [...FIELD_RACE, 'heatWinner']),
  competition(19, 'xgame', 'X Games', 'action-sports', 'judged-heat', JUDGED_HEATS),
  competition(20, 'worldoutlaws', 'World of Outlaws', 'sprint-car-racing', 'position-race', [
    ...FIELD_RACE,
    'heatWinner',
  ]),
  competition(21, 'dgpt', 'Disc Golf Pro Tour', 'disc-golf', 'stroke-play', LEADERBOARD),
  competition(22, 'athletesunlimited', 'Athletes Unlimited', 'team-rotation', 'points-leaderboard', LEADERBOARD),
  competition(23, 'lux', 'LUX Fight League', 'mma', 'combat', COMBAT),
  competition(24, 'raf', 'Real American Freestyle', 'freestyle-wrestling', 'combat', COMBAT),
  competition(25, 'nll', 'National Lacrosse League', 'box-lacrosse', 'box-lacrosse', TEAM_GAME, 'teams'),
  competition(26, 'mltt', 'Major League Table Tennis', 'table-tennis', 'table-tennis', TEAM_GAME, 'teams'),
  competition(27, 'spectation', 'Spectation Sports', 'made-for-tv', 'judged-heat', JUDGED_HEATS),
  competition(28, 'ifl', 'Indoor Football League', 'indoor-football', 'team-match', TEAM_GAME, 'teams'),
  competition(29, '3ice', '3ICE', 'three-on-three-hockey', 'three-ice', TEAM_GAME, 'teams'),
  competition(30, 'swimming', 'Swimming', 'swimming', 'timed-race', LEADERBOARD),
];

export const COMPETITION_KEYS = COMPETITIONS.map((c) => c.key);

const BY_KEY = new Map(COMPETITIONS.map((c) => [c.key, c]));

export function findCompetition(key: string): Competition | undefined {
  return BY_KEY.get(key);
}

export function getCompetition(key: string): Competition {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown competition key: ${key}`);
  return found;
}

export function isCompetitionKey(key: unknown): key is string {
  return typeof key === 'string' && BY_KEY.has(key);
}

/**
 * Formats whose events the same game parlay can price: those with a finishing order, a fight or a
 * match score model. Arena soccer and indoor football games (their markets settled by the operator)
 * have no parlay (route 7 answers 400).
 */
const NO_PARLAY_FORMATS: readonly ResultsFormat[] = ['team-match'];

export function supportsParlays(competition: Competition): boolean {
  return !NO_PARLAY_FORMATS.includes(competition.resultsFormat);
}
