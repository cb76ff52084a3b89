import { numbered, type Profile, type RoundSpec, spec } from './profile.ts';

/** Racing: supercross and motocross, sprint cars, road racing, drifting and drag racing. */

const sprintCars = (tourName: string, qualifying: RoundSpec, last: string): Profile => ({
  tourName,
  gender: 'men',
  spacingDays: 4,
  startHours: [23, 0],
  dayHours: 5,
  athletes: [24, 36],
  rounds: () => [
    qualifying,
    spec('Heat Races', numbered('Heat', 4), 8, { gap: 4, gapBefore: 20 }),
    spec(last, [last], 10, { gapBefore: 20 }),
    spec('Feature', ['Feature'], 25, { gapBefore: 20 }),
  ],
});

export const RACING_PROFILES: Readonly<Record<string, Profile>> = {
  spr: {
    tourName: 'AMA Supercross 450SX',
    gender: 'men',
    spacingDays: 7,
    startHours: [17, 18],
    dayHours: 10,
    athletes: [22, 30],
    rounds: () => [
      spec('Qualifying', ['Qualifying 1', 'Qualifying 2'], 20, { gap: 30 }),
      spec('Heats', ['Heat 1', 'Heat 2'], 15, { gap: 10, gapBefore: 240 }),
      spec('Last Chance Qualifier', ['LCQ'], 12, { gapBefore: 40 }),
      spec('Main Event', ['Main Event'], 25, { gapBefore: 45 }),
    ],
  },
  f1: {
    tourName: 'FIA Formula One World Championship',
    gender: 'men',
    spacingDays: 14,
    startHours: [11, 12, 13],
    dayHours: 5,
    athletes: [20, 20],
    ages: [18, 40],
    rounds: () => [
      spec('Practice', ['Practice 1', 'Practice 2', 'Practice 3'], 60, { gap: 120 }),
      spec('Qualifying', ['Q1', 'Q2', 'Q3'], 18, { gap: 8, gapBefore: 120 }),
      spec('Race', ['Grand Prix'], 100, { newDay: true }),
    ],
  },
  motocrs: {
    tourName: 'Pro Motocross 450 Class',
    gender: 'men',
    spacingDays: 7,
    startHours: [14, 15],
    dayHours: 9,
    athletes: [30, 40],
    rounds: () => [
      spec('Qualifying', ['Group A', 'Group B'], 25, { gap: 15 }),
      spec('Consolation Race', ['Consi'], 15, { gapBefore: 120 }),
      spec('Moto 1', ['Moto 1'], 40, { gapBefore: 60 }),
      spec('Moto 2', ['Moto 2'], 40, { gapBefore: 150 }),
    ],
  },
  fdrift: {
    tourName: 'Formula DRIFT PRO Championship',
    gender: 'men',
    spacingDays: 21,
    startHours: [17, 18],
    dayHours: 8,
    athletes: [32, 36],
    rounds: () => [
      spec('Qualifying', ['Qualifying'], 180),
      spec('Top 32', numbered('Battle', 16), 4, { gap: 2, newDay: true }),
      spec('Top 16', numbered('Battle', 8), 4, { gap: 2, gapBefore: 30 }),
      spec('Great 8', numbered('Battle', 4), 4, { gap: 2, gapBefore: 20 }),
      spec('Final Four', numbered('Battle', 2), 5, { gap: 3, gapBefore: 15 }),
      spec('Final', ['Battle 1'], 5, { gapBefore: 15 }),
    ],
  },
  motoamerica: {
    tourName: 'MotoAmerica Superbike',
    gender: 'men',
    spacingDays: 14,
    startHours: [14, 15],
    dayHours: 8,
    athletes: [20, 28],
    rounds: () => [
      spec('Qualifying', ['Q1', 'Q2'], 30, { gap: 120 }),
      spec('Race 1', ['Race 1'], 35, { newDay: true }),
      spec('Race 2', ['Race 2'], 35, { newDay: true }),
    ],
  },
  usac: sprintCars('USAC National Sprint Car Series', spec('Qualifying', ['Qualifying'], 30), 'Semi-Feature'),
  nhra: {
    tourName: 'NHRA Top Fuel',
    gender: 'men',
    spacingDays: 10,
    startHours: [17, 18],
    dayHours: 7,
    athletes: [16, 24],
    ages: [22, 55],
    rounds: () => [
      spec('Qualifying', ['Q1', 'Q2', 'Q3', 'Q4'], 45, { gap: 150 }),
      spec('Round 1', numbered('Pair', 8), 4, { gap: 3, newDay: true }),
      spec('Quarterfinals', numbered('Pair', 4), 4, { gap: 3, gapBefore: 75 }),
      spec('Semifinals', numbered('Pair', 2), 4, { gap: 3, gapBefore: 75 }),
      spec('Final', ['Pair 1'], 4, { gapBefore: 75 }),
    ],
  },
  sprmtcrs: {
    tourName: 'SuperMotocross World Championship 450',
    gender: 'men',
    spacingDays: 7,
    startHours: [17, 18],
    dayHours: 9,
    athletes: [22, 30],
    rounds: () => [
      spec('Qualifying', ['Qualifying 1', 'Qualifying 2'], 20, { gap: 30 }),
      spec('Last Chance Qualifier', ['LCQ'], 12, { gapBefore: 180 }),
      spec('Moto 1', ['Moto 1'], 25, { gapBefore: 45 }),
      spec('Moto 2', ['Moto 2'], 25, { gapBefore: 60 }),
    ],
  },
  hlrs: sprintCars(
    'High Limit Racing',
    spec('Qualifying', ['Flight A', 'Flight B'], 15, { gap: 5 }),
    'Last Chance Showdown',
  ),
  worldoutlaws: sprintCars(
    'World of Outlaws Sprint Car Series',
    spec('Qualifying', ['Group A', 'Group B'], 15, { gap: 5 }),
    'Last Chance Showdown',
  ),
};
