import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { seededDataSuite } from './suites/seeded-data-suite.js';

seededDataSuite(subjectOf(kitDocument, inProcess));
