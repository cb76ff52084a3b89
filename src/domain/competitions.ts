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

export interface Competition {
  key: string;
  referenceId: number;
  name: string;
  sportKey: string;
  sportName: string;
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
const BATTLES: readonly OddType[] = ['eventWinner', 'secondPlace', 'heatWinner', 'headToHead', 'podiums', 'eventExacta', 'propBets'];
const TEAM_GAME: readonly OddType[] = ['eventWinner', 'teamMarkets', 'overUnder', 'propBets'];
const LEADERBOARD: readonly OddType[] = ['eventWinner', 'secondPlace', 'headToHead', 'podiums', 'raceTop3', 'raceTop5', 'raceTop10', 'overUnder', 'propBets'];

function competition(
  referenceId: number,
  key: string,
  name: string,
  sportKey: string,
  sportName: string,
  resultsFormat: ResultsFormat,
  supportedMarkets: readonly OddType[],
  participants: 'athletes' | 'teams' = 'athletes',
): Competition {
  return { key, referenceId, name, sportKey, sportName, resultsFormat, participants, supportedMarkets };
}

export const COMPETITIONS: readonly Competition[] = [
  competition(1, 'wsl', 'World Surf League', 'surfing', 'Surfing', 'judged-heat', JUDGED_HEATS),
  competition(2, 'sls', 'Street League Skateboarding', 'skateboarding', 'Skateboarding', 'skateboarding', JUDGED_HEATS),
  competition(3, 'spr', 'Supercross', 'supercross', 'Supercross', 'supercross-laps', MOTO_RACE),
  competition(4, 'masl', 'Major Arena Soccer League', 'arena-soccer', 'Arena Soccer', 'team-match', TEAM_GAME, 'teams'),
  competition(5, 'pbr', 'Professional Bull Riders', 'bull-riding', 'Bull Riding', 'bull-riding', ['eventWinner', 'heatWinner', 'headToHead', 'overUnder', 'propBets', 'teamMarkets']),
  competition(6, 'bkfc', 'Bare Knuckle Fighting Championship', 'bare-knuckle-boxing', 'Bare Knuckle Boxing', 'combat', COMBAT),
  competition(7, 'f1', 'Formula 1', 'formula-racing', 'Formula Racing', 'position-race', FIELD_RACE),
  competition(8, 'motocrs', 'Pro Motocross', 'motocross', 'Motocross', 'supercross-laps', MOTO_RACE),
  competition(9, 'fdrift', 'Formula Drift', 'drifting', 'Drifting', 'drift-battle', BATTLES),
  competition(10, 'jaialai', 'World Jai Alai', 'jai-alai', 'Jai Alai', 'jai-alai', ['eventWinner', 'teamMarkets']),
  competition(11, 'gsoc', 'Grand Slam of Curling', 'curling', 'Curling', 'curling', ['eventWinner', 'teamMarkets'], 'teams'),
  competition(12, 'motoamerica', 'MotoAmerica', 'motorcycle-road-racing', 'Motorcycle Road Racing', 'position-race', FIELD_RACE),
  competition(13, 'byb', 'BYB Extreme Fighting', 'bare-knuckle-boxing', 'Bare Knuckle Boxing', 'combat', COMBAT),
  competition(14, 'powerslap', 'Power Slap', 'slap-fighting', 'Slap Fighting', 'combat', COMBAT),
  competition(15, 'usac', 'USAC Racing', 'sprint-car-racing', 'Sprint Car Racing', 'position-race', FIELD_RACE),
  competition(16, 'nhra', 'NHRA Drag Racing', 'drag-racing', 'Drag Racing', 'drag-pairing', BATTLES),
  competition(17, 'sprmtcrs', 'SuperMotocross', 'motocross', 'Motocross', 'supercross-laps', MOTO_RACE),
  competition(18, 'hlrs', 'High Limit Racing', 'sprint-car-racing', 'Sprint Car Racing', 'sprint-laps', [...FIELD_RACE, 'heatWinner']),
  competition(19, 'xgame', 'X Games', 'action-sports', 'Action Sports', 'judged-heat', JUDGED_HEATS),
  competition(20, 'worldoutlaws', 'World of Outlaws', 'sprint-car-racing', 'Sprint Car Racing', 'position-race', [...FIELD_RACE, 'heatWinner']),
  competition(21, 'dgpt', 'Disc Golf Pro Tour', 'disc-golf', 'Disc Golf', 'stroke-play', LEADERBOARD),
  competition(22, 'athletesunlimited', 'Athletes Unlimited', 'team-rotation', 'Team Rotation Leagues', 'points-leaderboard', LEADERBOARD),
  competition(23, 'lux', 'LUX Fight League', 'mma', 'Mixed Martial Arts', 'combat', COMBAT),
  competition(24, 'raf', 'Real American Freestyle', 'freestyle-wrestling', 'Freestyle Wrestling', 'combat', COMBAT),
  competition(25, 'nll', 'National Lacrosse League', 'box-lacrosse', 'Box Lacrosse', 'box-lacrosse', TEAM_GAME, 'teams'),
  competition(26, 'mltt', 'Major League Table Tennis', 'table-tennis', 'Table Tennis', 'table-tennis', TEAM_GAME, 'teams'),
  competition(27, 'spectation', 'Spectation Sports', 'made-for-tv', 'Made-for-TV Events', 'judged-heat', JUDGED_HEATS),
  competition(28, 'ifl', 'Indoor Football League', 'indoor-football', 'Indoor Football', 'team-match', TEAM_GAME, 'teams'),
  competition(29, '3ice', '3ICE', 'three-on-three-hockey', '3-on-3 Hockey', 'three-ice', TEAM_GAME, 'teams'),
  competition(30, 'swimming', 'Swimming', 'swimming', 'Swimming', 'timed-race', LEADERBOARD),
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
