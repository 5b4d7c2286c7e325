/**
 * An e-mail's content as structure (paragraphs, fact tables, one action link), rendered twice
 * from the same value: plain text here and HTML by MessageHtml.tsx (React escapes every value).
 * Nothing is ever spliced into markup or headers as a string.
 */

export interface MessageSection {
  title: string;
  rows: [label: string, value: string][];
  note?: string;
  /** A link of the section's own, after its rows (one booking's manage link in a list of bookings). */
  link?: { label: string; href: string };
}

export interface MessageContent {
  /** The line shown first, and the HTML document's title. */
  heading: string;
  paragraphs: string[];
  sections: MessageSection[];
  action?: { label: string; href: string; note?: string };
  /** Paragraphs after the facts: contact details, sign-off. */
  closing: string[];
}

export function renderText(content: MessageContent): string {
  const blocks: string[] = [content.heading, ...content.paragraphs];
  for (const section of content.sections) {
    const rows = section.rows.map(([label, value]) => `${label}: ${value}`);
    const link = section.link ? [`${section.link.label}: ${section.link.href}`] : [];
    blocks.push([section.title.toUpperCase(), ...rows, ...(section.note ? [section.note] : []), ...link].join('\n'));
  }
  if (content.action) blocks.push([`${content.action.label}: ${content.action.href}`, ...(content.action.note ? [content.action.note] : [])].join('\n'));
  blocks.push(...content.closing);
  return `${blocks.join('\n\n')}\n`;
}
