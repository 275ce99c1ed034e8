// Where the local provider keeps its sessions, codes and tokens: memory, one store per provider,
// forgotten on restart (signing in again is then what a user does). Written here because
// oidc-provider's own memory adapter is shared by every provider in the process and announces
// itself with a production warning on start-up; this is the adapter interface it documents.
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

export function memoryStore(): (model: string) => Adapter {
  const entries = new Map<string, Entry>();
  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) entries.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  };
  const findWhere = (model: string, test: (p: AdapterPayload) => boolean): AdapterPayload | undefined => {
    for (const key of entries.keys()) {
      if (!key.startsWith(`${model}:`)) continue;
      const payload = live(key);
      if (payload && test(payload)) return payload;
    }
    return undefined;
  };
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000;
      entries.set(`${model}:${id}`, { payload, expiresAt });
    },
    find: async (id) => live(`${model}:${id}`),
    findByUid: async (uid) => findWhere(model, (p) => p.uid === uid),
    findByUserCode: async (userCode) => findWhere(model, (p) => p.userCode === userCode),
    async consume(id) {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      entries.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key);
    },
  });
}
