import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { originsAndHostsSuite } from './suites/origins-and-hosts-suite.js';

originsAndHostsSuite(subjectOf(kitDocument, inProcess));
