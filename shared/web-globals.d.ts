/**
 * The one web API shared/ uses: WHATWG `URL`, which browsers and Node both provide as a global.
 * Declared by hand, so that nothing else of the DOM or of Node leaks into the core's types.
 */
declare class URL {
  constructor(input: string, base?: string);
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}
