// Types of turn-ws-framing.js (plain JavaScript, so that the page can load it without a build step).
export declare class WsTurnFramer {
  event<E extends { type: string; id?: string }>(event: E): E;
  audio(): { id: string; seq: number } | null;
}
