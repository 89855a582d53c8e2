import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { referencesSuite } from './suites/references-suite.js';

referencesSuite(subjectOf(kitDocument, inProcess));
