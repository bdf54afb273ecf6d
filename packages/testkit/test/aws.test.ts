import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, eventStreamFrames, verifySigV4 } from '../src/index.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-1',
};

async function signedRequest(body: string, secret = credentials.secretAccessKey): Promise<RecordedRequest> {
  const signer = new SignatureV4({
    service: 'bedrock',
    region: 'us-east-1',
    credentials: { ...credentials, secretAccessKey: secret },
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'http:',
    hostname: '127.0.0.1',
    port: 9,
    path: '/model/a%3A0/converse',
    query: {},
    headers: { host: '127.0.0.1:9', 'content-type': 'application/json' },
    body,
  });
  const headers = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  return {
    method: 'POST',
    path: '/model/a%3A0/converse',
    query: {},
    headers,
    body: Buffer.from(body),
    bodyText: body,
    json: JSON.parse(body),
    closedByClient: false,
  };
}

describe('verifySigV4', () => {
  it('accepts a correctly signed request and refuses a wrong secret, a changed body or a missing session token', async () => {
    expect(await verifySigV4(await signedRequest('{"a":1}'), credentials)).toEqual({ ok: true });
    expect(await verifySigV4(await signedRequest('{"a":1}', 'wrong-secret'), credentials)).toEqual({
      ok: false,
      reason: 'the signature does not match',
    });
    const tampered = await signedRequest('{"a":1}');
    tampered.body = Buffer.from('{"a":2}');
    expect((await verifySigV4(tampered, credentials)).ok).toBe(false);
    const noToken = await signedRequest('{"a":1}');
    delete noToken.headers['x-amz-security-token'];
    expect((await verifySigV4(noToken, credentials)).ok).toBe(false);
  });
});

describe('eventStreamFrames', () => {
  it('encodes each recorded event as one frame, and an exception frame last', () => {
    const frames = eventStreamFrames(['{"messageStart":{"role":"assistant"}}'], {
      type: 'throttlingException',
      message: 'slow down',
    });
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const [event, exception] = frames.map((f) => codec.decode(f));
    expect(event!.headers[':event-type']!.value).toBe('messageStart');
    expect(JSON.parse(toUtf8(event!.body))).toEqual({ role: 'assistant' });
    expect(exception!.headers[':message-type']!.value).toBe('exception');
    expect(exception!.headers[':exception-type']!.value).toBe('throttlingException');
  });
});
