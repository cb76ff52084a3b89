/**
 * Prices a same game parlay: the favourite of an upcoming event to win, and the same rider on the
 * podium. Then tries two riders to win the same event, which the server refuses with a 422.
 *
 *   node --import tsx examples/price-parlay.ts [--event ID]
 *
 * The two legs are not independent (a winner is always on the podium), so the parlay is priced from
 * their joint probability, not from the product of their odds: compare the two in the output.
 */
import { parseArgs } from 'node:util';
import { AltsportsApiError, createClient, type EventListItem } from '@altsports/client';

const { values: flags } = parseArgs({ options: { event: { type: 'string' } } });

const api = createClient({
  baseUrl: process.env.ALTSPORTS_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.ALTSPORTS_KEY ?? 'altsports-demo-key',
});

const percent = (p: number) => `${p.toFixed(2)}%`;
const american = (a: number) => (a > 0 ? `+${a}` : String(a));

/**
 * An upcoming event of a competition offering both markets (or --event), its favourite to win (the open
 * winner outcome with the highest probability), the runner-up, and the favourite's podium outcome.
 */
async function pickLegs() {
  const offering = new Set(
    (await api.sports())
      .filter((s) => s.supportedMarkets.includes('eventWinner') && s.supportedMarkets.includes('podiums'))
      .map((s) => s.key),
  );
  const upcoming: EventListItem[] = await api.events({ eventStatus: ['NEXT', 'UPCOMING'] });
  for (const event of upcoming.filter((e) => (flags.event ? e.id === flags.event : offering.has(e.competition)))) {
    const winners = (await api.odds(event.id, 'eventWinner')).eventWinner
      .filter((o) => o.status === 'OPEN')
      .sort((a, b) => b.probability - a.probability);
    const [favourite, runnerUp] = winners;
    if (!favourite?.athlete || !runnerUp?.athlete) continue;
    const podium = (await api.odds(event.id, 'podiums')).podiums.find(
      (o) => o.status === 'OPEN' && o.athlete?.id === favourite.athlete?.id,
    );
    if (podium) return { event, favourite, runnerUp, podium };
  }
  return undefined;
}

const picked = await pickLegs();
if (!picked) {
  console.error(
    flags.event
      ? `${flags.event}: not an upcoming event with open eventWinner and podiums odds`
      : 'No upcoming event with open eventWinner and podiums odds',
  );
  process.exit(1);
}
const { event, favourite, runnerUp, podium } = picked;
const name = (odd: typeof favourite) => `${odd.athlete?.firstName} ${odd.athlete?.lastName}`;

console.log(`${event.name} (${event.id}), ${event.competition}, starts ${event.startDate.slice(0, 10)}\n`);
const parlay = await api.sgp(event.id, [favourite.id, podium.id]);
console.log('Legs');
for (const leg of parlay.legs)
  console.log(`  ${leg.selection.padEnd(44)} ${percent(leg.probability).padStart(7)}  odds ${leg.odds}`);
console.log(
  `Independent product   ${percent(parlay.independentProbability)}  (if the legs had nothing to do with each other)`,
);
console.log(`Joint probability     ${percent(parlay.probability)}  = ${(parlay.probability / 100).toFixed(4)}`);
console.log(`Correlation factor    ${parlay.correlationFactor}  (above 1: the legs tend to win together)`);
console.log(`Parlay odds           ${parlay.odds} decimal, ${american(parlay.americanOdds)} American`);

// Two different winners of one event cannot both happen: the server answers 422 and names the legs.
console.log(`\nContradictory legs: ${name(favourite)} wins + ${name(runnerUp)} wins`);
try {
  await api.sgp(event.id, [favourite.id, runnerUp.id]);
  console.error('  unexpectedly priced');
  process.exit(1);
} catch (error) {
  if (!(error instanceof AltsportsApiError) || error.status !== 422) throw error;
  console.log(`  ${error.status}: ${error.serverMessage}`);
  console.log(`  conflicting odd ids: ${(error.metadata.conflictingOddIds as string[] | undefined)?.join(', ')}`);
}
