/**
 * POST /v1/bookings/{id}/completion: complete a job with its final amount and payment (issue 21),
 * and POST /v1/bookings/{id}/payment: record the payment of a job completed unpaid. Both name the
 * version the staff member saw (compare-and-set, 409 with the booking as it is now otherwise) and
 * answer with the booking, its history and its receipt.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { BookingSchema, BookingWithHistorySchema, ErrorSchema } from '#api/schemas.ts';
import { MAX_AMOUNT_CENTS, MAX_REASON_LENGTH, PAYMENT_METHODS } from '../../../domain/completion.ts';
import { completeBooking, recordPayment, type CompletionResult } from '../../../services/completion.service.ts';
import { StaleBookingError } from '../../../services/staff-bookings.service.ts';
import { IdParams, staffErrorResponses, toBookingDto, toStatusChangeDto } from '../schemas.ts';

export const PaymentMethodSchema = Type.Union([Type.Literal('cash'), Type.Literal('bank-transfer'), Type.Literal('card'), Type.Literal('other')], {
  description: 'How the customer paid',
});
// The schema names every method of the one list (a compile error otherwise).
export const SCHEMA_NAMES_EVERY_METHOD: [(typeof PAYMENT_METHODS)[number]] extends [Static<typeof PaymentMethodSchema>] ? true : never = true;

export const ReceiptSchema = Type.Object({
  kind: Type.Union([Type.Literal('tax-invoice'), Type.Literal('receipt')], { description: 'A tax invoice when GST_NUMBER was set at completion' }),
  title: Type.String(),
  invoiceNumber: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'From the gapless sequence; null on a plain receipt' }),
  reference: Type.String(),
  business: Type.Object({ name: Type.String(), address: Type.String(), phone: Type.String(), email: Type.String(), gstNumber: Type.Union([Type.String(), Type.Null()]) }),
  customer: Type.Object({ name: Type.String() }),
  date: Type.String({ format: 'date', description: 'The completion date in Auckland' }),
  dateText: Type.String(),
  description: Type.String(),
  lines: Type.Array(
    Type.Object({
      description: Type.String(),
      quantity: Type.Integer({ minimum: 1 }),
      amountCents: Type.Integer({ description: 'GST inclusive; negative for the first-service discount' }),
    }),
    { description: "Each vehicle's package and add-ons (issue 41), then the discount and a price adjustment; with the travel fee they add up to quotedCents" },
  ),
  quotedCents: Type.Integer({ description: "The booking's total when it was completed" }),
  travelFeeCents: Type.Integer({ minimum: 0, description: 'The on-site travel fee within the total, GST inclusive (issue 40); 0 for none' }),
  amountCents: Type.Integer({ description: 'What was charged, GST inclusive' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the amount differs from the total' }),
  gstCents: Type.Union([Type.Integer(), Type.Null()], { description: 'round(amount × 3 / 23) on a tax invoice; null otherwise' }),
  paid: Type.Boolean(),
  paymentMethod: Type.Union([PaymentMethodSchema, Type.Null()]),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  paidText: Type.Union([Type.String(), Type.Null()]),
});

const CompletionAnswer = Type.Object({ ...BookingWithHistorySchema.properties, receipt: ReceiptSchema });

const responses = {
  200: CompletionAnswer,
  404: ErrorSchema,
  409: Type.Object({ message: Type.String(), errors: ErrorSchema.properties.errors, booking: Type.Optional(BookingSchema) }),
  ...staffErrorResponses,
} as const;

const Version = Type.Integer({ minimum: 1, description: 'The version of the booking the change is based on' });
const PaidAt = Type.String({ format: 'date-time', description: 'When it was paid (default: now); not in the future' });

const CompletionBody = Type.Object(
  {
    version: Version,
    amountCents: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT_CENTS, description: "The final amount in cents, GST inclusive (default: the booking's total)" })),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: MAX_REASON_LENGTH }), Type.Null()], { description: 'Required when the amount differs from the total' })),
    paid: Type.Boolean({ description: 'false: completed unpaid (record the payment later)' }),
    paymentMethod: Type.Optional(Type.Union([PaymentMethodSchema, Type.Null()], { description: 'Required when paid; absent or null when not' })),
    paidAt: Type.Optional(PaidAt),
  },
  { additionalProperties: false },
);

const PaymentBody = Type.Object({ version: Version, paymentMethod: PaymentMethodSchema, paidAt: Type.Optional(PaidAt) }, { additionalProperties: false });

function answer(result: CompletionResult) {
  return { booking: toBookingDto(result.booking), history: result.history.map(toStatusChangeDto), receipt: result.receipt };
}

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/bookings/:id/completion',
    {
      schema: {
        operationId: 'completeBooking',
        summary: 'Complete a job: its final amount, the payment (or unpaid), the receipt e-mail and, with REVIEW_URL, the review request',
        tags: ['staff'],
        params: IdParams,
        body: CompletionBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const body = request.body;
      try {
        const result = await completeBooking(
          app.db,
          {
            id: request.params.id,
            version: body.version,
            amountCents: body.amountCents,
            reason: body.reason,
            paid: body.paid,
            paymentMethod: body.paymentMethod,
            paidAt: body.paidAt ? new Date(body.paidAt) : undefined,
            by: request.staff?.name ?? 'Staff',
          },
          app.mail,
        );
        request.log.info({ bookingId: result.booking.id, invoiceNumber: result.receipt.invoiceNumber, paid: result.receipt.paid }, 'booking completed');
        return answer(result);
      } catch (error) {
        if (!(error instanceof StaleBookingError)) throw error;
        return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
      }
    },
  );

  app.post(
    '/bookings/:id/payment',
    {
      schema: {
        operationId: 'recordBookingPayment',
        summary: 'Record the payment of a job completed unpaid (the customer receives the receipt again, paid)',
        tags: ['staff'],
        params: IdParams,
        body: PaymentBody,
        response: responses,
      },
    },
    async (request, reply) => {
      try {
        const result = await recordPayment(
          app.db,
          {
            id: request.params.id,
            version: request.body.version,
            paymentMethod: request.body.paymentMethod,
            paidAt: request.body.paidAt ? new Date(request.body.paidAt) : undefined,
            by: request.staff?.name ?? 'Staff',
          },
          app.mail,
        );
        request.log.info({ bookingId: result.booking.id, method: request.body.paymentMethod }, 'payment recorded');
        return answer(result);
      } catch (error) {
        if (!(error instanceof StaleBookingError)) throw error;
        return reply.code(409).send({ message: error.message, errors: [], booking: toBookingDto(error.current) });
      }
    },
  );
};

export default route;
