import type { Compilable, CompiledQuery, DialectAdapter } from "kysely";
import type { DB } from "./index";

/** A value a prepared query takes at each call, in place of the value its builder was given (prepared below). */
class QueryArgument {
  constructor(readonly name: string) {}
}

/** The arguments' names of a prepared query, each standing in for a value of its type while the query is built. */
export type Argument<A> = <K extends keyof A & string>(name: K) => A[K];

export interface PreparedQuery<A, O> {
  /** Every row, for these arguments. */
  all(db: DB, args: A): Promise<O[]>;
  /** The first row, or undefined. */
  first(db: DB, args: A): Promise<O | undefined>;
}

/**
 * A query of a page read on every request, built and compiled by Kysely once per database rather than at each
 * call (decision 0081): building and compiling cost 40–60 µs a query, as much as SQLite's own reading of a few
 * rows. `build` writes the query as usual, with `arg("name")` wherever a value changes between calls; the
 * compiled SQL and its parameters are kept for the database's dialect, and each call binds the arguments in
 * place of their stand-ins. Only for queries whose shape never changes with the arguments: no `in` list of
 * varying length, no condition added or left out (those stay built at each call).
 * A database opened with Kysely plugins compiles at each call (a plugin may rewrite a query differently each time).
 */
export function prepared<A extends Record<string, unknown>, O>(
  build: (db: DB, arg: Argument<A>) => Compilable<O>,
): PreparedQuery<A, O> {
  const arg = ((name: string) => new QueryArgument(name)) as unknown as Argument<A>;
  const compiledFor = new WeakMap<DialectAdapter, CompiledQuery<O>>();
  const compiled = (db: DB) => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) return build(db, arg).compile();
    let query = compiledFor.get(executor.adapter);
    if (!query) compiledFor.set(executor.adapter, (query = build(db, arg).compile()));
    return query;
  };
  const all = async (db: DB, args: A) => {
    const query = compiled(db);
    const parameters = query.parameters.map((value) => (value instanceof QueryArgument ? args[value.name] : value));
    return (await db.executeQuery<O>({ ...query, parameters })).rows;
  };
  return { all, first: async (db, args) => (await all(db, args))[0] };
}
