/**
 * Creates a virtual key through the admin API of a running gateway (`POST {origin}/admin/keys` with the master key;
 * `body` as that endpoint takes it: `name`, limits, models...) and returns its id and secret. `origin` is the gateway's
 * base URL without `/v1`. Throws when the API refuses.
 */
export async function createAdminKey(
  origin: string,
  masterKey: string,
  body: Record<string, unknown>,
): Promise<{ id: string; key: string }> {
  const res = await fetch(`${origin}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST /admin/keys answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string; key: string };
}
