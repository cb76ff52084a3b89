import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layOutDemo, newChunk, PRE_EVENT_PRICES } from '../../src/demo/generate.ts';

const NOW = new Date('2026-11-21T18:00:00Z');
const STEP_MS = 90_000;

/** The live heat's running scores (athlete id -> score) of the live surfing event at `clock`. */
function liveScores(clock: number): { heatId: string | undefined; scores: Map<string, number> } {
  const [wsl] = layOutDemo({ now: NOW, competitions: ['wsl'] });
  assert.ok(wsl?.live, 'the demo has a live surfing event');
  wsl.replay();
  const seq = wsl.events.findIndex((event) => event.uuid === wsl.live?.uuid);
  const chunk = newChunk();
  wsl.materialiseAt(seq, wsl.viewsAt(clock)[seq]!, chunk, PRE_EVENT_PRICES);
  const heatId = chunk.heats.find((heat) => heat.heatStatus === 'LIVE')?.id;
  const scores = new Map<string, number>();
  for (const entry of chunk.heatEntries)
    if (entry.heatId === heatId && typeof entry.heatScore === 'number') scores.set(entry.athleteId, entry.heatScore);
  return { heatId, scores };
}

test('judged scores in a live heat come as waves are scored: in jumps, at moments of each surfer, never backwards', () => {
  const samples = Array.from({ length: 24 }, (_, i) => liveScores(NOW.getTime() + i * STEP_MS));
  const heatId = samples[0]?.heatId;
  assert.ok(heatId, 'a heat is live at load');
  const inHeat = samples.filter((sample) => sample.heatId === heatId);
  assert.ok(inHeat.length >= 6, 'the heat stays live for a few samples');
  let moves = 0;
  let stills = 0;
  for (let i = 1; i < inHeat.length; i++) {
    const before = inHeat[i - 1]!.scores;
    const after = inHeat[i]!.scores;
    const deltas = [...after].map(([athlete, score]) => score - (before.get(athlete) ?? 0));
    for (const delta of deltas) assert.ok(delta >= 0, 'a running score never goes down');
    moves += deltas.filter((delta) => delta > 0).length;
    stills += deltas.filter((delta) => delta === 0).length;
    const moved = deltas.filter((delta) => delta > 0);
    if (moved.length > 1) assert.ok(new Set(moved).size > 1, `not in lock-step: ${moved.join(', ')}`);
  }
  assert.ok(moves > 0, 'scores come in');
  assert.ok(stills > 0, 'with lulls between waves');
});
