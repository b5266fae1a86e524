/** In-app notifications: created by other modules in their transactions (`notify`), read by the person they are for, mailed to them when SMTP is configured. */
export { notify, type CreatedNotification, type Delivery, type Note } from './notify.js';
export { NOTIFICATION_MAIL_JOB, notificationMailHandler, type NotificationMailDeps } from './mail-job.js';
export { notificationRoutes } from './routes.js';
