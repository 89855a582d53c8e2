import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { faultsSuite } from './suites/faults-suite.js';

faultsSuite(subjectOf(kitDocument, inProcess));
