// A Dredd hook file that ends Dredd's process as it loads when PETSTORE_TEST_EXIT is set: a stand-in
// for a crash of Dredd's, for test/contract/dredd-worker.test.ts.
'use strict';

if (process.env.PETSTORE_TEST_EXIT) process.exit(Number(process.env.PETSTORE_TEST_EXIT));
