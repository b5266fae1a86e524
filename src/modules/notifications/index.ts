/** In-app notifications: created by other modules in their transactions (`notify`), read by the person they are for. */
export { notify, onNotified, type CreatedNotification, type Note } from './notify.js';
export { notificationRoutes } from './routes.js';
