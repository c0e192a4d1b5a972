/** Which store the mobile-app banner points to, from the User-Agent (spec 000 §2 Layout). */
export function mobilePlatformOf(userAgent: string | null): "ios" | "android" | null {
  if (!userAgent) return null;
  if (/iPhone|iPad|iPod/i.test(userAgent)) return "ios";
  if (/Android/i.test(userAgent)) return "android";
  return null;
}
