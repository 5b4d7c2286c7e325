/** Form-encoded bodies, so the HTML forms work with JavaScript turned off. */
import fp from 'fastify-plugin';
import formbody from '@fastify/formbody';

export default fp(async (app) => {
  await app.register(formbody, { bodyLimit: app.config.bodyLimit });
}, { name: 'formbody', dependencies: ['config'] });
