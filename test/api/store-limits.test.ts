import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { storeLimitsSuite } from './suites/store-limits-suite.js';

storeLimitsSuite(subjectOf(kitDocument, inProcess));
