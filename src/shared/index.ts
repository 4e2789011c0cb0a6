// verge: the product's one import. Everything a page, a layout or a route table may use is
// exported here; the modules behind it are internals and may move. Browser-safe: nothing here
// may import server-only code (scripts/server-only.mjs).
export {
  page,
  redirect,
  invalid,
  type Action,
  type ActionArgs,
  type Actions,
  type AppDefinition,
  type CachePolicy,
  type D1Session,
  type Fields,
  type Invalid,
  type InvalidOptions,
  type Loader,
  type LoaderArgs,
  type PageEnv,
  type PageMeta,
  type PageProps,
  type Redirect,
  type RouteTable,
} from "./route-module";
export { Form, newIdempotencyKey, useFormState, type FormProps, type FormState } from "./form";
export { Field, SubmitButton, type FieldProps } from "./form-fields";
export { Await } from "./await";
export { validate, characters, type TextRule, type Validated } from "./validate";
export { visitorKey, withinVisitorLimit } from "./visitor-limit";
export { IDEMPOTENCY_FIELD, STATUS, type ActionFailure, type FieldErrors, type Params } from "./protocol";
