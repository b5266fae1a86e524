/** Chatbots of applications and the conversations people have with them. */
export { chatbotRoutes } from './routes.js';
/** An application's deletion takes its chatbots, conversations and messages with it. */
export { deleteChatbotsOfApp } from './service.js';
