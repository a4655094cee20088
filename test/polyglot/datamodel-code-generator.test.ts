/** The polyglot tier on datamodel-code-generator (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('datamodel-code-generator');
