/** The polyglot tier on openapi-generator-go (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('openapi-generator-go');
