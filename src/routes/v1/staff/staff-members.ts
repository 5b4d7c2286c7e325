/**
 * Staff accounts (issue 22). The owner lists, invites and changes members (GET/POST
 * /v1/staff-members, PATCH /v1/staff-members/{id}, POST /v1/staff-members/{id}/invitation); a
 * member changes their own password (POST /v1/account/password), which ends their other sessions.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ChangePasswordBody, ChangeStaffMemberBody, InviteStaffMemberBody, StaffMemberSchema } from '#api/staff-member-schemas.ts';
import { ErrorSchema } from '#api/schemas.ts';
import { STAFF_MEMBER_MESSAGES } from '../../../domain/staff-members.ts';
import { conflict } from '../../../errors.ts';
import { changeOwnPassword, changeStaffMember, inviteStaffMember, reinviteStaffMember, staffMembers } from '../../../services/staff-members.service.ts';
import { IdParams, staffErrorResponses } from '../schemas.ts';

const OWNER_ONLY = 'Only the owner may call this: 403 for a member whose role is staff.';

const route: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/staff-members',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'listStaffMembers',
        summary: 'The staff accounts, oldest first',
        description: `${OWNER_ONLY} The owner's configured password (ADMIN_PASSWORD_HASH and the rest) is no account and is not listed.`,
        tags: ['staff'],
        response: { 200: Type.Object({ members: Type.Array(StaffMemberSchema) }), ...staffErrorResponses },
      },
    },
    async () => ({ members: await staffMembers(app.db) }),
  );

  app.post(
    '/staff-members',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'inviteStaffMember',
        summary: 'Add a member of staff and e-mail them an invitation',
        description: `${OWNER_ONLY} The invitation's link works once, for 48 hours, to set their password. 409 when an account has the address (in any letter case).`,
        tags: ['staff'],
        body: InviteStaffMemberBody,
        response: { 201: StaffMemberSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request, reply) => {
      const { name, email, role = 'staff' } = request.body;
      const member = await inviteStaffMember(app.db, { name, email, role }, app.mail);
      request.log.info({ memberId: member.id, role }, 'staff member invited');
      return reply.code(201).send(member);
    },
  );

  app.patch(
    '/staff-members/:id',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'changeStaffMember',
        summary: "Change a member's name or role, or disable or enable them",
        description: `${OWNER_ONLY} Disabling ends the member's sessions at once. A member cannot change their own role or disable themselves (409).`,
        tags: ['staff'],
        params: IdParams,
        body: ChangeStaffMemberBody,
        response: { 200: StaffMemberSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const member = await changeStaffMember(app.db, request.params.id, request.body, request.staff?.memberId ?? null, app.now());
      request.log.info({ memberId: member.id, change: Object.keys(request.body) }, 'staff member changed');
      return member;
    },
  );

  app.post(
    '/staff-members/:id/invitation',
    {
      preValidation: app.requireOwner,
      schema: {
        operationId: 'reinviteStaffMember',
        summary: 'E-mail a member a new invitation',
        description: `${OWNER_ONLY} For an invitation that expired, or a forgotten password: the earlier link stops working, and setting a password through the new one ends the member's sessions. 409 for a disabled member.`,
        tags: ['staff'],
        params: IdParams,
        response: { 200: StaffMemberSchema, 404: ErrorSchema, 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const member = await reinviteStaffMember(app.db, request.params.id, app.mail);
      request.log.info({ memberId: member.id }, 'staff member invited again');
      return member;
    },
  );

  app.post(
    '/account/password',
    {
      schema: {
        operationId: 'changeOwnPassword',
        summary: 'Change your own password',
        description:
          "For a member signed in with their e-mail: the session that asks stays signed in, every other session of theirs ends. The owner's configured password is changed with set-password instead (409).",
        tags: ['staff'],
        body: ChangePasswordBody,
        response: { 200: Type.Object({ endedSessions: Type.Integer({ minimum: 0 }) }), 409: ErrorSchema, ...staffErrorResponses },
      },
    },
    async (request) => {
      const memberId = request.staff?.memberId;
      const sessionIdHash = app.staffAuth.sessionIdHash(request);
      if (!memberId || !sessionIdHash) throw conflict(STAFF_MEMBER_MESSAGES.ownerPasswordHere);
      const result = await changeOwnPassword(app.db, { memberId, sessionIdHash }, request.body, app.now());
      request.log.info({ memberId, endedSessions: result.endedSessions }, 'staff password changed');
      return result;
    },
  );
};

export default route;
