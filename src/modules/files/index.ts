export { fileRoutes, signedFileRoutes } from './routes.js';
