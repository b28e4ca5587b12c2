import { postgresBackend, runConformance } from './index.js';

runConformance(postgresBackend);
