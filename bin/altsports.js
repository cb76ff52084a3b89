#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader (docs/decisions.md, "Runtime").
import { register } from 'tsx/esm/api';

register();
// Before the app's modules load: src/http/tick-object-shape.ts says why it must come first.
const { keepTickObjectShape } = await import('../src/http/tick-object-shape.ts');
keepTickObjectShape();
await import('../src/cli/main.ts');
