// verge/test: what a product's worker tests import (inside workerd, through the vitest pool for
// Workers): a visitor with its address and cookies, the requests a browser and the page's script
// send, sign-in with a soft passkey, and the worker's log lines of a request. docs/testing.md.
export { visitor, type Send, type Visitor, type VisitorOptions } from "./visitor";
export { cookieJar, cookiesOf, type CookieJar } from "./cookies";
export { serverLog, type LogLine } from "./server-log";
export type { Account, SignInOptions } from "./sign-in";
export {
  assert,
  base64url,
  fromBase64url,
  register,
  softAuthenticator,
  type Algorithm,
  type Bend,
  type SoftAuthenticator,
} from "./soft-authenticator";
