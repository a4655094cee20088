/** The polyglot tier on openapi-generator-java (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('openapi-generator-java');
