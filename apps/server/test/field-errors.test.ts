/**
 * Error bodies name the fields at fault (`fields`: path → message), so a form can show each message on its field:
 * schema validation of the body and query, and refusals of the services about one field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHANNEL_NAME_MAX } from '@greenroom/contracts/api/channels';
import { errorBodySchema } from '@greenroom/contracts/errors';
import { errorResponses } from '../src/lib/http';
import { fieldErrorsOf } from '../src/plugins/errors';
import { createTestApp, type TestApp } from './helper';

let t: TestApp;

const nestedBody = z.object({
  name: z.string().min(1, 'Enter a name'),
  options: z.array(z.object({ text: z.string().max(3, 'At most 3 characters') })),
  limit: z.number().int().min(1, 'At least 1').optional(),
});

beforeAll(async () => {
  t = await createTestApp({
    configure: (app) => {
      app.post('/api/2/test/nested/:id', {
        config: { access: 'user' },
        schema: { params: z.object({ id: z.string().regex(/^\d+$/) }), body: nestedBody, response: { 204: z.null(), ...errorResponses } },
        handler: async (_request, reply) => reply.status(204).send(),
      });
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('validation errors', () => {
  it('carry the path and message of every field at fault; the message stays the first problem', async () => {
    const u = await t.createUser();
    const response = await t.inject(u, {
      method: 'POST',
      url: '/api/2/test/nested/1',
      payload: { name: '', options: [{ text: 'ok' }, { text: 'too long' }], limit: 0 },
    });
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body).toEqual({
      type: 'validation_error',
      message: 'Invalid body field "name": Enter a name',
      fields: { name: 'Enter a name', 'options.1.text': 'At most 3 characters', limit: 'At least 1' },
    });
  });

  it('of a real route: the contract schema message on the field', async () => {
    const u = await t.createUser();
    const response = await t.inject(u, {
      method: 'POST',
      url: '/api/2/channels',
      payload: { display_name: 'x'.repeat(CHANNEL_NAME_MAX + 1) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      type: 'validation_error',
      fields: { display_name: `A channel name has at most ${CHANNEL_NAME_MAX} characters` },
    });
  });

  it('of route parameters and of the whole body name no field', async () => {
    const u = await t.createUser();
    const params = await t.inject(u, { method: 'POST', url: '/api/2/test/nested/abc', payload: { name: 'a', options: [] } });
    expect(params.statusCode).toBe(400);
    expect(params.json()).toMatchObject({ type: 'validation_error' });
    expect(params.json()).not.toHaveProperty('fields');
    const notAnObject = await t.inject(u, { method: 'PUT', url: '/api/2/user/settings', payload: [1, 2] });
    expect(notAnObject.statusCode).toBe(400);
    expect(notAnObject.json()).not.toHaveProperty('fields');
  });

  it('keeps the first message of a field with several problems', () => {
    expect(
      fieldErrorsOf([
        { instancePath: '/a', message: 'first' },
        { instancePath: '/a', message: 'second' },
        { instancePath: '', message: 'whole object' },
        { instancePath: '/b/0/c' },
      ]),
    ).toEqual({ a: 'first', 'b.0.c': 'Invalid value' });
  });
});

describe('refusals about one field', () => {
  it('name the field: deleting a channel with the wrong typed name', async () => {
    const owner = await t.createUser();
    const created = await t.inject(owner, { method: 'POST', url: '/api/2/channels', payload: { display_name: 'Field Channel' } });
    const { id } = created.json<{ id: string }>();
    const wrong = await t.inject(owner, { method: 'DELETE', url: `/api/2/channels/${id}?name=field%20channel` });
    expect(wrong.statusCode).toBe(400);
    const message = 'Type the channel name "Field Channel" exactly to confirm.';
    expect(wrong.json()).toEqual({ type: 'bad_request', message, fields: { name: message } });
  });

  it('name the field: deleting the account with the wrong typed name', async () => {
    const u = await t.createUser({ displayName: 'Exact Name' });
    const wrong = await t.inject(u, { method: 'DELETE', url: '/api/2/user?username=exact%20name' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      type: 'bad_request',
      fields: { username: 'Type your display name "Exact Name" exactly to confirm.' },
    });
  });

  it('other refusals carry no fields', async () => {
    const u = await t.createUser();
    const response = await t.inject(u, { method: 'GET', url: '/api/2/channels?cursor=not-a-cursor' });
    expect(response.json()).toMatchObject({ type: 'bad_request' });
    expect(response.json()).not.toHaveProperty('fields');
  });
});
