import { Type } from 'typebox';
import {
  CurlingEvent,
  CurlingOdds,
  LacrosseEvent,
  LacrosseOdds,
  TableTennisEvent,
  TableTennisOdds,
  ThreeIceEvent,
} from '../../shapes/sport-events.ts';
import { SPORT_TAG } from '../tags.ts';
import { operation, PUBLIC_ERRORS } from './common.ts';

export const SportEventParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '`<sport_key>:<uuid>`; a bare uuid is accepted too' }),
});
export const SportOddsParams = Type.Object({
  id: Type.String({ maxLength: 200, description: '`<sport_key>:<uuid>` or the bare uuid' }),
});
export const JaiAlaiCardParams = Type.Object({
  id: Type.String({
    maxLength: 200,
    description:
      'a Jai Alai card id `<prefix>:<YYYY-MM-DD>_<text>` (prefix without a colon), as `cardId` in the event list and the event document',
  }),
});
export const BracketParams = Type.Object({
  tourYearId: Type.String({ maxLength: 200, description: 'the season id, `tourYearId` in the 3ICE event detail' }),
});

const DETAIL_ERRORS = { ...PUBLIC_ERRORS, 404: 'event not found, or an event of another sport' };
const ODDS_ERRORS = { ...PUBLIC_ERRORS, 400: 'the id belongs to an event of another sport', 404: 'event not found' };

const DETAILS = [
  {
    sport: 'gsoc',
    schema: CurlingEvent,
    summary: 'Fetch curling event',
    what: 'a curling match: teams with hammer and stone colour, ends with their scores',
  },
  {
    sport: 'mltt',
    schema: TableTennisEvent,
    summary: 'Fetch table tennis event',
    what: 'a table tennis team match: teams, games (singles and doubles, with lineups) and points per game; the match score counts games won',
  },
  {
    sport: 'nll',
    schema: LacrosseEvent,
    summary: 'Fetch box lacrosse event',
    what: 'a box lacrosse game: teams and goals per quarter',
  },
  {
    sport: '3ice',
    schema: ThreeIceEvent,
    summary: 'Fetch 3ICE event',
    what: "a 3-on-3 hockey game: teams, goals per period, and its season's bracket",
  },
] as const;

/** Routes 8, 10, 12 and 14: one curling, table tennis, box lacrosse or 3ICE event. */
export const teamEventDetails = DETAILS.map(({ sport, schema, summary, what }) => ({
  sport,
  schema,
  ...operation({
    tags: [SPORT_TAG[sport]],
    summary,
    description: `One event: ${what}.`,
    errors: DETAIL_ERRORS,
    codes: ['EVENT_NOT_FOUND', 'EVENT_NOT_OF_SPORT'],
  }),
}));

const ODDS = [
  {
    sport: 'gsoc',
    schema: CurlingOdds,
    summary: 'Fetch curling odds',
    what: 'moneyline, spread and total for the match and for each end priced',
  },
  {
    sport: 'mltt',
    schema: TableTennisOdds,
    summary: 'Fetch table tennis odds',
    what: 'moneyline, spread and total in games for the match, and in points for each game priced',
  },
  {
    sport: 'nll',
    schema: LacrosseOdds,
    summary: 'Fetch box lacrosse odds',
    what: 'moneyline, spread and total for the game (overtime included)',
  },
] as const;

/** Routes 9, 11 and 13: one curling, table tennis or box lacrosse event's odds. */
export const teamEventOdds = ODDS.map(({ sport, schema, summary, what }) => ({
  sport,
  schema,
  ...operation({
    tags: [SPORT_TAG[sport]],
    summary,
    description: `${what}, priced by the same score model, each outcome an odd id the parlay route accepts. The id may be prefixed or bare; an event of another sport is a 400 that names its sport.`,
    errors: ODDS_ERRORS,
    codes: ['EVENT_NOT_FOUND', 'EVENT_OF_OTHER_SPORT'],
  }),
}));

/** Route 15: a 3ICE season's knockout bracket. */
export const bracketOperation = operation({
  tags: [SPORT_TAG['3ice']],
  summary: 'Fetch 3ICE bracket',
  description: "A season's knockout bracket: every round and slot, filled in as winners advance.",
  errors: { ...PUBLIC_ERRORS, 404: 'tour year not found' },
  codes: ['TOUR_YEAR_NOT_FOUND'],
});

/** Route 16: a Jai Alai card (a night's matches at one venue). */
export const jaiAlaiCardOperation = operation({
  tags: [SPORT_TAG.jaialai],
  summary: 'Fetch Jai Alai card',
  description:
    'The matches of a Jai Alai card (a night at one venue), as section 2.7 items. The id has the form <prefix>:<YYYY-MM-DD>_<text>; any other form is a 400.',
  errors: {
    ...PUBLIC_ERRORS,
    400: 'the id is not of the form <prefix>:<YYYY-MM-DD>_<text>',
    404: 'card not found',
  },
  codes: ['JAI_ALAI_CARD_NOT_FOUND'],
});

/** Route 17: a Jai Alai match's odds. */
export const jaiAlaiOddsOperation = operation({
  tags: [SPORT_TAG.jaialai],
  summary: 'Fetch Jai Alai odds',
  description:
    "A match's odds as section 2.8: event winner, match winner (moneyline, set spread, total sets), each set's moneyline, spread and total in points, and the season's outright.",
  errors: ODDS_ERRORS,
  codes: ['EVENT_NOT_FOUND', 'EVENT_OF_OTHER_SPORT'],
});
