export { LiveProvider, useLive, useLiveEvents, useLiveTick } from './live-provider.js';
