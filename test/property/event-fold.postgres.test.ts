import { it } from 'vitest';
import { postgresStore } from '../helpers/postgres.js';
import { checkEventFoldLaws } from './event-fold.property.js';

it('event fold laws hold on PostgreSQL', () => checkEventFoldLaws(() => postgresStore()), 300_000);
