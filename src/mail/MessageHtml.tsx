/** The HTML part of every e-mail: one simple table-free layout with inline styles, as mail clients need. */
import { renderToStaticMarkup } from 'react-dom/server';
import type { MessageContent } from './message.ts';

/** The HTML part of an e-mail, as a whole document. */
export function renderHtml(content: MessageContent): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<MessageHtml content={content} />)}`;
}

const page = { fontFamily: 'Arial, Helvetica, sans-serif', color: '#1f2933', lineHeight: 1.5, margin: 0, padding: '24px', background: '#f5f7fa' };
const card = { maxWidth: '600px', margin: '0 auto', background: '#ffffff', borderRadius: '8px', padding: '24px' };
const label = { textAlign: 'left' as const, verticalAlign: 'top', padding: '4px 16px 4px 0', color: '#52606d', fontWeight: 'normal' };
const button = { display: 'inline-block', background: '#1d4ed8', color: '#ffffff', padding: '12px 20px', borderRadius: '6px', textDecoration: 'none' };

export function MessageHtml({ content }: { content: MessageContent }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{content.heading}</title>
      </head>
      <body style={page}>
        <div style={card}>
          <h1 style={{ fontSize: '22px', margin: '0 0 16px' }}>{content.heading}</h1>
          {content.paragraphs.map((p, i) => (
            <p key={i} style={{ whiteSpace: 'pre-line' }}>
              {p}
            </p>
          ))}
          {content.sections.map((section) => (
            <div key={section.title}>
              <h2 style={{ fontSize: '16px', margin: '24px 0 8px' }}>{section.title}</h2>
              <table role="presentation" style={{ borderCollapse: 'collapse' }}>
                <tbody>
                  {section.rows.map(([name, value]) => (
                    <tr key={name}>
                      <th scope="row" style={label}>
                        {name}
                      </th>
                      <td style={{ padding: '4px 0', whiteSpace: 'pre-line' }}>{value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {section.note && <p style={{ color: '#52606d' }}>{section.note}</p>}
              {section.link && (
                <p>
                  <a href={section.link.href} style={button}>
                    {section.link.label}
                  </a>
                </p>
              )}
            </div>
          ))}
          {content.action && (
            <p style={{ margin: '24px 0' }}>
              <a href={content.action.href} style={button}>
                {content.action.label}
              </a>
              {content.action.note && <span style={{ display: 'block', marginTop: '8px', color: '#52606d' }}>{content.action.note}</span>}
            </p>
          )}
          {content.closing.map((p, i) => (
            <p key={`c${i}`}>{p}</p>
          ))}
        </div>
      </body>
    </html>
  );
}
