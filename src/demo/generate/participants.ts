import type { Competition } from '../../domain/competitions.ts';
import type { Gender } from '../../domain/enumerations.ts';
import type { Random } from '../../domain/random.ts';
import { NATIONALITIES, type NationalityPool, SPORT_NATIONALITIES, WEIGHT_CLASSES } from '../names.ts';
import { RIDER_TEAMS, TEAMS, type TeamSeed } from '../teams.ts';
import type { FeedAthlete, FeedTeam } from './feed-items.ts';
import type { Profile } from './profile.ts';
import { pad2 } from './time.ts';

/** A competition's participants: its athletes, or its teams (and a bull-riding tour's rider teams). */

export interface AthletePlan {
  id: string;
  name: string;
  lastName: string;
  weightClass: string | undefined;
  strength: number;
  feed: FeedAthlete;
}

export interface TeamPlan {
  id: string;
  index: number;
  seed: TeamSeed;
  strength: number;
  feed: FeedTeam;
}

const POOLS = new Map(NATIONALITIES.map((p) => [p.code, p]));

function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function makeAthletes(
  competition: Competition,
  profile: Profile,
  gender: Gender,
  rng: Random,
  now: Date,
): AthletePlan[] {
  const [min, max] = profile.athletes ?? [16, 40];
  const [minAge, maxAge] = profile.ages ?? [19, 36];
  const count = rng.int(min, max);
  const weights = SPORT_NATIONALITIES[competition.key] ?? [['USA', 1]];
  const classes = WEIGHT_CLASSES[competition.key];
  const used = new Set<string>();
  const athletes: AthletePlan[] = [];
  for (let i = 0; i < count; i++) {
    const athleteGender: 'men' | 'women' =
      gender === 'mixed' ? (rng.chance(0.5) ? 'men' : 'women') : gender === 'women' ? 'women' : 'men';
    let nation: NationalityPool | undefined;
    let firstName = '';
    let lastName = '';
    for (let attempt = 0; attempt < 40; attempt++) {
      nation = POOLS.get(rng.weighted(weights)) ?? NATIONALITIES[0];
      if (!nation) throw new Error('empty nationality pool');
      firstName = rng.pick(athleteGender === 'men' ? nation.male : nation.female);
      lastName = rng.pick(nation.last);
      // No two athletes of a field share a name, and nobody is called Mitchell Mitchell.
      if (!used.has(`${firstName} ${lastName}`) && firstName !== lastName) break;
    }
    used.add(`${firstName} ${lastName}`);
    if (!nation) throw new Error('empty nationality pool');

    const weightClass = classes ? rng.pick(classes) : undefined;
    const heightCm = Math.round(rng.normal(athleteGender === 'men' ? 178 : 167, athleteGender === 'men' ? 7 : 6));
    const weightKg = weightClass
      ? Math.round((weightClass[1] - rng.float(0.2, 4)) * 10) / 10
      : Math.round(rng.normal(23, 1.5) * (heightCm / 100) ** 2 * 10) / 10;
    const age = rng.int(minAge, maxAge);
    const dob = `${now.getUTCFullYear() - age}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`;
    const id = `${competition.key}-athlete-${String(i + 1).padStart(3, '0')}`;
    const feed: FeedAthlete = {
      id,
      firstName,
      lastName,
      nationality: nation.code,
      ...(competition.key === 'wsl' ? { stance: rng.chance(0.55) ? 'Regular' : 'Goofy' } : {}),
      hometown: rng.chance(0.7) ? `${rng.pick(nation.cities)}, ${nation.country}` : null,
      // Some feeds do not record height or weight; the API publishes null then.
      height: rng.chance(0.12) ? null : heightCm,
      weight: rng.chance(0.12) ? null : weightKg,
      gender: athleteGender,
      ...(weightClass ? { weightClass: weightClass[0] } : {}),
      dob,
    };
    athletes.push({
      id,
      name: `${firstName} ${lastName}`,
      lastName,
      weightClass: weightClass?.[0],
      strength: rng.normal(),
      feed,
    });
  }
  return athletes;
}

export function makeTeams(competition: Competition, rng: Random): TeamPlan[] {
  const pool = TEAMS[competition.key] ?? [];
  // 8-12 where the pool allows, so every future prices at least eight outcomes.
  const count = Math.min(pool.length, rng.int(8, 12));
  return rng.sample(pool, count).map((seed, index) => {
    const id = `${competition.key}-team-${slug(seed.shortName)}`;
    return {
      id,
      index,
      seed,
      strength: rng.normal(),
      feed: {
        id,
        competition: competition.key,
        name: seed.name,
        shortName: seed.shortName,
        logo: `https://assets.altsports.example/logos/${competition.key}/${slug(seed.shortName)}.png`,
      },
    };
  });
}

/**
 * Teams of a bull-riding tour, for its team events: every rider rides for one, dealt back and forth by
 * strength so that the teams are even. No draws, so the athletes and everything after are unchanged.
 */
export function makeRiderTeams(competition: Competition, athletes: readonly AthletePlan[]): FeedTeam[] {
  const teams: FeedTeam[] = (RIDER_TEAMS[competition.key] ?? []).map((seed) => ({
    id: `${competition.key}-team-${slug(seed.shortName)}`,
    competition: competition.key,
    name: seed.name,
    shortName: seed.shortName,
    logo: `https://assets.altsports.example/logos/${competition.key}/${slug(seed.shortName)}.png`,
  }));
  if (teams.length === 0) return teams;
  const byStrength = [...athletes].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
  byStrength.forEach((athlete, i) => {
    const pass = Math.floor(i / teams.length);
    const k = i % teams.length;
    athlete.feed.teamId = teams[pass % 2 === 0 ? k : teams.length - 1 - k]?.id ?? null;
  });
  return teams;
}

// ---------------------------------------------------------------------------------------------------
// Event schedule.
