import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { adminStoreSuite } from './suites/admin-store-suite.js';

adminStoreSuite(subjectOf(kitDocument, inProcess));
