// /twins: a loader redirect, followed by browsers (303) and by the client router alike.
import { redirect } from "verge";

export const title = "Twins";

export function loader() {
  return redirect("/twins/one");
}

export default function Twins() {
  return <h1>Twins</h1>;
}
