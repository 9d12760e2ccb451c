import manifest from '../package.json';

/** The package version, reported to clients in the initialize handshake (inlined by the bundler). */
export const SERVER_VERSION: string = manifest.version;
