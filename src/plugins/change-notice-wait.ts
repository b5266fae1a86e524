import fp from 'fastify-plugin';
import { noticesInFlight } from '../shared/change-notices.js';

/**
 * Holds a response until the change notices sent so far have reached the server's other processes
 * (`shared/change-notices.ts`): a client that changes a field and then writes through another
 * connection must find the change in whichever process serves it. Costs nothing when no notice is
 * on its way (always, with one process).
 */
export const changeNoticeWaitPlugin = fp(async (app) => {
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const waiting = noticesInFlight();
    if (!waiting) return done(null, payload);
    waiting.then(
      () => done(null, payload),
      () => done(null, payload),
    );
  });
});
