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

export interface PreparedListQuery<A, O> {
  /** Every row, for these arguments and this list (which must not be empty). */
  all(db: DB, args: A, list: readonly string[]): Promise<O[]>;
}

/** The fewest places of a list query's compiled `in` list (the smallest of its compiled lengths). */
const LIST_FLOOR = 8;

/**
 * A prepared query with one list of values of varying length, such as the ids of an `in` list: `build` receives
 * `list`, stand-ins to write where the values go. It is compiled once per length, the lengths being powers of two
 * from 8 (so at most a handful of compiled queries), and a shorter list is padded with its own first value, which
 * an `in` list matches no more often for being named twice. The callers bound their lists' length.
 */
export function preparedList<A extends Record<string, unknown>, O>(
  build: (db: DB, arg: Argument<A>, list: string[]) => Compilable<O>,
): PreparedListQuery<A, O> {
  const byLength = new Map<number, PreparedQuery<A & Record<string, unknown>, O>>();
  const itemName = (i: number) => `\u0000list${i}`;
  const queryOf = (length: number) => {
    let query = byLength.get(length);
    if (!query) {
      query = prepared<A & Record<string, unknown>, O>((db, arg) =>
        build(
          db,
          arg as Argument<A>,
          Array.from({ length }, (_, i) => arg(itemName(i)) as string),
        ),
      );
      byLength.set(length, query);
    }
    return query;
  };
  return {
    all: async (db, args, list) => {
      if (list.length === 0) throw new Error("preparedList: an empty list (the caller answers without a query)");
      let length = LIST_FLOOR;
      while (length < list.length) length *= 2;
      const values: Record<string, unknown> = { ...args };
      for (let i = 0; i < length; i++) values[itemName(i)] = list[i] ?? list[0];
      return queryOf(length).all(db, values as A & Record<string, unknown>);
    },
  };
}
