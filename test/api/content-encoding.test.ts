import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { contentEncodingSuite, universalContentEncodingSuite } from './suites/content-encoding-suite.js';

contentEncodingSuite(subjectOf(kitDocument, inProcess));
universalContentEncodingSuite(kitDocument);
