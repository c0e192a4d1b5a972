import { describe, expect, test } from "vitest";
import { foldForSearch } from "./search-text";

describe("foldForSearch", () => {
  test("drops accents, case and punctuation", () => {
    expect(foldForSearch("Gîtes du Vercors")).toBe("gites du vercors");
    expect(foldForSearch("  GITES-du   vercors ")).toBe("gites du vercors");
    expect(foldForSearch("Théâtre du Vieux-Lyon")).toBe("theatre du vieux lyon");
  });
  test("reads & as et, so both spellings meet", () => {
    expect(foldForSearch("Boulangerie Pain & Co")).toBe("boulangerie pain et co");
    expect(foldForSearch("pain et co")).toBe("pain et co");
  });
  test("an apostrophe separates words", () => {
    expect(foldForSearch("Librairie de l'Été")).toBe("librairie de l ete");
  });
});
