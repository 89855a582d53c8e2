import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { listItemsSuite } from './suites/list-items-suite.js';

listItemsSuite(subjectOf(kitDocument, inProcess));
