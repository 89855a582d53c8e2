import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { readItemSuite } from './suites/read-item-suite.js';

readItemSuite(subjectOf(kitDocument, inProcess));
