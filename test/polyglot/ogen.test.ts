/** The polyglot tier on ogen (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('ogen');
