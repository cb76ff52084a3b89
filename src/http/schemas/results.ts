import { Type } from 'typebox';
import { operation, PUBLIC_ERRORS } from './common.ts';

export const HeatParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
  heatId: Type.String({ maxLength: 200, description: 'the heat id from the event document' }),
});

/** Route 4: an event's athletes. */
export const participantsOperation = operation({
  tags: ['results'],
  summary: 'Fetch event participants',
  description:
    "The athletes entered in the event, by seed (unseeded last). 400 for competitions whose entrants are teams: read the event's teams instead.",
  errors: { ...PUBLIC_ERRORS, 400: 'participants not available for this event', 404: 'event not found' },
  codes: ['EVENT_NOT_FOUND', 'PARTICIPANTS_UNAVAILABLE'],
});

/** Route 5: a heat's score rows. */
export const heatScoresOperation = operation({
  tags: ['results'],
  summary: 'Fetch heat scores',
  description:
    "The heat's score rows, ordered by rank then seed (nulls last). Ranks, win methods, lap statistics, the skateboarding round score and updatedAt are derived from the stored facts as section 2.5 of the specification says.",
  errors: { ...PUBLIC_ERRORS, 404: 'event or heat not found, or the heat is not in that event' },
  codes: ['EVENT_NOT_FOUND', 'HEAT_NOT_FOUND'],
});
