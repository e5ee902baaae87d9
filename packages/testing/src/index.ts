export * from './database.js';
export * from './fixtures.js';
export * from './internal-caller.js';
export * from './redis.js';
export * from './expect-error.js';
export * from './fake-openai.js';
export * from './ports.js';
export * from './seed-items.js';
