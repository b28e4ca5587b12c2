import { runConformance, sqliteBackend } from './index.js';

runConformance(sqliteBackend);
