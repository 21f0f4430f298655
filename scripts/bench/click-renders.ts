/**
 * Which components a commit rendered, read from the production build as React DevTools reads
 * it: React calls `__REACT_DEVTOOLS_GLOBAL_HOOK__.onCommitFiberRoot(id, root)` after each commit
 * when a hook is installed before React loads, in production builds too. No profiling build, no
 * `<Profiler>`: the bench measures the bundle users get.
 *
 * What is counted: a component (function, class, `forwardRef` or `memo` fiber) whose function
 * React called during this commit's render and whose output it used, i.e. a fiber of this render
 * carrying React's `PerformedWork` flag (bit 1; reset for every fiber a render visits, set only
 * when the component ran; a bail-out leaves it clear). A fiber belongs to this render when its
 * parent's children are new work-in-progress fibers (`child !== alternate.child`): a subtree
 * React skipped keeps the very fibers of the previous commit, with their old flags, and is not
 * walked. Each component is named by its function's name (minified in a build) and the first
 * element it renders, which is what tells a progress bar from a link in a minified bundle.
 */

/** The fiber fields the walk reads: a small, stable part of React's internals. */
export interface FiberLike {
  tag: number;
  flags: number;
  type?: unknown;
  child: FiberLike | null;
  sibling: FiberLike | null;
  alternate: FiberLike | null;
  stateNode?: unknown;
}

/**
 * The walk as source text, because it runs in the page (an init script) and in the unit test,
 * which compiles the same text: a compiler's helpers would not exist in the page.
 */
export const RENDERED_IN_COMMIT_SOURCE = `function renderedInCommit(root) {
  // Function, class, forwardRef and simple memo components; a memo with a compare function
  // (tag 14) is counted by the component fiber under it.
  const COMPONENT = [0, 1, 11, 15];
  // Host elements: a DOM element, a hoisted element (<title>, <link>), <html>/<head>/<body>.
  const HOST = [5, 26, 27];
  const PERFORMED_WORK = 1;
  const describeElement = (node) => {
    if (!node || !node.tagName) return '';
    const tag = node.tagName.toLowerCase();
    for (const name of ['role', 'href']) {
      const value = node.getAttribute && node.getAttribute(name);
      if (value !== null && value !== undefined) return '<' + tag + ' ' + name + '="' + value + '">';
    }
    return '<' + tag + '>';
  };
  const firstElement = (fiber) => {
    const stack = fiber.child ? [fiber.child] : [];
    while (stack.length) {
      const f = stack.pop();
      if (HOST.includes(f.tag)) return describeElement(f.stateNode);
      if (f.sibling) stack.push(f.sibling);
      if (f.child) stack.push(f.child);
    }
    return '';
  };
  const nameOf = (type) =>
    (type && (type.displayName || type.name)) ||
    (type && type.render && (type.render.displayName || type.render.name)) ||
    'anonymous';
  const rendered = [];
  const stack = [root.current];
  while (stack.length) {
    const fiber = stack.pop();
    if (COMPONENT.includes(fiber.tag) && (fiber.flags & PERFORMED_WORK) !== 0)
      rendered.push({ name: nameOf(fiber.type), element: firstElement(fiber) });
    if (fiber.sibling) stack.push(fiber.sibling);
    if (fiber.child && (!fiber.alternate || fiber.child !== fiber.alternate.child)) stack.push(fiber.child);
  }
  return rendered;
}`;

export interface RenderedComponent {
  name: string;
  /** The first element it rendered, `<a href="/items/2">`, or `''` when it rendered none. */
  element: string;
}

/** The same walk, for Node (the unit test, and nothing else). */
export const renderedInCommit = new Function(`return ${RENDERED_IN_COMMIT_SOURCE}`)() as (root: {
  current: FiberLike;
}) => RenderedComponent[];

/**
 * Installed before React loads: a hook that React accepts as DevTools, recording each commit's
 * rendered components while `__benchCounting` is set. Roots committed before that are ignored.
 */
export const RENDER_PROBE = `(() => {
  const renderedInCommit = ${RENDERED_IN_COMMIT_SOURCE};
  const commits = [];
  Object.defineProperty(window, '__benchCommits', { value: commits });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject() { return 1; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberRoot(_id, root) { if (window.__benchCounting) commits.push(renderedInCommit(root)); },
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
  };
})()`;

/**
 * How a rendered component reads in the report: `Name <element>`, in backticks, so that the
 * table pasted into Markdown shows the element rather than rendering it.
 */
export const formatRendered = (c: RenderedComponent) =>
  `\`${`${c.name} ${c.element || '(nothing)'}`.trim()}\``;

/**
 * The target: when a click turns pending on, only what reads it renders — the progress bar
 * (`role="progressbar"`) and the clicked link (an `<a>` to the clicked URL). Anything else, the
 * page or the router's root included, is named as a miss.
 */
export function clickRendersVerdict(
  rendered: readonly RenderedComponent[],
  clickedHref: string,
): { ok: boolean; others: RenderedComponent[] } {
  const others = rendered.filter(
    (c) => c.element !== '<div role="progressbar">' && c.element !== `<a href="${clickedHref}">`,
  );
  return { ok: rendered.length > 0 && others.length === 0, others };
}
