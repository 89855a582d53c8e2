import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { preferHeaderSuite } from './suites/prefer-header-suite.js';

preferHeaderSuite(subjectOf(kitDocument, inProcess));
