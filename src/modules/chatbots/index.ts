/** Chatbots of applications and the conversations people have with them. */
export { chatbotRoutes } from './routes.js';
