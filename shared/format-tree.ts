/**
 * The route tree as text, for readers and tests:
 *
 *   / [layout, page, not-found]
 *   ├─ photos
 *   │  └─ [id] [page, page.server]
 *   └─ (marketing) [layout]
 */
import { COMPONENT_FILES, HANDLER_FILE, SERVER_FILES, type RouteNode } from './route-tree.js';

const ROLE_ORDER = [...COMPONENT_FILES, ...SERVER_FILES, HANDLER_FILE] as const;

export function formatTree(root: RouteNode): string {
  const lines = [label('/', root)];
  const walk = (node: RouteNode, indent: string): void => {
    node.children.forEach((child, i) => {
      const last = i === node.children.length - 1;
      lines.push(`${indent}${last ? '└─ ' : '├─ '}${label(child.name, child)}`);
      walk(child, indent + (last ? '   ' : '│  '));
    });
  };
  walk(root, '');
  return lines.join('\n');
}

function label(name: string, node: RouteNode): string {
  const roles = ROLE_ORDER.filter((role) => node.files[role]);
  return roles.length > 0 ? `${name} [${roles.join(', ')}]` : name;
}
