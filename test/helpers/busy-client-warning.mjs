// Loaded into every process of the PostgreSQL run (scripts/test-postgres.mjs, NODE_OPTIONS):
// pg warns when a query is issued on a client still running one ("Calling client.query() when
// the client is already executing a query"), which its next major version refuses. Here that
// warning fails the run instead of scrolling by.
process.on('warning', (warning) => {
  if (warning.name === 'DeprecationWarning' && /already executing a query/.test(warning.message)) {
    throw new Error(`a PostgreSQL client was given a query while busy: ${warning.message}\n${warning.stack ?? ''}`);
  }
});
