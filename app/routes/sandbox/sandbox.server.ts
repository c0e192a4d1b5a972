import { data } from "react-router";
import { getPlatform } from "~/.server/platform";

/** The platform, for the sandbox's own pages (the funder's reviewers): 404 outside sandbox mode. */
export async function sandboxPlatform() {
  const platform = await getPlatform();
  if (!platform.env.sandbox) throw data(null, { status: 404 });
  return platform;
}
