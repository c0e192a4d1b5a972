/**
 * A signed cookie (`name=value.signature`, as React Router writes it) with the signature's first character
 * changed: same name, same value, a well-formed signature that no secret made. Not the last character: a
 * signature is 43 base64 characters, the last carries two padding bits, and a change there alone can decode
 * to the same bytes, which is the genuine signature and rightly accepted. A first character written
 * percent-encoded (`%2B` for `+`, `%2F` for `/`) is replaced whole, so the signature keeps its length.
 */
export function withForgedSignature(cookie: string): string {
  const at = cookie.lastIndexOf(".") + 1;
  if (at === 0) throw new Error(`not a signed cookie: ${cookie}`);
  const width = cookie.startsWith("%", at) ? 3 : 1;
  const other = cookie[at] === "A" ? "B" : "A";
  return `${cookie.slice(0, at)}${other}${cookie.slice(at + width)}`;
}
