/**
 * A yes-or-no check (is the storage writable, does the bucket answer) whose last answer is kept and
 * renewed behind the askers' backs, for a healthcheck that load balancers ask many times a second.
 *
 * Asking the storage itself each time made every healthcheck wait for a turn in the place where the
 * check runs: on local disk, Node's small pool of threads, which a busy site fills with its own work
 * (signing thousands of federation deliveries there, for one); on S3, one more request to the
 * bucket per healthcheck. So an answer younger than `freshMs` is given as it is; an older one is
 * given too while a new check runs for the next askers; past `staleMs` (the check has hung or the
 * site was idle) askers wait for the new check, so that a healthcheck never reports an old "yes"
 * for long. A check that throws counts as "no".
 */
export class KeptCheck {
  private answer: boolean | null = null;
  private checkedAt = 0;
  private running: Promise<boolean> | null = null;
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(
    private readonly check: () => Promise<boolean>,
    opts: { freshMs?: number; staleMs?: number; now?: () => number } = {},
  ) {
    this.freshMs = opts.freshMs ?? 1_000;
    this.staleMs = opts.staleMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  ask(): Promise<boolean> {
    const age = this.now() - this.checkedAt;
    if (this.answer === null || age > this.staleMs) return this.renew();
    if (age > this.freshMs) void this.renew();
    return Promise.resolve(this.answer);
  }

  /** One check at a time, however many ask while it runs. */
  private renew(): Promise<boolean> {
    this.running ??= this.check()
      .catch(() => false)
      .then((answer) => {
        this.answer = answer;
        this.checkedAt = this.now();
        return answer;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
