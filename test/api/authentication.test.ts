import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { authenticationSuite } from './suites/authentication-suite.js';

authenticationSuite(subjectOf(kitDocument, inProcess));
