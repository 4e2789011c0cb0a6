// verge: the product's one import. Everything a page, a layout or a route table may use is
// exported here; the modules behind it are internals and may move. Browser-safe: nothing here
// may import server-only code (src/vite/server-only.ts).

export { redirect, type Redirect } from "./redirect";
export { notFound, type NotFound } from "./not-found";
export {
  page,
  type Action,
  type ActionArgs,
  type Actions,
  type AppDefinition,
  type CachePolicy,
  type D1Session,
  type Fields,
  type Loader,
  type LoaderArgs,
  type PageEnv,
  type PageMeta,
  type PageProps,
  type VisitorData,
  type RouteTable,
  type PageRoute,
  type Routes,
} from "./route-module";
export { layout, type LayoutData, type LayoutId, type LayoutModule, type LayoutProps } from "./layouts";
export { useLayoutData } from "./layout-data";
export {
  createContext,
  defineMiddleware,
  type ContextKey,
  type Middleware,
  type MiddlewareArgs,
  type MiddlewareKind,
  type RequestContext,
} from "./middleware";
export { invalid, type Invalid, type InvalidOptions } from "./invalid";
export { data, type AnswerOptions, type DataWith } from "./answers";
export { Form, useFormState, type FormProps, type FormState } from "./form";
export { newIdempotencyKey } from "./form-keys";
export {
  Field,
  IdempotencyKey,
  SubmitButton,
  type ChoiceProps,
  type FieldOption,
  type FieldProps,
} from "./form-fields";
export { RadioGroup, Select } from "./form-choices";
export { formFor, type TypedForm } from "./typed-form";
export {
  action,
  type ActionResult,
  type FieldNames,
  type FormSchema,
  type SchemaAction,
  type SchemaActionArgs,
  type SchemaActionOptions,
} from "./schema-action";
export type { StandardSchemaV1 } from "./standard-schema";
export { Await } from "./await";
export { PageTransition, type PageTransitionProps } from "./page-transition";
export { visitorKey, withinVisitorLimit, type Limiter, type VisitorLimits } from "./visitor-limit";
export { IDEMPOTENCY_FIELD, type ActionFailure, type FieldErrors } from "./protocol";
export { STATUS } from "./protocol";
export { href, type Params, type Register, type RoutePattern, type SearchValues } from "./href";
export type { Data, LoaderData, Serialized } from "./page-data-types";
export {
  endpoint,
  type EndpointArgs,
  type EndpointHandler,
  type EndpointModule,
  type EndpointRoute,
} from "./endpoint";
export { setCookie, deleteCookie, getCookie, type CookieOptions } from "./cookies";
export { Link, type Href, type LinkProps } from "./link";
export {
  navigate,
  useNavigate,
  useNavigation,
  useRevalidator,
  useSearchParams,
  type NavigateOptions,
  type Revalidator,
  type SearchParamsInit,
  type SetSearchParams,
} from "./navigation-hooks";
export type { Navigation, NavigationLocation } from "./navigation-state";
export {
  useFetcher,
  type Fetcher,
  type FetcherFormProps,
  type FetcherState,
  type FetcherSubmitOptions,
} from "./fetcher";
export type { FetcherBody } from "./router-context";
