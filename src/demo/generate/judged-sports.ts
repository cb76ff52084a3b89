import { numbered, type Profile, spec } from './profile.ts';

/** Judged sports: surfing (a waiting period), skateboarding, action sports and made-for-TV events. */
export const JUDGED_PROFILES: Readonly<Record<string, Profile>> = {
  wsl: {
    tourName: "Men's Championship Tour",
    gender: 'men',
    spacingDays: 21,
    startHours: [17, 18, 19],
    dayHours: 9,
    athletes: [34, 36],
    window: { minDays: 10, maxDays: 12, maxLeadDays: 4 },
    rounds: () => [
      spec('Opening Round', numbered('Heat', 12), 30, { gap: 5 }),
      spec('Elimination Round', numbered('Heat', 4), 30, { gap: 5 }),
      spec('Round of 32', numbered('Heat', 16), 30, { gap: 5, newDay: true }),
      spec('Round of 16', numbered('Heat', 8), 35, { gap: 5 }),
      spec('Quarterfinals', numbered('Heat', 4), 35, { gap: 5, newDay: true }),
      spec('Semifinals', numbered('Heat', 2), 35, { gap: 5 }),
      spec('Final', ['Heat 1'], 40, { gapBefore: 30 }),
    ],
  },
  sls: {
    tourName: 'SLS Championship Tour',
    gender: 'men',
    spacingDays: 30,
    startHours: [18, 20],
    dayHours: 8,
    athletes: [16, 24],
    ages: [16, 32],
    rounds: () => [
      spec('Qualifying', numbered('Heat', 4), 50, { gap: 10 }),
      spec('Knockout Round', numbered('Heat', 2), 45, { gap: 10, newDay: true }),
      spec('Final', ['Final'], 60, { gapBefore: 60 }),
    ],
  },
  // An X Games runs men's and women's events apart: each demo tour is one field.
  xgame: {
    tourName: 'X Games',
    gender: 'men',
    spacingDays: 60,
    startHours: [17, 18],
    dayHours: 8,
    athletes: [24, 40],
    ages: [15, 34],
    rounds: () => [
      spec('Qualifying', numbered('Heat', 4), 30, { gap: 10 }),
      spec('Semifinals', numbered('Heat', 2), 30, { gap: 10, newDay: true }),
      spec('Final', ['Final'], 45, { newDay: true }),
    ],
  },
  spectation: {
    tourName: 'Spectation Sports Series',
    gender: 'mixed',
    spacingDays: 30,
    startHours: [0, 1],
    dayHours: 5,
    athletes: [16, 24],
    rounds: () => [
      spec('Round 1', numbered('Heat', 4), 20, { gap: 5 }),
      spec('Semifinals', numbered('Heat', 2), 20, { gap: 5, gapBefore: 20 }),
      spec('Final', ['Final'], 25, { gapBefore: 20 }),
    ],
  },
};
