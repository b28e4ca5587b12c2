export { BatonSaver, type BatonSaverOptions } from './baton-saver.js';
