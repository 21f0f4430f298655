/** The dev server's log prints a repeated error once per edit. */
import { expect, test } from 'vitest';
import { onceLogger } from '../../server/vite/dev-logger';

function capture() {
  const lines: string[] = [];
  const output = { ...console, error: (line: string) => lines.push(line), warn: () => {}, log: () => {} };
  return { lines, logger: onceLogger(output as Console) };
}

test('one error from five importers is printed once', () => {
  const { lines, logger } = capture();
  for (let i = 0; i < 5; i++) logger.error('Pre-transform error: src/lib/broken.ts: Unexpected token');
  logger.error('Pre-transform error: src/lib/other.ts: Unexpected token');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('broken.ts');
});

test('after a file change the same error is printed again', () => {
  const { lines, logger } = capture();
  logger.error('Pre-transform error: x');
  logger.forget();
  logger.error('Pre-transform error: x');
  expect(lines).toHaveLength(2);
});
