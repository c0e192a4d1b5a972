import type { ReactNode } from "react";
import { DocumentTitle } from "./DocumentTitle";

/** The toolbar of a page: its one <h1>, which also names the document. */
export function PageHeader({ title, error = false, children }: { title: string; error?: boolean; children?: ReactNode }) {
  return (
    <div className="toolbar">
      <DocumentTitle page={title} error={error} />
      <h1 className="toolbar__title">{title}</h1>
      {children}
    </div>
  );
}
