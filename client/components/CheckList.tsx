/** A list of included items, each with a tick. */
import { Icon } from './Icon.tsx';
import './CheckList.css';

export function CheckList({ items }: { items: readonly string[] }) {
  return (
    <ul className="check-list">
      {items.map((item) => (
        <li key={item}>
          <Icon name="check" size={18} /> {item}
        </li>
      ))}
    </ul>
  );
}
