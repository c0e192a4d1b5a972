/**
 * The WebAuthn relying party the portal is (issue 32, decision 0060): the passkeys are bound to this host name
 * and their answers must come from this origin, both read from PUBLIC_URL so that a passkey made on the portal
 * cannot be used on a look-alike site (what makes passkeys phishing-resistant).
 */
export interface RelyingParty {
  /** The RP id: the host name of PUBLIC_URL, without scheme or port (`portail.example.fr`). */
  id: string;
  /** The name the browser and the phone show next to the passkey. */
  name: string;
  /** The origin every ceremony's client data must carry (`https://portail.example.fr`). */
  origin: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: "Portail Avantages", origin: url.origin };
}
