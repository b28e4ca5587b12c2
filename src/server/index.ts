export { createApp, type AppOptions } from './app.js';
export { ensureToken, readToken, tokenPath } from '../config/token-file.js';
export { resolveServeOptions, isLoopback, type ServeOptions } from './serve-options.js';
export { startServer, type RunningServer } from './serve.js';
