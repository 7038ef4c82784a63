/**
 * The editor helpers live in harness/editor.mjs, so `npm run screenshots` (scripts/, which may
 * not import from test/) drives the editor with the same steps as this suite.
 */
export * from '../../harness/editor.mjs';
