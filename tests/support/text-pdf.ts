/**
 * A one-page PDF whose text layer holds `lines`, one under the other (Helvetica, WinAnsi: French accents and
 * « € » included), made at run time: the tests' transport passes and proofs (decision 0056) are read by the
 * portal's real reader (PDF.js through unpdf) like any PDF a person uploads.
 */
export function textPdf(lines: string[]): Uint8Array {
  const text = (line: string) =>
    Buffer.from(
      line.replace(/€/g, "\x80").replace(/[\\()]/g, (c) => `\\${c}`),
      "latin1",
    ).toString("latin1");
  const content = ["BT", "/F1 14 Tf", "16 TL", "56 780 Td", ...lines.map((l) => `(${text(l)}) Tj T*`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}

/** A monthly pass of the Paris region for `month` (YYYY-MM) of `price` (« 86,40 »): its period and its price. */
export function navigoPass(month: string, price: string): Uint8Array {
  const [year, m] = month.split("-").map(Number) as [number, number];
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, "0");
  return textPdf([
    "Île-de-France Mobilités",
    "Forfait Navigo Mois",
    "Abonnement mensuel",
    `Valable du 01/${mm}/${year} au ${last}/${mm}/${year}`,
    `Montant TTC ${price} €`,
  ]);
}

/** A proof of subscription that names neither a price nor a period: nothing to read on it. */
export function plainProof(): Uint8Array {
  return textPdf(["Attestation d'abonnement", "Titulaire : Marie Martin", "Abonnement en cours"]);
}
