import { kitDocument, overNodeHttp, subjectOf } from '../support/behaviour-subject.js';
import { unspecifiedBehaviourSuite } from './suites/unspecified-behaviour-suite.js';

unspecifiedBehaviourSuite(subjectOf(kitDocument, overNodeHttp));
