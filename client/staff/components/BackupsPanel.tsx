/**
 * Backups (issue 42), the owner's alone: the backups in BACKUP_DIR (when, size, schema version),
 * each to download, and "Back up now". Loaded when its tab is first opened.
 */
import { useCallback, useEffect, useState } from 'react';
import type { BackupDto, BackupListDto } from '#api/backup-schemas.ts';
import { ApiError, call } from '../lib/staff-api.ts';
import { dateTime } from './format.ts';
import './BackupsPanel.css';

const size = (bytes: number) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`);

export default function BackupsPanel({ onSignedOut }: { onSignedOut(): void }) {
  const [list, setList] = useState<BackupListDto | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [taken, setTaken] = useState<BackupDto | null>(null);

  const failed = useCallback(
    (caught: unknown, fallback: string) => {
      if (caught instanceof ApiError && caught.status === 401) return onSignedOut();
      setError(caught instanceof ApiError ? caught.message : fallback);
    },
    [onSignedOut],
  );
  const load = useCallback(async () => {
    try {
      setList(await call<BackupListDto>('/v1/backups'));
    } catch (caught) {
      failed(caught, 'The backups could not be loaded. Check the connection and try again.');
    }
  }, [failed]);
  useEffect(() => void load(), [load]);

  const backUpNow = async () => {
    setBusy(true);
    setError(null);
    setTaken(null);
    try {
      setTaken(await call<BackupDto>('/v1/backups', { method: 'POST' }));
      await load();
    } catch (caught) {
      failed(caught, 'The backup could not be taken. Check the connection and try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="backups" aria-labelledby="backups-title">
      <h2 id="backups-title">Backups</h2>
      {list && (
        <p>
          {!list.enabled
            ? 'Backups are off: set BACKUP_DIR.'
            : list.everyHours > 0
              ? `A backup is taken every ${list.everyHours} hours; ${list.keep > 0 ? `the newest ${list.keep} are kept` : 'all are kept'}. Copy them off this machine.`
              : 'Scheduled backups are off (BACKUP_EVERY_HOURS=0).'}
        </p>
      )}
      <button type="button" className="button button-small" disabled={busy || list?.enabled === false} aria-busy={busy} onClick={backUpNow}>
        {busy ? 'Backing up…' : 'Back up now'}
      </button>
      <p role="status" className="backups-status">
        {taken ? `Backup taken: ${taken.name} (${size(taken.sizeBytes)}).` : ''}
      </p>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {list && list.backups.length === 0 && list.enabled && <p>No backups yet.</p>}
      {list && list.backups.length > 0 && (
        <table className="backups-table">
          <caption className="visually-hidden">Backups, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Taken</th>
              <th scope="col">Size</th>
              <th scope="col">Schema</th>
              <th scope="col">
                <span className="visually-hidden">Download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.backups.map((backup) => (
              <tr key={backup.name}>
                <td>{dateTime(backup.takenAt)}</td>
                <td>{size(backup.sizeBytes)}</td>
                <td>{backup.schemaVersion.slice(0, 3)}</td>
                <td>
                  <a href={`/v1/backups/${backup.name}`} download>
                    Download<span className="visually-hidden"> the backup of {dateTime(backup.takenAt)}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
