import type { ReactNode } from "react";
import { DocumentTitle } from "./DocumentTitle";

/** The toolbar of a page: its one <h1>, which also names the document. */
export function PageHeader({
  title,
  error = false,
  namesDocument = true,
  children,
}: {
  title: string;
  error?: boolean;
  /** False while a panel route is open: the panel names the document then. */
  namesDocument?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className="toolbar">
      {namesDocument ? <DocumentTitle page={title} error={error} /> : null}
      <h1 className="toolbar__title">{title}</h1>
      {children}
    </div>
  );
}
