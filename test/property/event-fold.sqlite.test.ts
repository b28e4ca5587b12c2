import { it } from 'vitest';
import { sqliteStore } from '../helpers/service.js';
import { checkEventFoldLaws } from './event-fold.property.js';

it('event fold laws hold on SQLite', () => checkEventFoldLaws(sqliteStore), 300_000);
