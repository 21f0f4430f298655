/** When the devtools panel opens with the page. */
import { expect, test } from 'vitest';
import { opensAtStart } from '../../client/devtools/panel';

test.each([
  [true, '', false, true],
  [true, '', true, false],
  [true, '?devtools', true, true],
  [false, '', false, false],
  [false, '?a=1&devtools', false, true],
])('dev %s, search "%s", closed before %s: opens %s', (dev, search, closed, opens) => {
  expect(opensAtStart(dev, search, closed)).toBe(opens);
});
