import { kitDocument } from '../support/behaviour-subject.js';
import { prismFallbackSuite } from './suites/prism-fallback-suite.js';

prismFallbackSuite(kitDocument);
