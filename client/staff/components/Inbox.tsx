/** Messages from the contact form, newest first, marked read or unread. */
import { useEffect, useState } from 'react';
import { mailtoHref, telHref } from '../../lib/contact-links.ts';
import { takeEarly } from '../lib/early-data.ts';
import { ApiError, staffApi, type ContactMessageDto } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';
import './Inbox.css';

export function Inbox({ onSignedOut, onUnread }: { onSignedOut(): void; onUnread(count: number): void }) {
  const [messages, setMessages] = useState<ContactMessageDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    takeEarly('messages').then(
      (answer) => {
        setMessages(answer.data);
        onUnread(answer.unread);
      },
      (caught) => (caught instanceof ApiError && caught.status === 401 ? onSignedOut() : setError('The messages could not be loaded.')),
    );
  }, [onSignedOut, onUnread]);

  const mark = async (message: ContactMessageDto) => {
    try {
      const updated = await staffApi.markMessage(message.id, !message.read);
      setMessages((list) => {
        const next = (list ?? []).map((m) => (m.id === updated.id ? updated : m));
        onUnread(next.filter((m) => !m.read).length);
        return next;
      });
    } catch {
      setError('The message could not be updated.');
    }
  };

  if (error) {
    return (
      <p className="notice notice-error" role="alert">
        {error}
      </p>
    );
  }
  if (messages === null) {
    return (
      <div className="spinner" role="status">
        <span className="visually-hidden">Loading messages…</span>
      </div>
    );
  }
  return (
    <section aria-labelledby="inbox-title">
      <h2 id="inbox-title" className="visually-hidden">
        Messages
      </h2>
      {messages.length === 0 ? (
        <div className="card empty">
          <p className="empty-title">No messages yet</p>
        </div>
      ) : (
        <ul className="inbox">
          {messages.map((message) => (
            <li key={message.id} className={message.read ? 'card message' : 'card message unread'}>
              <div className="message-head">
                <h3>
                  {message.name}
                  {!message.read && <span className="badge">New</span>}
                </h3>
                <time className="message-date" dateTime={message.createdAt}>
                  {dateTime(message.createdAt)}
                </time>
              </div>
              <p className="message-contact">
                <a href={mailtoHref(message.email)}>{message.email}</a> · <a href={telHref(message.phone)}>{message.phone}</a>
              </p>
              <p className="message-text">{message.message}</p>
              <button type="button" className="button button-ghost button-small" onClick={() => mark(message)}>
                {message.read ? 'Mark as unread' : 'Mark as read'}
                <span className="visually-hidden">: message from {message.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
