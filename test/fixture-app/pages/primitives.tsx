// /primitives: the navigation primitives on one page (Link, navigate, useNavigate, useNavigation,
// useRevalidator, useSearchParams), each showing what it sees, for the browser tests.
import { useEffect } from "react";
import * as v from "valibot";
import {
  action,
  Form,
  Link,
  navigate,
  useNavigate,
  useNavigation,
  useRevalidator,
  useSearchParams,
  type Actions,
  type PageProps,
} from "verge";

/** How often the loader has run in this isolate: a revalidation shows it run again. */
let loads = 0;

export const title = "Primitives";

export const loader = () => ({ loads: ++loads });

export const actions = {
  note: action(v.object({ note: v.string() }), ({ input }) => ({ noted: input.note })),
} satisfies Actions;

/** useNavigation's state, and every state it went through, in `window.__navigations`. */
function NavigationSeen() {
  const navigation = useNavigation();
  useEffect(() => {
    const seen = [navigation.state, navigation.location?.pathname, navigation.formData?.get("note")];
    const all = ((window as { __navigations?: string[] }).__navigations ??= []);
    all.push(seen.filter(Boolean).join(" "));
  }, [navigation]);
  return <p data-testid="navigation">navigation {navigation.state}</p>;
}

export default function Primitives({ data }: PageProps<typeof loader, "/primitives", typeof actions>) {
  const [params, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const go = useNavigate();
  const step = Number(params.get("step") ?? 0);
  return (
    <>
      <h1>Primitives</h1>
      <NavigationSeen />
      <p data-testid="step">step {params.get("step") ?? "none"}</p>
      <p data-testid="loads">loaded {data.loads}</p>
      <p data-testid="revalidator">revalidator {revalidator.state}</p>
      <p>
        <button type="button" onClick={() => void setParams({ step: String(step + 1) })}>
          Next step
        </button>{" "}
        <button
          type="button"
          onClick={() => void setParams((current) => (current.set("step", "0"), current), { replace: true })}
        >
          Step 0 in place
        </button>{" "}
        <button type="button" onClick={() => void revalidator.revalidate()}>
          Revalidate
        </button>{" "}
        <button type="button" onClick={() => void go("/slow")}>
          Navigate to slow
        </button>{" "}
        <button type="button" onClick={() => void navigate("/errors", { replace: true })}>
          Replace with errors
        </button>
      </p>
      <p>
        <Link to="/errors" prefetch="render">
          Errors, prefetched when shown
        </Link>{" "}
        <Link to="/slow" prefetch="none">
          Slow, never prefetched
        </Link>{" "}
        <Link to="/account" replace>
          Account, in place
        </Link>
      </p>
      <Form actionName="note">
        <label htmlFor="note">Note</label> <input id="note" name="note" />{" "}
        <button type="submit">Send the note</button>
      </Form>
    </>
  );
}
