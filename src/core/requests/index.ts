export * from './request-text.js';
