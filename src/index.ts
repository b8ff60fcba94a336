// The package's public entry: the HTTP client for LAN users, and the app factory.
export * from './client.js';
export { buildApp } from './server/app.js';
