import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { corsSuite } from './suites/cors-suite.js';

corsSuite(subjectOf(kitDocument, inProcess));
