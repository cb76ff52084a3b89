import { type Static, Type } from 'typebox';
import { SPORTS } from '../domain/competitions.ts';
import { EVENT_STATUSES, LAP_STATUSES, PARTICIPANT_STATUSES } from '../domain/enumerations.ts';
import { CompetitionKey, Nullable, Ref, StringEnum } from './common.ts';

/** The documents of routes 4 and 5 (participants and heat scores), and the athlete and team inside them. */

const Score = (description: string) => Nullable(Type.Number({ description }));

/** Team inside a score row or participant (section 2.4); `isHomeTeam` only where a rule sets it. */
export const ParticipantTeam = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.Integer(),
    name: Type.String(),
    isHomeTeam: Type.Optional(Type.Boolean({ description: 'present only in bull-riding team games' })),
  },
  { $id: 'ParticipantTeam', title: 'ParticipantTeam' },
);
export type ParticipantTeam = Static<typeof ParticipantTeam>;

/** Athlete inside a score row or participant (section 2.4); `weightClass` for combat sports only. */
export const Athlete = Type.Object(
  {
    id: Type.String(),
    referenceId: Type.Integer(),
    firstName: Type.String(),
    middleName: Type.String(),
    lastName: Type.String(),
    nationality: Nullable(Type.String()),
    stance: Nullable(Type.String({ description: 'meaningful for wsl only' })),
    team: Ref(ParticipantTeam, {
      description: 'the Team of section 2.4; an athlete with no team has the empty one: id "", referenceId 0, name ""',
    }),
    hometown: Nullable(Type.String()),
    height: Nullable(Type.String({ description: 'centimetres' })),
    weight: Nullable(Type.String({ description: 'kilograms' })),
    gender: Nullable(Type.String()),
    weightClass: Type.Optional(Nullable(Type.String({ description: 'combat sports only' }))),
    dob: Nullable(Type.String({ description: 'date of birth, ISO 8601 date-time' })),
    providerId: Nullable(Type.String()),
  },
  { $id: 'Athlete', title: 'Athlete' },
);
export type Athlete = Static<typeof Athlete>;

export const HeatScoreRow = Type.Object(
  {
    id: Type.String({ description: 'score id' }),
    numericSportId: Type.Integer({ description: 'numeric id of the sport category' }),
    sportKey: StringEnum(SPORTS.map((s) => s.key)),
    sportName: Type.String(),
    numericCompetitionId: Type.Integer(),
    competitionKey: CompetitionKey,
    competitionName: Type.String(),
    referenceId: Type.Integer(),
    heatStatus: StringEnum(EVENT_STATUSES),
    eventId: Type.String({ description: '<sport_key>:<uuid>' }),
    numericEventId: Type.Integer(),
    heatId: Type.String(),
    athleteRoundSeed: Nullable(Type.Integer()),
    athleteRoundRank: Nullable(
      Type.Integer({
        description: 'derived: see section 2.5 (combat, drift, drag racing and bull riding have their own rules)',
      }),
    ),
    winBy: Type.Optional(
      Nullable(
        Type.String({
          description: 'how the fight was decided (combat sports alone), null until completed with a result',
        }),
      ),
    ),
    athleteHeatScore: Score('null until scored'),
    athleteLapTime: Score('seconds'),
    athletePenaltyTime: Type.Number({ description: 'seconds' }),
    athleteJokerLapTime: Type.Number({ description: 'seconds' }),
    athleteJokerLap: Type.Integer(),
    athleteLapStatus: StringEnum(LAP_STATUSES),
    totalLaps: Nullable(Type.Integer()),
    athleteLapsLed: Nullable(
      Type.Integer({
        description: 'laps led, counting lap 1; null when the athlete did not race or no per-lap positions exist',
      }),
    ),
    athleteFastestLapCount: Nullable(
      Type.Integer({
        description:
          'laps on which the athlete was quickest of the field, lap 1 excluded; final only when the heat is completed',
      }),
    ),
    athleteFastestLapSeconds: Score(
      'own quickest lap; lap 1 excluded for supercross and motocross-style racing, included for hlrs',
    ),
    athleteFastestLapNo: Nullable(Type.Integer()),
    roundScore: Score('sls: sum of the three highest of the better run and the tricks, at most 30'),
    lineScore1: Score('sls run score, out of 10'),
    lineScore2: Score('sls run score, out of 10'),
    trick1Score: Score('sls trick, out of 10'),
    trick2Score: Score('sls trick, out of 10'),
    trick3Score: Score('sls trick, out of 10'),
    trick4Score: Score('sls trick, out of 10'),
    trick5Score: Score('sls trick, out of 10'),
    trick6Score: Score('sls trick, out of 10'),
    riderScore: Score('pbr rider score; the ride qualified when above 0'),
    bullScore: Score('pbr bull score'),
    athlete: Ref(Athlete),
    isTeamEvent: Type.Optional(Type.Boolean({ description: 'true for a team game (bull riding, pbr, alone)' })),
    eventType: Type.Optional(
      Nullable(Type.String({ description: 'display text of a team game (bull riding, pbr, alone)' })),
    ),
    updatedAt: Type.String({
      format: 'date-time',
      description: "later of the score's date and the heat's date (its result and lap records included)",
    }),
  },
  { $id: 'HeatScoreRow', title: 'HeatScoreRow' },
);
/** A heat score row (section 2.5). Optional fields are absent outside the formats that have them. */
export type HeatScoreRow = Static<typeof HeatScoreRow>;

export const Participant = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: '<sport_key>:<uuid>' }),
    seedNo: Nullable(Type.Integer()),
    status: StringEnum(PARTICIPANT_STATUSES),
    athlete: Ref(Athlete),
  },
  { $id: 'Participant', title: 'Participant' },
);
export type Participant = Static<typeof Participant>;

/** Schemas referenced by $ref, registered once with Fastify (and so named in the OpenAPI document). */
export const RESULTS_SHARED_SCHEMAS = [ParticipantTeam, Athlete, HeatScoreRow, Participant];
