/**
 * A handler's return value is checked against its response schema when the project type-checks
 * (`npx tsc --noEmit` covers the tests). Each `@ts-expect-error` below marks a broken handler that the
 * compiler must refuse: should the check stop working (a response typed `unknown` again, say by
 * `Type.Ref('Event')`), the directive itself becomes the error, "Unused '@ts-expect-error' directive".
 * At run time, the references stay plain `$ref`s, which keeps the shapes named in the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { errorResponses, PUBLIC_ERRORS } from '../../src/http/schemas/common.ts';
import { Ref } from '../../src/shapes/common.ts';
import { Event, type EventListItem } from '../../src/shapes/events.ts';
import { SportListingItem } from '../../src/shapes/sports.ts';

const sport: SportListingItem = {
  key: 'wsl',
  referenceId: 1,
  name: 'World Surf League',
  supportedMarkets: ['eventWinner'],
  sportKey: 'surfing',
  sportName: 'Surfing',
  resultsFormat: 'judged-heat',
};
const { sportName: _sportName, ...withoutSportName } = sport;
/** An event whose rounds' heats are not heats. */
type WrongHeats = Omit<Event, 'rounds'> & { rounds: Array<Omit<Event['rounds'][number], 'heats'> & { heats: number }> };

/** Routes as the route plugins declare them; never run, only type-checked. */
function routes() {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  const sports = { response: { 200: Type.Array(Ref(SportListingItem)), ...errorResponses(PUBLIC_ERRORS) } };
  app.get('/sports', { schema: sports }, async () => [sport]);
  // @ts-expect-error a field of the shape is missing (sportName)
  app.get('/sports', { schema: sports }, async () => [withoutSportName]);
  // @ts-expect-error a field has the wrong type (referenceId as text)
  app.get('/sports', { schema: sports }, async () => [{ ...sport, referenceId: '1' }]);
  // @ts-expect-error a value outside the shape's enumeration
  app.get('/sports', { schema: sports }, async () => [{ ...sport, supportedMarkets: ['everything'] }]);

  const event = { response: { 200: Ref(Event), ...errorResponses({ ...PUBLIC_ERRORS, 404: 'event not found' }) } };
  // @ts-expect-error an event list item is not an event document
  app.get('/events/:eventId', { schema: event }, async () => ({}) as EventListItem);
  // @ts-expect-error a nested shape, referred to by name, is checked too (a round's heats)
  app.get('/events/:eventId', { schema: event }, async () => ({}) as WrongHeats);
  return app;
}

test('references to named shapes are plain $refs, with the options given', () => {
  assert.equal(typeof routes, 'function');
  assert.deepEqual(JSON.parse(JSON.stringify(Ref(Event))), { $ref: 'Event' });
  assert.deepEqual(JSON.parse(JSON.stringify(errorResponses({ 404: 'event not found' }))), {
    404: { $ref: 'ServerErrorResponse', description: 'event not found' },
  });
  assert.throws(() => Ref(Type.Object({})), /needs an \$id/);
});
