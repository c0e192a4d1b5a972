import { expect, test } from "vitest";
import { relyingPartyOf } from "./webauthn";

test("the relying party is PUBLIC_URL's host name and origin, whatever its path", () => {
  expect(relyingPartyOf("https://portail.example.fr/avantages/")).toEqual({
    id: "portail.example.fr",
    name: "Portail Avantages",
    origin: "https://portail.example.fr",
  });
});

test("a port stays in the origin but not in the RP id (a passkey belongs to a host name)", () => {
  expect(relyingPartyOf("http://localhost:3911")).toMatchObject({ id: "localhost", origin: "http://localhost:3911" });
  expect(relyingPartyOf("https://portail.example.fr:8443")).toMatchObject({
    id: "portail.example.fr",
    origin: "https://portail.example.fr:8443",
  });
});

test("an address that is not a URL is refused at start, not at the first ceremony", () => {
  expect(() => relyingPartyOf("portail.example.fr")).toThrow();
});
