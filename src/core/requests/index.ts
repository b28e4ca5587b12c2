export * from './request-text.js';
export * from './menu-pick.js';
