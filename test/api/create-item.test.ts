import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { createItemSuite } from './suites/create-item-suite.js';

createItemSuite(subjectOf(kitDocument, inProcess));
