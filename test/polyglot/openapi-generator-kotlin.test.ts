/** The polyglot tier on openapi-generator-kotlin (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('openapi-generator-kotlin');
