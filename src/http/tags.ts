import type { SportRoute } from '../read/sport-events.ts';

/**
 * The groups of the OpenAPI document and the docs page, in the order of the specification's table of
 * routes (1 the catalogue, 2-3 events, 4-5 results, 6-7 odds, 8-17 one group per sport, 18-19 futures),
 * then what altsports adds. Swagger UI shows the groups in this order.
 */
export const OPENAPI_TAGS = [
  { name: 'sports', description: 'route 1: the competition catalogue' },
  { name: 'events', description: 'routes 2 and 3: events with rounds, heats and teams' },
  {
    name: 'results',
    description: 'routes 4 and 5: participants and heat scores, with the derived fields of section 2.5',
  },
  { name: 'odds', description: "routes 6 and 7: an event's odds by odd type, same game parlays; every market at once" },
  { name: 'curling (gsoc)', description: 'routes 8 and 9: Grand Slam of Curling matches and odds' },
  { name: 'table tennis (mltt)', description: 'routes 10 and 11: Major League Table Tennis matches and odds' },
  { name: 'box lacrosse (nll)', description: 'routes 12 and 13: National Lacrosse League games and odds' },
  { name: '3-on-3 hockey (3ice)', description: 'routes 14 and 15: 3ICE games and the knockout bracket' },
  { name: 'Jai Alai (jaialai)', description: 'routes 16 and 17: Jai Alai cards and odds' },
  { name: 'futures', description: 'routes 18 and 19: season-long futures and their odds' },
  {
    name: 'stream',
    description: 'changes pushed as server-sent events, read after a change id without the stream, and feed health',
  },
  { name: 'usage', description: "the calling key's requests against its limits" },
  { name: 'admin', description: 'operator input (admin key)' },
  { name: 'operations', description: 'health, metrics and the interface description' },
] as const;

export type Tag = (typeof OPENAPI_TAGS)[number]['name'];

/** The group of a sport-specific competition's routes (8 to 17). */
export const SPORT_TAG: Record<SportRoute, Tag> = {
  gsoc: 'curling (gsoc)',
  mltt: 'table tennis (mltt)',
  nll: 'box lacrosse (nll)',
  '3ice': '3-on-3 hockey (3ice)',
  jaialai: 'Jai Alai (jaialai)',
};
