#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's loader (docs/decisions.md, "Runtime").
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
