/** The product mark: decorative, the link around it carries the name. */
export function LogoMark() {
  return (
    <svg className="logo__mark" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#1d3f8f" />
      <rect x="6" y="10" width="20" height="13" rx="2.5" fill="#ffffff" />
      <rect x="6" y="13" width="20" height="3" fill="#1d3f8f" />
    </svg>
  );
}
