// useFetcher(): an action, or another page's data, without navigating (React Router's fetcher).
// Its requests are a <Form>'s and a navigation's (client/fetcher.ts, loaded with its first use).
import {
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type FormEvent,
  type ReactNode,
  type SetStateAction,
} from "react";
import { ACTION_FIELD, IDEMPOTENCY_FIELD, type ActionFailure } from "./protocol";
import { useRouter, type ClientRouter, type FetcherBody, type FetcherTransport } from "./router-context";
import { pageHandedOver, sendInTransition, showOptimistic } from "./submit-transition";

export type FetcherState = "idle" | "submitting" | "loading";

export interface FetcherSubmitOptions {
  /** The verge action's name: `actions[actionName]` of the page posted to. */
  actionName: string;
  /** The page whose action it is (an address of this app); default the page on screen. */
  action?: string;
}

export interface FetcherFormProps {
  /** The verge action's name: `actions[actionName]` of the page posted to. */
  actionName: string;
  /** The page whose action it is (an address of this app); default the page on screen. */
  action?: string;
  /** From the loader (newIdempotencyKey): a resubmitted form applies once. */
  idempotencyKey?: string;
  /** Called with the form's data in the submission's transition: set a useOptimistic() value. */
  optimistic?: (data: FormData) => void;
  className?: string;
  children: ReactNode;
}

export interface Fetcher<T = unknown> {
  state: FetcherState;
  /** The action's result, the loaded page's data, or an action's refusal (its field errors). */
  data: T | ActionFailure | undefined;
  /** Set after a failure that is not a refusal: the server unreachable, an error's digest. */
  failure: { message: string; digest?: string } | null;
  /** Posts to a verge action; settles once the page on screen shows the revalidated data. */
  submit(data: FetcherBody, options: FetcherSubmitOptions): Promise<void>;
  /** Loads the page data of `href` (its loader's `data`), as a navigation would, and stays. */
  load(href: string): Promise<void>;
  /** A verge form that posts through this fetcher; without JavaScript, a plain post. */
  Form: (props: FetcherFormProps) => ReactNode;
}

type Status = Pick<Fetcher, "state" | "data" | "failure">;
type Sent = { shown?: Promise<boolean> };

const UNREACHABLE = "The server could not be reached. Check your connection and try again.";
const samePage = (a: URL, b: URL) => a.pathname === b.pathname && a.search === b.search;

/**
 * `const fetcher = useFetcher<Result>()`. Its submissions have the guards, limits, idempotency
 * and revalidation of <Form>; a newer call replaces the answer of an older one.
 */
export function useFetcher<T = unknown>(): Fetcher<T> {
  const router = useRouter();
  const [status, setStatus] = useState<Status>({ state: "idle", data: undefined, failure: null });
  const calls = useRef(0);
  const run = useMemo(() => runner(router, setStatus, calls), [router]);
  // The same component for the fetcher's life: a new one each render would lose what was typed.
  const running = useRef(run);
  running.current = run;
  const Form = useMemo(() => fetcherForm(() => running.current), []);
  return { ...(status as Status & { data: T | ActionFailure | undefined }), ...run.api, Form };
}

function runner(
  router: ClientRouter | null,
  set: Dispatch<SetStateAction<Status>>,
  calls: { current: number },
) {
  const transport = (): Promise<FetcherTransport | null> =>
    router ? router.fetcher().catch(() => null) : Promise.resolve(null);
  const failed = (failure: Status["failure"]) => set((s) => ({ ...s, state: "idle", failure }));
  const idle = () => {
    failed(null);
    return true;
  };

  /**
   * The action, in a transition: it ends when the answer is in; `shown` settles once the page on
   * screen shows the data after it (true), or the fetcher gave up on it (false).
   */
  async function post(
    url: URL,
    body: FetcherBody,
    actionName: string,
    optimistic?: () => void,
    form?: HTMLFormElement,
  ): Promise<Sent> {
    const call = ++calls.current;
    const latest = () => call === calls.current;
    // Awaited first: the updates below then show at once, not at the action's end.
    const sender = await transport();
    if (!sender || !router) {
      // What the browser would have done without JavaScript: a fetcher.Form posts itself.
      if (form) form.submit();
      else failed({ message: UNREACHABLE });
      return {};
    }
    optimistic?.();
    set((s) => ({ ...s, state: "submitting", failure: null }));
    const outcome = await sender.post(url.href, body, actionName);
    if (outcome.kind === "reload") location.assign(location.href);
    if (outcome.kind === "reload" || !latest()) return {};
    if (outcome.kind === "invalid") {
      const data: ActionFailure = { ok: false, fieldErrors: outcome.fieldErrors, message: outcome.message };
      set({ state: "idle", data, failure: null });
      return {};
    }
    if (outcome.kind === "failed") {
      failed(outcome);
      return {};
    }
    set((s) => ({ ...s, state: "loading" }));
    if (outcome.kind === "redirect") return { shown: router.navigate(outcome.location).then(idle) };
    // notFound(): the not-found view, as a <Form>'s action shows it.
    if (outcome.kind === "notFound")
      return { shown: router.showPage(outcome.page, { url: url.href }).then(idle) };
    // The answer carries the page posted to; another page on screen is asked for its own data.
    const here = new URL(location.href);
    let page = outcome.answer.page;
    if (!samePage(url, here)) {
      const answer = await sender.load(here);
      if (!answer || !("page" in answer)) {
        return { shown: router.navigate(here.href, { replace: true }).then(idle) };
      }
      page = answer.page;
    }
    const { result } = outcome.answer;
    const shown = router
      .showPage(page)
      .then(() => latest() && set({ state: "idle", data: result, failure: null }));
    await pageHandedOver(shown);
    return { shown: shown.then(() => true) };
  }

  /** Sends in a transition begun now (in a submit event: that form's useFormStatus() follows it). */
  function submit(
    url: URL,
    body: FetcherBody,
    actionName: string,
    optimistic?: () => void,
    form?: HTMLFormElement,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      sendInTransition(async () => {
        const sent = await post(url, body, actionName, optimistic, form).catch((): Sent => ({}));
        if (!sent.shown) return resolve(false);
        void sent.shown.then(resolve, () => resolve(false));
      });
    });
  }

  async function load(href: string): Promise<void> {
    const call = ++calls.current;
    const url = new URL(href, location.href);
    set((s) => ({ ...s, state: "loading", failure: null }));
    const answer = await (await transport())?.load(url);
    if (call !== calls.current) return;
    if (answer && "redirect" in answer) {
      await router?.navigate(answer.redirect);
      return failed(null);
    }
    if (answer && "page" in answer && !answer.page.error) {
      return set({ state: "idle", data: answer.page.data, failure: null });
    }
    const digest = answer && ("error" in answer ? answer.error : answer.page.error)?.digest;
    failed(digest ? { message: "Something went wrong.", digest } : { message: UNREACHABLE });
  }

  const api = {
    async submit(data: FetcherBody, options: FetcherSubmitOptions): Promise<void> {
      await submit(new URL(options.action ?? location.href, location.href), data, options.actionName);
    },
    load,
  };
  return { api, submit };
}

/** fetcher.Form: a verge form (`_action`, `_key`) whose submission goes through the fetcher. */
function fetcherForm(run: () => ReturnType<typeof runner>) {
  return function FetcherForm(props: FetcherFormProps) {
    const { actionName, action, idempotencyKey, optimistic, className } = props;
    const router = useRouter();
    const inFlight = useRef(false);
    function onSubmit(event: FormEvent<HTMLFormElement>) {
      if (router === null) return; // no client router: the browser posts the form
      event.preventDefault();
      if (inFlight.current) return; // a double click: the first submission is on its way
      inFlight.current = true;
      const form = event.currentTarget;
      const data = new FormData(form);
      // In the submit event: React's useFormStatus() inside this form is pending until the answer.
      void run()
        .submit(
          new URL(form.action),
          data,
          actionName,
          optimistic && (() => showOptimistic(optimistic, () => data)),
          form,
        )
        .then((ok) => {
          inFlight.current = false;
          // As <Form>: a new idempotency key remounts the form; without one, clear it here.
          if (ok && idempotencyKey === undefined) form.reset();
        });
    }
    return (
      <form key={idempotencyKey} method="post" action={action} className={className} onSubmit={onSubmit}>
        <input type="hidden" name={ACTION_FIELD} value={actionName} />
        {idempotencyKey ? <input type="hidden" name={IDEMPOTENCY_FIELD} value={idempotencyKey} /> : null}
        {props.children}
      </form>
    );
  };
}
