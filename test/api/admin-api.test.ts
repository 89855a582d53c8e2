import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { adminApiSuite } from './suites/admin-api-suite.js';

adminApiSuite(subjectOf(kitDocument, inProcess));
