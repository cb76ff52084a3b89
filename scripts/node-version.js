// `npm test` starts here, before any TypeScript: on a Node that cannot run it (older than 22.18), one
// line saying what to install rather than a module failing to load. Plain JavaScript for that reason.
// npm scripts run on the Node 24 that `npm ci` installs into node_modules, so this speaks only when it
// was left out (`npm ci --omit=optional`, or a platform it has no build for).
if (!process.features.typescript) {
  console.error(
    `altsports needs Node.js 24 (or 22.18 and later); this is Node ${process.versions.node}. ` +
      'Install Node 24 LTS, or run `npm ci`, which installs it into node_modules.',
  );
  process.exit(1);
}
