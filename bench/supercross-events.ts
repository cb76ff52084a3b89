import type { FeedDocument } from '../src/ingest/feed-schema.ts';

/** When the bench feeds are stamped (every row updatedAt, every event's dates). */
export const BENCH_T = '2026-05-01T00:00:00.000Z';

/**
 * The Supercross tour, riders and events the bench feeds hang their rows on: `events` events of one
 * status, ids `spr:<uuid(e)>`, and riders `rider-0` to `rider-(riders - 1)`.
 */
export function supercrossEvents(
  events: number,
  riders: number,
  eventStatus: 'LIVE' | 'COMPLETED',
  uuid: (e: number) => string,
): Pick<FeedDocument, 'tours' | 'athletes' | 'events'> {
  return {
    tours: [{ id: 'bench-tour', competition: 'spr', name: 'Bench Supercross' }],
    athletes: Array.from({ length: riders }, (_, i) => ({ id: `rider-${i}`, firstName: 'Rider', lastName: `${i}` })),
    events: Array.from({ length: events }, (_, e) => ({
      id: `spr:${uuid(e)}`,
      competition: 'spr',
      tourId: 'bench-tour',
      name: `Round ${e + 1}`,
      startDate: BENCH_T,
      endDate: BENCH_T,
      eventNumber: e + 1,
      eventStatus,
    })),
  };
}
