// The stations flow's claim, shell side: ask the engine, write the claim, wait the settle time, read
// the labels back, and let the engine say who keeps it; the loser withdraws and tries the next one.
// GitHub labels have no compare-and-swap, so this is the whole protocol; a claimer whose own window
// (facts read to claim written) reached the settle withdraws (the engine's rule, told the measured
// time), and when to stop trying (the engine answers `queue-empty` once the races lost reach its limit).
// The I/O is a small port ({ readFacts, readLabels, apply }) so the same loop runs on GitHub, on the
// emulator and in tests.

/**
 * A claim that cannot be written because labels are missing: it stops the loop (a station's too) before
 * anything is written, since a claim label that is not there reads back as a lost race, the loop walks
 * every candidate, and "queue-empty" would be false.
 */
export class LabelsMissing extends Error {
  constructor(slug, names) {
    const what = names.length
      ? `${names.length} label${names.length === 1 ? "" : "s"} the config uses do${names.length === 1 ? "es" : ""} not exist in ${slug} (${names.slice(0, 4).join(", ")}${names.length > 4 ? ` and ${names.length - 4} more` : ""})`
      : `the labels a claim writes do not exist in ${slug}`;
    super(`claim: ${what}; create them with \`prflow labels --repo ${slug} --live\`, then claim again`);
    this.fatal = true;
  }
}

/** Throws LabelsMissing when a label of the config's catalogue is not among the repository's `have`. */
export function labelsOrThrow(engine, have, slug) {
  const catalog = engine.labelCatalog();
  if (catalog.configErrors?.length) return; // the engine's claim reports them
  const names = new Set(have);
  const missing = catalog.labels.map((l) => l.name).filter((n) => !names.has(n));
  if (missing.length) throw new LabelsMissing(slug, missing);
}

const sleepMs = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One `prflow claim <role> <machine>`. Returns `{ line, result, races, claimed }`: `line` is what the
 * command prints; `races` the lost races on the way; `claimed` the pull request this machine now holds,
 * or null. With `dryRun`, nothing is written and the first answer is final.
 */
export async function claimNext({
  engine,
  role,
  machine,
  port,
  dryRun = false,
  sleep = sleepMs,
  settleMs,
  now = () => performance.now(),
  log = () => {},
}) {
  const races = [];
  if (port.repoLabels) labelsOrThrow(engine, await port.repoLabels(), port.slug);
  for (;;) {
    // The claim's window, from before the facts read to the write acknowledged: the engine withdraws a
    // claim whose window reached the settle (a rate limit's retry-after can stretch it past it).
    const opened = now();
    const facts = await port.readFacts();
    const result = engine.claim({ facts, role, machine, lost: races.length });
    for (const w of result.warnings) log(`warning: ${w.message}`);
    // The engine drops a claim's label ops when the labels are not in the repository (under any flow's
    // config): nothing could be written, so this is the labels' fault, not a race.
    if (result.kind === "claim" && !result.ops.length) throw new LabelsMissing(port.slug ?? "the repository", []);
    if (result.kind !== "claim" || dryRun) return { line: result.line, result, races, claimed: null };
    await port.apply(result.ops);
    const tookMs = now() - opened;
    await sleep(settleMs ?? result.settleSeconds * 1000);
    const labels = await port.readLabels(result.number);
    const race = engine.resolveClaimRace({ labels, machine, number: result.number, tookMs });
    await port.apply(race.ops);
    if (race.won) return { line: race.line, result, races, claimed: result.number };
    races.push(race.line);
    log(`${race.line}, trying the next one`);
  }
}
