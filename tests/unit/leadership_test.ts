import assert from "node:assert/strict";
import { Leadership, type Lease, leaseOf } from "../../src/leadership.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";

const TTL = 10_000;

/** Three boards' leaderships over one store's lease, on one fake clock (the store's too). */
function boards(count = 3) {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  const lease = leaseOf(source.boardStore, "background")!;
  const leaderships = Array.from(
    { length: count },
    (_, i) => new Leadership(lease, { ttlMs: TTL, timers, holder: `board-${i}` }),
  );
  const leaders = () => leaderships.filter((l) => l.leads()).map((l) => l.holder);
  return { timers, source, leaderships, leaders };
}

Deno.test("Leadership: of three boards asked at once, one leads", async () => {
  const { leaderships, leaders, source } = boards();
  assert.deepEqual(leaders(), [], "nobody leads before the first take");
  await settle();
  assert.deepEqual(leaders(), ["board-0"]);
  for (const l of leaderships) await l.close();
  await source.close();
});

Deno.test("Leadership: the leader renews every third of the period and keeps leading", async () => {
  const { timers, leaderships, leaders, source } = boards();
  leaders();
  await settle();
  for (let i = 0; i < 10; i++) {
    await timers.tick(TTL / 3);
    assert.deepEqual(leaders(), ["board-0"]);
  }
  for (const l of leaderships) await l.close();
  await source.close();
});

Deno.test("Leadership: a leader that closes gives the lease back, and another leads within one lease period", async () => {
  const { timers, leaderships, leaders, source } = boards();
  leaders();
  await settle();
  await leaderships[0].close();
  assert.equal(leaderships[0].leads(), false);
  // A follower looks again when the lease it saw would have run out.
  await timers.tick(TTL + 1);
  assert.deepEqual(leaders(), ["board-1"]);
  for (const l of leaderships) await l.close();
  await source.close();
});

Deno.test("Leadership: when the leader stops renewing, another leads within one lease period", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  let alive = true;
  const real = leaseOf(source.boardStore, "background")!;
  // The leader's process dies: from then on its renewals never reach the store.
  const dying: Lease = {
    hold: (holder, ttlMs) => alive ? real.hold(holder, ttlMs) : new Promise(() => {}),
    remaining: () => real.remaining(),
    release: (holder) => alive ? real.release(holder) : new Promise(() => {}),
  };
  const leader = new Leadership(dying, { ttlMs: TTL, timers, holder: "leader" });
  const follower = new Leadership(real, { ttlMs: TTL, timers, holder: "follower" });
  leader.leads();
  await settle();
  follower.leads();
  await timers.tick(TTL / 3); // the leader's last renewal
  assert.equal(follower.leads(), false);
  alive = false;
  await timers.tick(TTL - 1);
  assert.equal(follower.leads(), false, "the lease still runs");
  await timers.tick(2);
  assert.equal(follower.leads(), true, "taken as soon as it ran out");
  await follower.close();
  await source.close();
});

Deno.test("Leadership: a leader stops leading on its own clock when the store stops answering", async () => {
  const timers = new FakeTimers();
  let answering = true;
  const lease: Lease = {
    hold: () =>
      answering
        ? Promise.resolve({ held: true, expiresInMs: TTL })
        : Promise.reject(new Error("down")),
    remaining: () => Promise.reject(new Error("down")),
    release: () => Promise.resolve(),
  };
  const leadership = new Leadership(lease, { ttlMs: TTL, timers });
  leadership.leads();
  await settle();
  assert.equal(leadership.leads(), true);
  answering = false;
  await timers.tick(TTL - 1);
  assert.equal(leadership.leads(), true);
  await timers.tick(1);
  assert.equal(leadership.leads(), false);
  answering = true;
  await timers.tick(TTL / 3);
  assert.equal(leadership.leads(), true, "it leads again once the store answers");
  await leadership.close();
});

Deno.test("Leadership: a board nobody asks for a minute gives the lease back and sends nothing", async () => {
  const timers = new FakeTimers();
  const holds: string[] = [];
  const source = createMemorySource({ now: () => timers.now() });
  const real = leaseOf(source.boardStore, "background")!;
  const counted: Lease = {
    hold: (holder, ttlMs) => (holds.push(holder), real.hold(holder, ttlMs)),
    remaining: () => real.remaining(),
    release: (holder) => real.release(holder),
  };
  const idle = new Leadership(counted, { ttlMs: TTL, keepMs: 60_000, timers, holder: "idle" });
  const asked = new Leadership(counted, { ttlMs: TTL, keepMs: 60_000, timers, holder: "asked" });
  idle.leads();
  await settle();
  asked.leads();
  for (let t = 0; t < 70_000; t += 5_000) {
    asked.leads(); // someone keeps looking at this one only
    await timers.tick(5_000);
  }
  assert.equal(asked.leads(), true, "the asked board took the lease the idle one gave back");
  assert.equal(timers.pending, 1, "the idle board has no timer left");
  const before = holds.filter((h) => h === "idle").length;
  await timers.tick(60_000);
  assert.equal(holds.filter((h) => h === "idle").length, before);
  await idle.close();
  await asked.close();
  await source.close();
});

Deno.test("Leadership: a board alone on its store (no lease) always leads", () => {
  assert.equal(leaseOf(createMemoryBoardStore({ shared: false }), "background"), null);
  assert.equal(new Leadership(null).leads(), true);
});

Deno.test("Leadership: each turn tells its listeners whether this board leads", async () => {
  const { timers, leaderships, source } = boards(2);
  const turns: boolean[][] = [[], []];
  leaderships.forEach((l, i) => l.onTurn((leads) => turns[i].push(leads)));
  leaderships.forEach((l) => l.leads());
  await settle();
  await timers.tick(TTL / 3);
  // The follower's next turn is when the lease it saw runs out.
  assert.deepEqual(turns, [[true, true], [false]]);
  await timers.tick(TTL - TTL / 3 + 1);
  assert.deepEqual(turns[1], [false, false]);
  for (const l of leaderships) await l.close();
  await source.close();
});

Deno.test("Leadership: keep() holds a competing board in the race, and starts none", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  const holds: string[] = [];
  const real = leaseOf(source.boardStore, "background")!;
  const counted: Lease = {
    hold: (holder, ttlMs) => (holds.push(holder), real.hold(holder, ttlMs)),
    remaining: () => real.remaining(),
    release: (holder) => real.release(holder),
  };
  const leadership = new Leadership(counted, { ttlMs: TTL, keepMs: 60_000, timers });
  leadership.keep();
  await timers.tick(TTL);
  assert.deepEqual(holds, [], "keep() alone sends nothing");
  leadership.leads();
  for (let t = 0; t < 120_000; t += 10_000) {
    leadership.keep(); // requests come; no pass asks
    await timers.tick(10_000);
  }
  assert.equal(leadership.isLeading, true, "still leading two minutes on");
  await leadership.close();
  await source.close();
});

Deno.test("Leadership: a listener that asks at each turn keeps one take a turn, not one more each turn", async () => {
  const timers = new FakeTimers();
  let holds = 0;
  const lease: Lease = {
    hold: (_holder, ttlMs) => (holds++, Promise.resolve({ held: true, expiresInMs: ttlMs })),
    remaining: () => Promise.resolve(TTL),
    release: () => Promise.resolve(),
  };
  const leadership = new Leadership(lease, { ttlMs: TTL, timers });
  // As the change feed's listener does while someone needs it.
  leadership.onTurn(() => leadership.leads());
  leadership.leads();
  await settle();
  for (let turn = 0; turn < 10; turn++) await timers.tick(TTL / 3);
  assert.equal(holds, 11, "the first take and one renewal a turn");
  assert.equal(timers.pending, 1, "one turn ahead");
  await leadership.close();
});

Deno.test("Leadership: a follower looks how long the lease runs on once it would run out, and takes none it saw held", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  const real = leaseOf(source.boardStore, "background")!;
  const sent: string[] = [];
  const counted = (lease: Lease): Lease => ({
    hold: (holder, ttlMs) => (sent.push(`hold ${holder}`), lease.hold(holder, ttlMs)),
    remaining: () => (sent.push("remaining"), lease.remaining()),
    release: (holder) => lease.release(holder),
  });
  const leader = new Leadership(real, { ttlMs: TTL, timers, holder: "leader" });
  const follower = new Leadership(counted(real), { ttlMs: TTL, timers, holder: "follower" });
  leader.leads();
  await settle();
  follower.leads();
  for (let t = 0; t < 60_000; t += 1_000) {
    leader.leads();
    follower.leads();
    await timers.tick(1_000);
  }
  // Before, a take every third of the period: 19 holds in the minute, a script of three commands
  // each in Redis. Now one take, then one read each time the lease it saw would run out: every
  // 6.7 to 10 s, as the leader renewed just after or just before it looked.
  assert.deepEqual(sent.filter((s) => s.startsWith("hold")), ["hold follower"]);
  const looks = sent.filter((s) => s === "remaining").length;
  assert.ok(looks >= 5 && looks <= 9, `${looks} looks in a minute: ${sent}`);
  assert.equal(follower.isLeading, false);
  await leader.close();
  await follower.close();
  await source.close();
});
