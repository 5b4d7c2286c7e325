/**
 * /booking/receipt/{token}: a completed booking's receipt (or tax invoice), printable, opened with
 * the manage link's token (issue 21); also at /booking/manage/{token}/receipt. A booking that is
 * not completed has no receipt: 404, as for an unknown token. The link keeps working after the
 * appointment (the manage page's does not). Like the manage page, every answer
 * is `no-store` with `Referrer-Policy: same-origin`, and the token never reaches a log line.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ReceiptState } from '../../domain/completion.ts';
import { receiptOfBooking } from '../../services/completion.service.ts';
import { findBookingByManageHash } from '../../db/bookings.repository.ts';
import { hashManageToken } from '../../db/manage-link.repository.ts';
import { isManageTokenShape } from '../../domain/manage-link.ts';
import { RECEIPT_PAGE_PATH } from '#client/routes.ts';

const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
    return payload;
  });

  async function receiptPage(token: string, reply: FastifyReply) {
    // Unlike the manage page, the receipt stays open after the appointment (it is why it exists).
    const booking = isManageTokenShape(token) ? await findBookingByManageHash(app.db, hashManageToken(token)) : undefined;
    const receipt = booking && (await receiptOfBooking(app.db, booking, app.config.business));
    if (!receipt) return reply.page({ status: 404 });
    const state: ReceiptState = { receipt };
    return reply.page({ path: RECEIPT_PAGE_PATH, status: 200, state, cacheKey: false });
  }

  app.get('/booking/receipt/:token', { schema: { hide: true, params: TokenParams } }, (request, reply) => receiptPage(request.params.token, reply));
  app.get('/booking/manage/:token/receipt', { schema: { hide: true, params: TokenParams } }, (request, reply) => receiptPage(request.params.token, reply));
};

export default route;
