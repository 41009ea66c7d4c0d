/**
 * Waits until `condition` holds, looking again every 20 ms. Without `withinMs` it waits as long as
 * the test may (a busy machine can take its time; the test's timeout ends a hang); with it, it
 * fails once that long has passed.
 */
export async function until(condition: () => boolean | Promise<boolean>, withinMs?: number): Promise<void> {
  const deadline = withinMs === undefined ? Infinity : Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited ${withinMs} ms in vain`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
