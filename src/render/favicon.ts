/** The site icon, drawn once as SVG (modern browsers) and served as-is for /favicon.ico requests too. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5fad"/>' +
  '<path d="M6 18l2.5-6a2.5 2.5 0 0 1 2.3-1.6h10.4a2.5 2.5 0 0 1 2.3 1.6L26 18v5H6z" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/>' +
  '<circle cx="11" cy="21" r="1.6" fill="#ffb020"/><circle cx="21" cy="21" r="1.6" fill="#ffb020"/></svg>';
