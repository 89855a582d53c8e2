import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { prismOracleSuite } from './suites/prism-oracle-suite.js';

prismOracleSuite(subjectOf(kitDocument, inProcess));
