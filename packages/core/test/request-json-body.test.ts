import { describe, expect, it } from 'vitest';
import { forgetJsonText, rememberJsonText, toRequestJsonBody, toRequestJsonParts } from '../src/utils/raw-json-text.js';

// An upstream request whose messages carry the client's own text (a large prompt, issue #34).
const messagesText = '[ {"role":"user","content":"hi\\u0021"} ]';
const withText = (bytes?: boolean) => {
  const messages = JSON.parse(messagesText) as unknown[];
  rememberJsonText(messages, messagesText, bytes ? Buffer.from(messagesText) : undefined);
  return messages;
};

describe('toRequestJsonBody', () => {
  it('is JSON.stringify when the messages carry no text', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 1 };
    expect(toRequestJsonBody(body)).toBe(JSON.stringify(body));
  });

  it('writes the remembered text in place, the other fields in order, undefined ones left out', () => {
    const body = { model: 'm', skip: undefined, messages: withText(), stream_options: { include_usage: true } };
    const text = toRequestJsonBody(body);
    expect(text).toBe(`{"model":"m","messages":${messagesText},"stream_options":{"include_usage":true}}`);
    expect(toRequestJsonBody({ messages: withText() })).toBe(`{"messages":${messagesText}}`);
  });

  it('gives bytes when bytes were remembered, and JSON.stringify once the text is forgotten', () => {
    const messages = withText(true);
    const body = { model: 'm', messages };
    const bytes = toRequestJsonBody(body);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.toString()).toBe(`{"model":"m","messages":${messagesText}}`);
    forgetJsonText(messages);
    expect(toRequestJsonBody(body)).toBe(JSON.stringify(body));
  });
});

describe('toRequestJsonParts', () => {
  it('gives the remembered bytes themselves between the other fields, and text otherwise', () => {
    const bytes = Buffer.from(messagesText);
    const messages = JSON.parse(messagesText) as unknown[];
    rememberJsonText(messages, messagesText, bytes);
    const parts = toRequestJsonParts({ model: 'm', messages, stream: true });
    expect(Array.isArray(parts)).toBe(true);
    const [head, middle, tail] = parts as Buffer[];
    expect(middle).toBe(bytes);
    expect(`${head}${middle}${tail}`).toBe(`{"model":"m","messages":${messagesText},"stream":true}`);
    expect(toRequestJsonParts({ messages: withText() })).toBe(`{"messages":${messagesText}}`);
  });
});
