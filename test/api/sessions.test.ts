import { inProcess, kitDocument, overNodeHttp, subjectOf } from '../support/behaviour-subject.js';
import { sessionNameOverSocketSuite, sessionsSuite } from './suites/sessions-suite.js';

sessionsSuite(subjectOf(kitDocument, inProcess));
sessionNameOverSocketSuite(subjectOf(kitDocument, overNodeHttp));
