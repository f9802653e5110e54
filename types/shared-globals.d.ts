// The few globals that src/shared uses beyond ECMAScript, which Node and browsers both provide.
// Only src/shared/tsconfig.json includes this file: everywhere else the DOM's or Node's types declare them.

declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly username: string;
  readonly password: string;
}
