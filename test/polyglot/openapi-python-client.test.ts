/** The polyglot tier on openapi-python-client (support/checks.ts; README.md). */
import { polyglotTests } from './support/checks.ts';

polyglotTests('openapi-python-client');
