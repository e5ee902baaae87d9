export { loadDashboardConfig, type DashboardConfig } from './config.js';
export { startDashboard } from './server.js';
