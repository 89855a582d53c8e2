import { kitDocument } from '../support/behaviour-subject.js';
import { responseValidationSuite } from './suites/response-validation-suite.js';

responseValidationSuite(kitDocument);
