/** The polyglot tier on oapi-codegen (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('oapi-codegen');
