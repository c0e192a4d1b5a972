/**
 * The PostgreSQL databases of `npm run bench`, prepared in a process of their own (datasets.ts
 * `preparePostgres`): the bench starts it early and runs its soak meanwhile (the soak measures errors and
 * memory, not throughput), so the company's generation does not add its minutes to the bench's. Started
 * by scripts/bench.ts with `fork`: its input is the JSON of argv[2], its log lines and its result go back
 * as messages.
 */
import { preparePostgres, type DatasetSettings, type PostgresDataset, type PostgresName } from "./datasets";

export type PreparationMessage = { log: string } | { done: PostgresDataset[] } | { failed: string };

export interface PreparationInput {
  baseUrl: string;
  origins: Record<PostgresName, string>;
  settings: DatasetSettings;
}

const send = (message: PreparationMessage) =>
  new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));

const input = JSON.parse(process.argv[2] ?? "{}") as PreparationInput;
try {
  const datasets = await preparePostgres(
    input.baseUrl,
    input.origins,
    input.settings,
    (line) => void send({ log: line }),
  );
  await send({ done: datasets });
} catch (err) {
  await send({ failed: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exitCode = 1;
}
