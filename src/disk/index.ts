export * from './atomic-file.js';
export * from './disk-mirror.js';
export * from './read-json.js';
export * from './run-documents.js';
export * from './run-import.js';
export * from './run-paths.js';
export * from './run-reader.js';
export * from './run-scan.js';
