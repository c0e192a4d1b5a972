/**
 * Where an error summary's link may lead (issue 13, finding 8): never to a disabled control — without JS
 * the browser moves there and focuses nothing. For a group of radios, the first option still open,
 * else the group itself (its fieldset).
 */
export function firstEnabledOption<T extends string>(
  options: readonly T[],
  enabled: (option: T) => boolean,
  idOf: (option: T) => string,
  groupId: string,
): string {
  const open = options.find(enabled);
  return open === undefined ? groupId : idOf(open);
}
