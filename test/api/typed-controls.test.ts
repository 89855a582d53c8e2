import { inProcess, kitDocument, subjectOf } from '../support/behaviour-subject.js';
import { typedControlsSuite } from './suites/typed-controls-suite.js';

typedControlsSuite(subjectOf(kitDocument, inProcess));
