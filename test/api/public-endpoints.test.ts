import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { publicEndpointsSuite } from './suites/public-endpoints-suite.js';

publicEndpointsSuite(subjectOf(kitDocument, inProcess));
