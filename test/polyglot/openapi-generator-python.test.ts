/** The polyglot tier on openapi-generator-python (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('openapi-generator-python');
