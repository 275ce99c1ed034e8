// AgentCore's health contract: GET /ping -> {"status":"Healthy"|"HealthyBusy","time_of_last_update"}.
// HealthyBusy while turns are running, so the platform does not treat the session as idle.

export class HealthStatus {
  #active = 0;
  #lastUpdate = Math.floor(Date.now() / 1000);

  get active(): number {
    return this.#active;
  }

  turnStarted(): void {
    if (this.#active++ === 0) this.#touch();
  }

  turnEnded(): void {
    if (--this.#active === 0) this.#touch();
  }

  #touch(): void {
    this.#lastUpdate = Math.floor(Date.now() / 1000);
  }

  body(): { status: 'Healthy' | 'HealthyBusy'; time_of_last_update: number } {
    return { status: this.#active > 0 ? 'HealthyBusy' : 'Healthy', time_of_last_update: this.#lastUpdate };
  }
}
